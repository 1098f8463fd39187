import { NavLink, Outlet } from 'react-router';
import { pageConfig } from '../../config/page-config.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { hasPerm } from '../../auth/permissions.ts';
import './settings.css';

const TABS = [
  { to: '/settings/profile', label: 'settings.profileSettings' },
  { to: '/settings/shares', label: 'share.manageTitle', needs: 'share' },
  { to: '/settings/global', label: 'settings.globalSettings', needs: 'admin' },
  { to: '/settings/users', label: 'settings.userManagement', needs: 'admin' },
  { to: '/settings/groups', label: 'teams.groups', needs: 'admin' },
  { to: '/settings/team-folders', label: 'teams.teamFolders', needs: 'admin' },
  // The record of command and hook runs only matters where commands can run.
  ...(pageConfig.EnableExec
    ? [{ to: '/settings/commands', label: 'commandRuns.tab', needs: 'admin' } as const]
    : []),
  { to: '/settings/audit', label: 'audit.tab', needs: 'admin' },
] as const;

/** The settings area: a tab bar for administrators, then the screen. */
export function SettingsLayout() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const tabs = TABS.filter((tab) => !('needs' in tab) || hasPerm(user, tab.needs));
  return (
    <div className="settings">
      {tabs.length > 1 && (
        <nav className="tabs" aria-label={t('settings.title')}>
          {tabs.map((tab) => (
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
