import { NavLink, Outlet } from 'react-router';
import { pageConfig } from '../../config/page-config.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import './settings.css';

const TABS = [
  { to: '/settings/profile', label: 'settings.profileSettings' },
  { to: '/settings/global', label: 'settings.globalSettings' },
  { to: '/settings/users', label: 'settings.userManagement' },
  // The record of command and hook runs only matters where commands can run.
  ...(pageConfig.EnableExec ? [{ to: '/settings/commands', label: 'commandRuns.tab' }] : []),
] as const;

/** The settings area: a tab bar for administrators (SPEC.md, Layout), then the screen. */
export function SettingsLayout() {
  const { t } = useTranslation();
  const isAdmin = useCurrentUser()?.perm.admin ?? false;
  return (
    <div className="settings">
      {isAdmin && (
        <nav className="tabs" aria-label={t('settings.title')}>
          {TABS.map((tab) => (
            <NavLink key={tab.to} to={tab.to} className="tabs__tab">
              {t(tab.label)}
            </NavLink>
          ))}
        </nav>
      )}
      <Outlet />
    </div>
  );
}
