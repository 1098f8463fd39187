import { House } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { pathSegments, routeFromScopePath } from '../../paths/file-paths.ts';

/** Only the last segments are shown; an ellipsis stands for the rest. */
const MAX_SEGMENTS = 3;

/** A home link and the path's segments, each a link to that folder. */
export function Breadcrumbs({ path }: { path: string }) {
  const { t } = useTranslation();
  const segments = pathSegments(path);
  const crumbs = segments.map((name, index) => ({
    name,
    to: routeFromScopePath(`/${segments.slice(0, index + 1).join('/')}`, true),
  }));
  const shown = crumbs.slice(-MAX_SEGMENTS);
  const isTruncated = crumbs.length > MAX_SEGMENTS;
  return (
    <nav className="breadcrumbs" aria-label={t('files.breadcrumbs')}>
      <ol className="breadcrumbs__list">
        <li className="breadcrumbs__item">
          <Link
            to="/files/"
            className="breadcrumbs__link"
            aria-label={t('files.home')}
            aria-current={crumbs.length === 0 ? 'page' : undefined}
          >
            <House size={18} aria-hidden="true" />
          </Link>
        </li>
        {isTruncated && (
          <li className="breadcrumbs__item" aria-hidden="true">
            <span className="breadcrumbs__ellipsis">…</span>
          </li>
        )}
        {shown.map((crumb, index) => (
          <li key={crumb.to} className="breadcrumbs__item">
            <Link
              to={crumb.to}
              className="breadcrumbs__link"
              aria-current={index === shown.length - 1 ? 'page' : undefined}
            >
              <bdi>{crumb.name}</bdi>
            </Link>
          </li>
        ))}
      </ol>
    </nav>
  );
}
