import type { CachedItems, FreshItems, GrantedItems } from './listing.ts';

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

export function columnsOf(part: FreshItems | CachedItems | GrantedItems): ListedColumns {
  if (part.kind === 'granted') {
    const { entries } = part;
    return {
      name: (i) => entries[i]!.name,
      size: (i) => entries[i]!.stat?.size ?? 0,
      mtimeMs: (i) => entries[i]!.stat?.mtimeMs ?? 0,
      mode: (i) => entries[i]!.stat?.mode ?? 0,
      isDir: (i) => entries[i]!.stat?.isDirectory() === true,
      isSymlink: () => false,
      type: () => 0,
      subtitles: () => undefined,
    };
  }
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
