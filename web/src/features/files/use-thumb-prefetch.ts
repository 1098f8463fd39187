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

/** Longest wait for an idle moment before the prefetches start anyway. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Runs `run` once the browser is idle: after the frame that drew the tiles, whose lazy thumbnails
 * are asked for once laid out. Returns the cancel.
 */
function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const timer = setTimeout(run, 50);
  return () => clearTimeout(timer);
}

/**
 * Asks the server for the thumbnails of the tiles just below the drawn ones (`?prefetch=1`: made
 * after every thumbnail on screen), so a scroll finds them in its cache. The set follows the
 * scroll (tiles scrolled past are cancelled) and everything stops when the folder is left. The
 * prefetches start when the browser is idle: asked for at once, they went out before the
 * screen's own thumbnails (an effect runs before lazy images are laid out) and took two of the
 * browser's six connections and two of the server's first job slots on a cold cache.
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
    return whenIdle(() => {
      prefetcher.current ??= new Prefetcher(PREFETCH_CONCURRENCY);
      prefetcher.current.want(urls);
    });
  }, [enabled, entries, from]);
  useEffect(() => () => prefetcher.current?.cancel(), []);
}
