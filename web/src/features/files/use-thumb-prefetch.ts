import type { ResourceItem } from '@cabinet/protocol';
import { useEffect, useRef } from 'react';
import { thumbnailUrl } from '../../api/resources/preview-urls.ts';
import { asPrefetch, Prefetcher } from '../../api/resources/prefetcher.ts';
import { pageConfig } from '../../config/page-config.ts';
import { hasPerm } from '../../auth/permissions.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { hasThumbnail } from './EntryPreview.tsx';

/** Tiles past the drawn ones whose thumbnails are asked for ahead of a scroll. */
const PREFETCH_TILES = 24;
/** Prefetches in flight at once: the browser keeps its other connections for what is on screen. */
const PREFETCH_CONCURRENCY = 2;

/**
 * Asks the server for the thumbnails of the tiles just below the drawn ones (`?prefetch=1`: made
 * after every thumbnail on screen), so a scroll finds them in its cache. The set follows the
 * scroll (tiles scrolled past are cancelled) and everything stops when the folder is left.
 */
export function useThumbPrefetch(entries: readonly ResourceItem[], from: number): void {
  const canDownload = hasPerm(useCurrentUser(), 'download');
  const prefetcher = useRef<Prefetcher | null>(null);
  const enabled = canDownload && pageConfig.EnableThumbs;
  useEffect(() => {
    if (!enabled || from <= 0) return;
    const urls = entries
      .slice(from, from + PREFETCH_TILES)
      .filter(hasThumbnail)
      .map((item) => asPrefetch(thumbnailUrl(item.path, Date.parse(item.modified) || 0)));
    prefetcher.current ??= new Prefetcher(PREFETCH_CONCURRENCY);
    prefetcher.current.want(urls);
  }, [enabled, entries, from]);
  useEffect(() => () => prefetcher.current?.cancel(), []);
}
