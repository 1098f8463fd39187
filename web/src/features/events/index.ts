import { lazy } from 'react';
import { afterFirstScreen } from '../../app/first-screen.ts';

/**
 * The event stream that keeps open folders up to date, fetched after the first screen so its
 * bundle stays small; if it cannot be fetched, folders simply update on the next load.
 */
export const LiveFolders = lazy(() =>
  afterFirstScreen()
    .then(() => import('./LiveFolders.tsx'))
    .then(
      (m) => ({ default: m.LiveFolders }),
      () => ({ default: () => null }),
    ),
);
