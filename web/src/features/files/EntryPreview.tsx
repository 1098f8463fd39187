import { previewFamilyOf, type ResourceItem } from '@cabinet/protocol';
import { useState } from 'react';
import { thumbnailUrl } from '../../api/resources/preview-urls.ts';
import { pageConfig } from '../../config/page-config.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { FileIcon } from '../../components/FileIcon.tsx';
import { hasPerm } from '../../auth/permissions.ts';

/** Whether an entry is a video (its tile shows its duration once its poster frame is there). */
export function isVideo(item: ResourceItem): boolean {
  return !item.isDir && (item.type === 'video' || previewFamilyOf(item.name) === 'video');
}

/** Whether the server may make a picture of an entry (docs/previews.md): by type, then extension. */
export function hasThumbnail(item: ResourceItem): boolean {
  if (item.isDir) return false;
  return item.type === 'image' || previewFamilyOf(item.name) !== undefined;
}

/**
 * The thumbnail of an image, video, HEIC or RAW photo, PDF, office document or audio file with
 * cover art when the server makes them (EnableThumbs) and the user may download; otherwise, or
 * when the thumbnail fails (no cover, the server lacks that decoder: 501), the entry's icon.
 * Thumbnails load lazily: only tiles near the screen ask for theirs. The auth cookie authorises the
 * request, so no token goes into the URL; the modification time busts stale cached thumbnails.
 */
export function EntryPreview({
  item,
  size,
  onLoad,
}: {
  item: ResourceItem;
  size: 'small' | 'large';
  /** The thumbnail has loaded (a video tile then asks for its duration). */
  onLoad?: () => void;
}) {
  const canDownload = hasPerm(useCurrentUser(), 'download');
  const [failed, setFailed] = useState(false);
  const iconSize = size === 'large' ? 48 : 24;
  if (failed || !pageConfig.EnableThumbs || !canDownload || !hasThumbnail(item)) {
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
      onLoad={onLoad}
      onError={() => setFailed(true)}
    />
  );
}
