import type { ResourceItem } from '@cabinet/protocol';
import { useState } from 'react';
import { thumbnailUrl } from '../../api/resources/preview-urls.ts';
import { pageConfig } from '../../config/page-config.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { hasPerm } from '../../auth/permissions.ts';

/**
 * An image's thumbnail when the server makes them (EnableThumbs) and the user may download;
 * otherwise, or when the thumbnail fails, the entry's icon. The auth cookie authorises the
 * request, so no token goes into the URL; the modification time busts stale cached thumbnails.
 */
export function EntryPreview({ item, size }: { item: ResourceItem; size: 'small' | 'large' }) {
  const canDownload = hasPerm(useCurrentUser(), 'download');
  const [failed, setFailed] = useState(false);
  const iconSize = size === 'large' ? 48 : 24;
  if (failed || !pageConfig.EnableThumbs || !canDownload || item.type !== 'image') {
    return <FileIcon entry={item} size={iconSize} />;
  }
  const key = Date.parse(item.modified) || 0;
  return (
    <img
      className={`thumbnail thumbnail--${size}`}
      src={thumbnailUrl(item.path, key)}
      alt=""
      loading="lazy"
      decoding="async"
      draggable={false}
      onError={() => setFailed(true)}
    />
  );
}
