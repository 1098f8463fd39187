import type { ResourceItem } from '@cabinet/protocol';
import { isSamePath } from '../../paths/file-paths.ts';

/** Types that previous and next step through: text and PDF are skipped. */
const NAVIGABLE_TYPES = new Set(['image', 'video', 'audio', 'blob']);

/** The items before and after a file that previous and next go to. */
export interface Neighbours {
  previous?: ResourceItem;
  next?: ResourceItem;
}

/**
 * The nearest image, video, audio or blob item before and after `path` in the folder's listing
 * order. A file missing from the listing (deleted, hidden meanwhile) has no neighbours.
 */
export function neighboursOf(items: readonly ResourceItem[], path: string): Neighbours {
  const at = items.findIndex((item) => isSamePath(item.path, path));
  if (at < 0) return {};
  const isNavigable = (item: ResourceItem) => !item.isDir && NAVIGABLE_TYPES.has(item.type);
  return {
    previous: items.slice(0, at).findLast(isNavigable),
    next: items.slice(at + 1).find(isNavigable),
  };
}
