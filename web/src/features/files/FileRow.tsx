import type { ResourceItem } from '@cabinet/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatFileSize } from '../../format/file-size.ts';
import { FileIcon } from './FileIcon.tsx';
import { ModifiedTime } from './ModifiedTime.tsx';
import { routeFromScopePath } from './file-paths.ts';

/** One entry of the list view: icon and name (a link that opens it), size, last modified. */
export function FileRow({ item }: { item: ResourceItem }) {
  const { i18n } = useTranslation();
  return (
    <div role="row" className="listing__row" data-dir={item.isDir}>
      <div role="cell" className="listing__cell listing__cell--name">
        <FileIcon entry={item} />
        <Link to={routeFromScopePath(item.path, item.isDir)} className="listing__link">
          {item.name}
        </Link>
      </div>
      <div role="cell" className="listing__cell listing__cell--size">
        {item.isDir ? <span aria-hidden="true">—</span> : formatFileSize(item.size, i18n.language)}
      </div>
      <div role="cell" className="listing__cell listing__cell--modified">
        <ModifiedTime modified={item.modified} />
      </div>
    </div>
  );
}
