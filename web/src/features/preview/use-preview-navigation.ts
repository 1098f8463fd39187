import type { Resource, ResourceItem } from '@cabinet/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { fetchResource, useResourceQuery } from '../../api/resources/resource-query.ts';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { parentFolder, routeFromScopePath } from '../../paths/file-paths.ts';
import { hasBigPreviews } from './image-source.ts';
import { neighboursOf } from './neighbours.ts';
import { bigPreviewUrl, rawUrl } from '../../api/resources/preview-urls.ts';
import { asPrefetch, Prefetcher } from '../../api/resources/prefetcher.ts';

/** Where a preview can go: its neighbours in the parent folder, and back to that folder. */
export interface PreviewNavigation {
  hasPrevious: boolean;
  hasNext: boolean;
  goPrevious(): void;
  goNext(): void;
  close(): void;
  /** After the file was deleted: the next item, else the previous, else the folder. */
  leaveDeleted(): void;
}

/**
 * Previous, next and close for a file, from the parent folder's listing (read with the same
 * query the listing uses, so it is usually cached). Neighbours are fetched ahead, so stepping
 * through a folder shows the next file at once instead of a loading skeleton.
 */
export function usePreviewNavigation(file: Resource): PreviewNavigation {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const folder = parentFolder(file.path);
  const listing = useResourceQuery(folder);
  const { previous, next } = useMemo(
    () => neighboursOf(listing.data?.items ?? [], file.path),
    [listing.data, file.path],
  );

  const prefetcher = useRef<Prefetcher | null>(null);
  useEffect(() => {
    for (const item of [previous, next]) {
      if (!item) continue;
      void queryClient.prefetchQuery({
        queryKey: resourceKeys.detail(item.path),
        queryFn: ({ signal }) => fetchResource(item.path, signal),
      });
    }
    // The neighbours' pictures, made by the server after what is on screen (`?prefetch=1`) and
    // then answered from its cache, so the next photo appears without a wait. A prefetch that
    // became the file on screen goes on; the others stop when the viewer moves or closes.
    const pictureOf = (item: ResourceItem) =>
      hasBigPreviews
        ? asPrefetch(bigPreviewUrl(item.path, item.modified))
        : rawUrl(item.path, true);
    prefetcher.current ??= new Prefetcher(2);
    prefetcher.current.want(
      [previous, next].filter((item) => item?.type === 'image').map((item) => pictureOf(item!)),
      [pictureOf(file)],
    );
  }, [queryClient, previous, next, file]);
  useEffect(() => () => prefetcher.current?.cancel(), []);

  const open = useCallback(
    (path: string) => void navigate(routeFromScopePath(path, false)),
    [navigate],
  );
  const close = useCallback(
    () => void navigate(routeFromScopePath(folder, true)),
    [navigate, folder],
  );

  return {
    hasPrevious: previous !== undefined,
    hasNext: next !== undefined,
    goPrevious: () => {
      if (previous) open(previous.path);
    },
    goNext: () => {
      if (next) open(next.path);
    },
    close,
    leaveDeleted: () => {
      const target = next ?? previous;
      if (target) open(target.path);
      else close();
    },
  };
}
