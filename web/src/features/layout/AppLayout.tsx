import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';
import { UploadPanel } from '../upload/UploadPanel.tsx';
import './layout.css';

/** Header on top, sidebar beside the page with the footer at its foot (a drawer at 736 px and
 * below); the upload panel floats at the bottom right while uploads run. */
export function AppLayout() {
  const { t } = useTranslation();
  return (
    <div className="app-layout">
      <a className="skip-link" href="#main">
        {t('layout.skipToContent')}
      </a>
      <Header />
      <div className="app-layout__body">
        <div className="app-layout__side">
          <Sidebar />
        </div>
        <main id="main" className="app-layout__main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <UploadPanel />
    </div>
  );
}
