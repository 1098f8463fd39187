import { Newspaper } from 'lucide-react';
import { NavLink } from 'react-router';
import { useUserSitesQuery } from '../../api/sites/user-sites-query.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { SITES_ROUTE } from './site-routes.ts';

/**
 * The sidebar's "Sites" entry: for users allowed on a site (GET /api/sites is not empty) and for
 * administrators, who declare sites.
 */
export function SitesSidebarLink() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const sites = useUserSitesQuery(user !== null);
  if (!user || !(user.perm.admin || (sites.data?.length ?? 0) > 0)) return null;
  return (
    <NavLink to={SITES_ROUTE} className="sidebar__item">
      <Newspaper size={20} aria-hidden="true" />
      <span>{t('sidebar.sites')}</span>
    </NavLink>
  );
}
