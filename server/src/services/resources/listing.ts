import type { ResourceItem, Sorting } from '@cabinet/protocol';
import { detectType, sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../files/file-type.ts';
import type { FolderChildren, Resolved, ScopedFs, Stats } from '../../fs/scoped-fs.ts';
import { SubtitleFinder } from '../../files/subtitles.ts';
import { virtualBaseName } from '../../fs/canonical-path.ts';
import { fileInfo } from './file-info.ts';
import { itemTail } from './item-json.ts';
import { LISTED_TYPES, typeCode } from './listed-types.ts';
import { ListingCache, type CachedFolder } from './listing-cache.ts';
import { collectSoon, estimatedEntries, type EntryBudget } from './listing-memory.ts';
import { sortOrder, type SortFields } from './sort-items.ts';

/**
 * A folder listing ready to be written: the folder's own fields, its visible children (packed,
 * FolderChildren) in the user's order, their types and the counts. No object is kept per child;
 * the JSON is produced in chunks as the client reads it (`listingJson`), so a 100,000-entry folder
 * costs a few MiB of memory and no 20 MiB string.
 */
export interface Listing {
  readonly folder: ResourceItem;
  /** Canonical virtual path of the folder (items' paths are below it). */
  readonly folderPath: string;
  /** Indices of the shown children, in the user's order. */
  readonly order: ArrayLike<number>;
  /** Where the items' JSON comes from: the children read now, or a folder's cached items. */
  readonly items: FreshItems | CachedItems;
  readonly numDirs: number;
  readonly numFiles: number;
  readonly sorting: Sorting;
  /** To be called once the reply is written or abandoned: gives the entries back to the budget. */
  done(): void;
}

/** Children read for this listing; `order` indexes them. */
export interface FreshItems {
  readonly kind: 'fresh';
  readonly children: FolderChildren;
  /** Type of each child, by index, as its position in LISTED_TYPES. */
  readonly types: Uint8Array;
  /** Subtitles of the videos that have some, by index. */
  readonly subtitles: ReadonlyMap<number, string[]>;
}

/** A cached folder (listing-cache.ts); `order` indexes its children. */
export interface CachedItems {
  readonly kind: 'cached';
  readonly folder: CachedFolder;
}

/** Listings of at least this many entries are followed by a full collection (listing-memory). */
const COLLECT_AFTER_ENTRIES = 10_000;

/**
 * Reads, types and sorts one folder's visible children: from the cache when the folder can be
 * cached there (watched, no symlinks), otherwise read now.
 */
export async function readListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
  budget: EntryBudget,
  cache?: ListingCache,
): Promise<Listing> {
  const cached = await cache?.folder(fs, dir);
  if (cached && cache) return cachedListing(fs, dir, shownPath, sorting, cache, cached);
  // Taken before the folder is read: listings waiting their turn hold nothing yet.
  const release = await budget.take(estimatedEntries(dir.stat));
  let built: Omit<Listing, 'done'>;
  try {
    built = await buildListing(fs, dir, shownPath, sorting);
  } catch (error) {
    release();
    throw error;
  }
  const done = () => {
    release();
    if (built.order.length >= COLLECT_AFTER_ENTRIES) collectSoon();
  };
  return { ...built, done };
}

async function buildListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
): Promise<Omit<Listing, 'done'>> {
  const { children } = await fs.listChildren(dir, {
    wantHead: sniffsByName,
    headBytes: SNIFF_BYTES,
    headMaxSize: TEXT_LIMIT_BYTES,
    // The user's order is applied below; an unknown sorting keeps the name order of list(). For
    // name order the names are put in code-unit order first anyway: V8's native sort does that
    // faster than the natural comparator, which then mostly finds long runs (a third of the time
    // for 100,000 shuffled names). Only size and modified order gain nothing from it.
    sorted: sorting.by !== 'size' && sorting.by !== 'modified',
  });
  const subtitleFinder = new SubtitleFinder(fs, children);
  const types = new Uint8Array(children.count);
  const subtitles = new Map<number, string[]>();
  const shown: number[] = [];
  let numDirs = 0;
  for (let i = 0; i < children.count; i++) {
    if (!children.present(i)) continue;
    shown.push(i);
    if (children.isBroken(i)) {
      types[i] = typeCode.get('invalid_link')!;
    } else if (children.isDir(i)) {
      numDirs++; // type '' (code 0)
    } else {
      const name = children.name(i);
      const type = detectType(name, children.stat(i), children.head(i));
      types[i] = typeCode.get(type)!;
      if (type === 'video') {
        const found = await subtitleFinder.find(name);
        if (found.length > 0) subtitles.set(i, found);
      }
    }
  }
  const fields: SortFields<number> = {
    name: (i) => children.name(i),
    isDir: (i) => children.isDir(i),
    size: (i) => children.size(i),
    modifiedMs: (i) => children.mtimeMs(i),
  };
  return {
    folder: folderInfo(dir, shownPath),
    folderPath: dir.path,
    order: sortOrder(shown, sorting, fields),
    items: { kind: 'fresh', children, types, subtitles },
    numDirs,
    numFiles: shown.length - numDirs,
    sorting,
  };
}

/**
 * A listing from a cached folder: the user's rules and hidden dotfiles applied to its names, in
 * the folder's cached order for the sorting. Holds no more than the shown indices.
 */
function cachedListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
  cache: ListingCache,
  folder: CachedFolder,
): Listing {
  const all = cache.order(folder, sorting);
  const shown = new Uint32Array(all.length);
  let count = 0;
  let numDirs = 0;
  for (let k = 0; k < all.length; k++) {
    const i = all[k]!;
    if (!fs.isChildAllowed(dir.path, folder.names[i]!)) continue;
    shown[count++] = i;
    numDirs += folder.isDir[i]!;
  }
  return {
    folder: folderInfo(dir, shownPath),
    folderPath: dir.path,
    order: shown.subarray(0, count),
    items: { kind: 'cached', folder },
    numDirs,
    numFiles: count - numDirs,
    sorting,
    // The reply's chunks of a big folder are megabytes outside the heap: collected as after a read.
    done: count >= COLLECT_AFTER_ENTRIES ? collectSoon : () => undefined,
  };
}

/** The listed folder's own fields. */
function folderInfo(dir: Resolved & { stat: Stats }, shownPath: string): ResourceItem {
  return fileInfo({
    path: shownPath,
    name: virtualBaseName(dir.path),
    stat: dir.stat,
    isSymlink: dir.isSymlink,
    type: '',
  });
}

/** Bytes per chunk of JSON: large enough to amortise the write, small enough to stay flat. */
const CHUNK_BYTES = 256 * 1024;

/** One item's JSON (item-json.ts). */
function itemJson(items: FreshItems, i: number, folderJson: string): string {
  const { children } = items;
  return (
    '{"path":"' +
    folderJson +
    itemTail({
      name: children.name(i),
      size: children.size(i),
      mtimeMs: children.mtimeMs(i),
      mode: children.mode(i),
      isDir: children.isDir(i),
      isSymlink: children.isSymlink(i),
      type: LISTED_TYPES[items.types[i]!]!,
      subtitles: items.subtitles.get(i),
    })
  );
}

/**
 * The listing's JSON (the same document as `JSON.stringify` of a Resource with items) in chunks of
 * about CHUNK_BYTES, produced only as fast as they are consumed. Items are encoded straight into
 * one scratch buffer and each chunk is copied out of it: three times faster than joining strings
 * and encoding the result.
 */
export function* listingJson(
  listing: Listing,
  /** Where chunk buffers come from (http/reply-chunks.ts reuses them once written). */
  take: (bytes: number) => Buffer = Buffer.allocUnsafe,
): Generator<Buffer> {
  const folder = JSON.stringify(listing.folder);
  yield Buffer.from(`${folder.slice(0, -1)},"items":[`);
  const { order } = listing;
  // Every item's path is the folder's canonical path, a slash and the name: escaped once here.
  const folderJson = JSON.stringify(
    `${listing.folderPath === '/' ? '' : listing.folderPath}/`,
  ).slice(1, -1);
  if (listing.items.kind === 'cached') {
    yield* cachedItemsJson(listing.items.folder, order, folderJson, take);
  } else {
    yield* freshItemsJson(listing.items, order, folderJson, take);
  }
  yield Buffer.from(
    `],"numDirs":${listing.numDirs},"numFiles":${listing.numFiles},` +
      `"sorting":${JSON.stringify(listing.sorting)}}`,
  );
}

function* freshItemsJson(
  items: FreshItems,
  order: ArrayLike<number>,
  folderJson: string,
  take: (bytes: number) => Buffer,
): Generator<Buffer> {
  let scratch = take(CHUNK_BYTES);
  let used = 0;
  for (let k = 0; k < order.length; k++) {
    const item = (k > 0 ? ',' : '') + itemJson(items, order[k]!, folderJson);
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    const room = item.length * 3;
    if (used + room > scratch.length) {
      if (used > 0) {
        yield scratch.subarray(0, used);
        scratch = take(Math.max(CHUNK_BYTES, room));
      } else if (room > scratch.length) scratch = take(room);
      used = 0;
    }
    used += scratch.write(item, used);
  }
  if (used > 0) yield scratch.subarray(0, used);
}

/**
 * Items of a cached folder: each is `{"path":"` and the folder's escaped path, then the child's
 * cached tail, copied byte for byte into chunks of about CHUNK_BYTES.
 */
function* cachedItemsJson(
  folder: CachedFolder,
  order: ArrayLike<number>,
  folderJson: string,
  take: (bytes: number) => Buffer,
): Generator<Buffer> {
  const first = Buffer.from(`{"path":"${folderJson}`);
  const next = Buffer.from(`,{"path":"${folderJson}`);
  const { tails, blocks, starts, lengths } = folder;
  let chunk = take(CHUNK_BYTES);
  let used = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const start = starts[i]!;
    const end = start + lengths[i]!;
    const tail = tails[blocks[i]!]!;
    const head = k > 0 ? next : first;
    const room = head.length + end - start;
    if (used + room > chunk.length) {
      if (used > 0) yield chunk.subarray(0, used);
      chunk = take(Math.max(CHUNK_BYTES, room));
      used = 0;
    }
    used += head.copy(chunk, used);
    used += tail.copy(chunk, used, start, end);
  }
  if (used > 0) yield chunk.subarray(0, used);
}
