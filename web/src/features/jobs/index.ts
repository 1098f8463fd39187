// Background copy, move and delete jobs (docs/jobs.md): what other features use of them.
import { lazy } from 'react';
import { afterFirstScreen } from '../../app/first-screen.ts';

export { receiveJobEvent, reloadJobs, waitForJob } from './job-feed.ts';

/** The Jobs panel, fetched after the first screen so the first bundle stays small. */
export const JobsPanel = lazy(() =>
  afterFirstScreen()
    .then(() => import('./JobsPanel.tsx'))
    .then(
      (m) => ({ default: m.JobsPanel }),
      () => ({ default: () => null }),
    ),
);
