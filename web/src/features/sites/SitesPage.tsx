import { ExternalLink } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { servedSiteUrl } from '../../api/sites/post-preview.ts';
import { useUserSitesQuery } from '../../api/sites/user-sites-query.ts';
import { hasPerm } from '../../auth/permissions.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { postsRoute } from './site-routes.ts';
import './sites.css';

/** /publishing: the sites this user may write in; administrators are pointed to the settings. */
export function SitesPage() {
  const { t } = useTranslation();
  const id = useId();
  const user = useCurrentUser();
  const sites = useUserSitesQuery();
  const isAdmin = hasPerm(user, 'admin');
  return (
    <section className="sites" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="settings__title">
        {t('sites.title')}
      </h1>
      {sites.isError ? (
        <p className="field__error" role="alert">
          {t('sites.loadFailed')}
        </p>
      ) : !sites.data ? (
        <p role="status">{t('sites.loading')}</p>
      ) : sites.data.length === 0 ? (
        <div className="sites__empty">
          <p>{t('sites.empty')}</p>
          {isAdmin && (
            <p>
              <Link to="/settings/global#sites">{t('sites.emptyAdmin')}</Link>
            </p>
          )}
        </div>
      ) : (
        <ul className="site-list" aria-labelledby={`${id}-title`}>
          {sites.data.map((site) => (
            <li key={site.name} className="site-card">
              <Link className="site-card__link" to={postsRoute(site.name)} dir="auto">
                {site.title || site.name}
              </Link>
              <span className="site-card__meta">
                <span dir="ltr">{site.path}</span>
                {' · '}
                {t(`sites.generator.${site.generator}`)}
              </span>
              {site.url && (
                <a
                  className="site-card__served"
                  href={servedSiteUrl(site.url)}
                  target="_blank"
                  rel="noopener"
                >
                  <ExternalLink size={14} aria-hidden="true" />
                  {t('sites.viewSite')}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
