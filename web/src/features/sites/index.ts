import { lazy } from 'react';
import { afterFirstScreen } from '../../app/first-screen.ts';

/**
 * The sidebar's "Sites" entry, fetched once the sidebar renders so the first screen's bundle
 * stays small; if it cannot be fetched the entry is simply missing.
 */
export const SitesSidebarLink = lazy(() =>
  afterFirstScreen()
    .then(() => import('./SitesSidebarLink.tsx'))
    .then(
      (m) => ({ default: m.SitesSidebarLink }),
      () => ({ default: () => null }),
    ),
);
