import type { ResourceItem } from '@cabinet/protocol';

/** Folders first, then files, each group in the server's (sorted) order. */
export function orderEntries(items: readonly ResourceItem[]): ResourceItem[] {
  const folders: ResourceItem[] = [];
  const files: ResourceItem[] = [];
  for (const item of items) (item.isDir ? folders : files).push(item);
  return folders.concat(files);
}

/** A folder's scope path with the trailing slash that uploads, moves and pastes expect. */
export function asFolderPath(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/** How the listing is shown: "list", or "mosaic" (also for "mosaic gallery" and unknown values). */
export type ViewMode = 'list' | 'mosaic';

export function viewModeOf(value: string | undefined): ViewMode {
  return value === 'list' ? 'list' : 'mosaic';
}
