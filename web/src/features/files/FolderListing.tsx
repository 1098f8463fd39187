import type { Resource } from '@cabinet/protocol';
import { useTranslation } from 'react-i18next';
import { EmptyFolder } from './EmptyFolder.tsx';
import { FileRow } from './FileRow.tsx';
import { ListingHeader } from './ListingHeader.tsx';

/** A folder's entries in list view: folders first, each group in the server's order. */
export function FolderListing({ folder }: { folder: Resource }) {
  const { t } = useTranslation();
  const items = folder.items ?? [];
  if (items.length === 0) return <EmptyFolder />;
  const ordered = [...items.filter((i) => i.isDir), ...items.filter((i) => !i.isDir)];
  return (
    <div
      role="table"
      className="listing"
      aria-label={t('files.listingOf', { name: folder.name || t('files.home') })}
      aria-rowcount={ordered.length + 1}
    >
      <ListingHeader />
      <div role="rowgroup">
        {ordered.map((item) => (
          <FileRow key={item.path} item={item} />
        ))}
      </div>
    </div>
  );
}
