import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { lazyComponent } from '../../app/load-chunk.ts';
import { loadUploadPanel, preloadFilesUi } from '../../app/on-demand.ts';
import { firstScreenShown } from '../../app/first-screen.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { useShellStore } from '../../stores/shell-store.ts';
import { canUseShell } from '../shell/index.ts';
import { useUploadStore } from '../../stores/upload-store.ts';
import { OfflineBanner } from '../offline/index.ts';
import { LiveFolders } from '../events/index.ts';
import { JobsPanel } from '../jobs/index.ts';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';
import './layout.css';

const UploadPanel = lazyComponent(loadUploadPanel, (m) => m.UploadPanel);
const ShellPanel = lazyComponent(
  () => import('../shell/ShellPanel.tsx'),
  (m) => m.ShellPanel,
);

/** Header on top, sidebar beside the page with the footer at its foot (a drawer at 736 px and
 * below); the upload panel floats at the bottom right from the first upload on. Once the page is
 * idle, the dialogs and the upload code are fetched ahead of their first use. */
export function AppLayout() {
  const { t } = useTranslation();
  const hasUploads = useUploadStore((s) => s.jobs.length > 0);
  // Once shown, the panel stays mounted (it hides itself when the queue is empty).
  const [showsUploads, setShowsUploads] = useState(false);
  if (hasUploads && !showsUploads) setShowsUploads(true);
  useEffect(() => preloadFilesUi(), []);
  // Pages other than the files screen are their own first screen once the layout is up.
  const { pathname } = useLocation();
  const onFilesScreen = pathname === '/files' || pathname.startsWith('/files/');
  useEffect(() => {
    if (!onFilesScreen) firstScreenShown();
  }, [onFilesScreen]);
  const user = useCurrentUser();
  const isShellOpen = useShellStore((s) => s.isOpen);
  const showsShell = isShellOpen && canUseShell(user);
  return (
    <div className="app-layout">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <Header />
      <Suspense fallback={null}>
        <LiveFolders />
      </Suspense>
      <div className="app-layout__body">
        <div className="app-layout__side">
          <Sidebar />
        </div>
        <main id="main" className="app-layout__main" tabIndex={-1}>
          <OfflineBanner />
          <Outlet />
        </main>
      </div>
      {showsShell && (
        <Suspense fallback={null}>
          <ShellPanel />
        </Suspense>
      )}
      {/* One fixed strip holds both corner panels, so they can never overlap: side by side on a
          wide screen, stacked on a phone (components/corner-panel.css). */}
      <div className="corner-panels">
        <Suspense fallback={null}>
          <JobsPanel />
        </Suspense>
        {showsUploads && (
          <Suspense fallback={null}>
            <UploadPanel />
          </Suspense>
        )}
      </div>
    </div>
  );
}
