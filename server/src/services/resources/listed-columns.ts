import type { CachedItems, FreshItems } from './listing.ts';

/**
 * One part of a listing read as columns by child index, wherever the part holds them: children
 * read now (FolderChildren and their types) or a cached folder. Both reply forms (`listingJson`,
 * `compactListing`) write from these, so they cannot read a field two ways.
 */
export interface ListedColumns {
  name(i: number): string;
  size(i: number): number;
  mtimeMs(i: number): number;
  mode(i: number): number;
  isDir(i: number): boolean;
  isSymlink(i: number): boolean;
  /** The child's type as its position in LISTED_TYPES. */
  type(i: number): number;
  subtitles(i: number): string[] | undefined;
}

export function columnsOf(part: FreshItems | CachedItems): ListedColumns {
  if (part.kind === 'cached') {
    const { folder } = part;
    // A cached folder holds no symlinks and no videos with subtitles (listing-cache.ts).
    return {
      name: (i) => folder.names[i]!,
      size: (i) => folder.sizes[i]!,
      mtimeMs: (i) => folder.mtimes[i]!,
      mode: (i) => folder.modes[i]!,
      isDir: (i) => folder.isDir[i] === 1,
      isSymlink: () => false,
      type: (i) => folder.types[i]!,
      subtitles: () => undefined,
    };
  }
  const { children, types, subtitles } = part;
  return {
    name: (i) => children.name(i),
    size: (i) => children.size(i),
    mtimeMs: (i) => children.mtimeMs(i),
    mode: (i) => children.mode(i),
    isDir: (i) => children.isDir(i),
    isSymlink: (i) => children.isSymlink(i),
    type: (i) => types[i]!,
    subtitles: (i) => subtitles.get(i),
  };
}
