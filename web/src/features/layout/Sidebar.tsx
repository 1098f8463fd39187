import {
  FilePlus,
  FolderOpen,
  FolderInput,
  FolderPlus,
  LogIn,
  LogOut,
  Settings,
  Trash2,
  UserPlus,
} from 'lucide-react';
import { Suspense, useEffect, type ReactNode } from 'react';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { logOut } from '../../auth/session.ts';
import { canLogout, hasLoginPage, pageConfig } from '../../config/page-config.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { useLayoutStore } from '../../stores/layout-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { SitesSidebarLink } from '../sites/index.ts';
import { QuotaMeter } from '../quota/index.ts';
import { Footer } from './Footer.tsx';

function SidebarLink({ to, icon, children }: { to: string; icon: ReactNode; children: ReactNode }) {
  return (
    <NavLink to={to} className="sidebar__item">
      {icon}
      <span>{children}</span>
    </NavLink>
  );
}

function SidebarButton(props: { icon: ReactNode; children: ReactNode; onClick: () => void }) {
  return (
    <button type="button" className="sidebar__item" onClick={props.onClick}>
      {props.icon}
      <span>{props.children}</span>
    </button>
  );
}

/**
 * Navigation by login state and permission: logged in, My files, New
 * folder and New file (create permission), Settings and Logout (json method only); logged out,
 * Login and Signup (when allowed).
 */
export function Sidebar() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const navigate = useNavigate();
  const openDialog = useDialogStore((s) => s.open);
  const isOpen = useLayoutStore((s) => s.isSidebarOpen);
  const setOpen = useLayoutStore((s) => s.setSidebarOpen);

  // The drawer (small screens) takes focus when it opens; Esc closes it and returns focus.
  useEffect(() => {
    if (!isOpen) return;
    const drawer = document.getElementById('app-sidebar');
    if (drawer && getComputedStyle(drawer).position === 'fixed') {
      drawer.querySelector<HTMLElement>('a, button')?.focus();
    }
    const handleKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      document.querySelector<HTMLElement>('[aria-controls="app-sidebar"]')?.focus();
    };
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, [isOpen, setOpen]);

  const handleLogout = async () => {
    const providerLogout = await logOut();
    if (providerLogout) {
      window.location.assign(providerLogout);
      return;
    }
    if (pageConfig.LogoutPage && pageConfig.LogoutPage !== '/login') {
      window.location.assign(pageConfig.LogoutPage);
      return;
    }
    await navigate('/login', { replace: true });
  };

  return (
    <>
      <div
        className="sidebar-backdrop"
        data-open={isOpen}
        aria-hidden="true"
        onClick={() => setOpen(false)}
      />
      <aside id="app-sidebar" className="sidebar" data-open={isOpen}>
        <nav className="sidebar__nav" aria-label={t('layout.sidebar')}>
          {user ? (
            <>
              <SidebarLink to="/files/" icon={<FolderOpen size={20} aria-hidden="true" />}>
                {t('sidebar.myFiles')}
              </SidebarLink>
              {user.perm.create && (
                <>
                  <SidebarButton
                    icon={<FolderPlus size={20} aria-hidden="true" />}
                    onClick={() => openDialog('newDir')}
                  >
                    {t('sidebar.newFolder')}
                  </SidebarButton>
                  <SidebarButton
                    icon={<FilePlus size={20} aria-hidden="true" />}
                    onClick={() => openDialog('newFile')}
                  >
                    {t('sidebar.newFile')}
                  </SidebarButton>
                </>
              )}
              <SidebarLink to="/shared" icon={<FolderInput size={20} aria-hidden="true" />}>
                {t('teams.sharedWithMe')}
              </SidebarLink>
              <Suspense fallback={null}>
                <SitesSidebarLink />
              </Suspense>
              <SidebarLink to="/trash" icon={<Trash2 size={20} aria-hidden="true" />}>
                {t('trash.title')}
              </SidebarLink>
              <SidebarLink to="/settings" icon={<Settings size={20} aria-hidden="true" />}>
                {t('sidebar.settings')}
              </SidebarLink>
              {canLogout && (
                <SidebarButton
                  icon={<LogOut size={20} aria-hidden="true" />}
                  onClick={() => void handleLogout()}
                >
                  {t('sidebar.logout')}
                </SidebarButton>
              )}
            </>
          ) : (
            hasLoginPage && (
              <>
                <SidebarLink to="/login" icon={<LogIn size={20} aria-hidden="true" />}>
                  {t('sidebar.login')}
                </SidebarLink>
                {pageConfig.Signup && (
                  <SidebarLink to="/login?signup" icon={<UserPlus size={20} aria-hidden="true" />}>
                    {t('sidebar.signup')}
                  </SidebarLink>
                )}
              </>
            )
          )}
        </nav>
        {user && (
          <Suspense fallback={null}>
            <QuotaMeter />
          </Suspense>
        )}
        <Footer />
      </aside>
    </>
  );
}
