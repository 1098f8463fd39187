import { type ResourceItem } from '@cabinet/protocol';
import { Link } from 'react-router';
import { formatFileSize } from '../../format/file-size.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { shareRoute } from './share-route.ts';
import { UI_LIMITS } from '../../config/ui-limits.ts';

/** A shared folder's contents: the first 500 entries, then "+ N more". */
export function ShareFolderList({ hash, items }: { hash: string; items: ResourceItem[] }) {
  const { t, i18n } = useTranslation();
  if (items.length === 0) return <p className="public-share__muted">{t('share.emptyFolder')}</p>;
  // Folders first, then by name, as the files view shows them.
  const sorted = [...items].sort(
    (a, b) => Number(b.isDir) - Number(a.isDir) || a.name.localeCompare(b.name, i18n.language),
  );
  const shown = sorted.slice(0, UI_LIMITS.sharePageItems);
  const rest = sorted.length - shown.length;
  return (
    <>
      <ul className="public-share__list" aria-label={t('share.items')}>
        {shown.map((item) => (
          <li key={item.path}>
            <Link className="public-share__entry" to={shareRoute(hash, item.path, item.isDir)}>
              <FileIcon entry={item} />
              <bdi className="public-share__entry-name">{item.name}</bdi>
              <span className="public-share__entry-size">
                {item.isDir ? '' : formatFileSize(item.size, i18n.language)}
              </span>
              <span className="public-share__entry-date">
                {formatDateTime(new Date(item.modified), i18n.language)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {rest > 0 && <p className="public-share__muted">{t('share.more', { count: rest })}</p>}
    </>
  );
}
