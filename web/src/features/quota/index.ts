/** Storage quotas in the web app: the sidebar's usage bar and the sizes admins type. */
import { lazy } from 'react';
import { afterFirstScreen } from '../../app/first-screen.ts';

/** The sidebar's usage bar, fetched after the first screen (it needs no words before then). */
export const QuotaMeter = lazy(() =>
  afterFirstScreen()
    .then(() => import('./QuotaMeter.tsx'))
    .then(
      (m) => ({ default: m.QuotaMeter }),
      () => ({ default: () => null }),
    ),
);
export { parseSize, sizeInputText } from './size-input.ts';
