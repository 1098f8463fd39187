import type { ResourceItem, Sorting } from '@cabinet/protocol';
import { sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../file-kinds/file-type.ts';
import type {
  FolderChildren,
  ListEntry,
  Resolved,
  ScopedFs,
  Stats,
  TypedNames,
} from '../../fs/scoped-fs.ts';
import { SubtitleFinder } from '../../file-kinds/subtitles.ts';
import { virtualBaseName } from '../../fs/canonical-path.ts';
import { fileInfo } from './file-info.ts';
import { itemTail } from './item-json.ts';
import { columnsOf, type ListedColumns } from './listed-columns.ts';
import { LISTED_TYPES } from '../../tree/listing/listed-types.ts';
import { ListingCache, type CachedFolder } from '../../tree/listing/listing-cache.ts';
import type { FolderStamp } from '../../tree/read/folder-stamp.ts';
import { EventLoopTurns } from '../../streams/event-loop-turns.ts';
import { estimatedEntries, type EntryBudget } from './listing-memory.ts';
import { sortOrder, type SortFields } from '../../tree/listing/sort-items.ts';
import { startStreamedListing, type StreamedItems } from './streamed-listing.ts';
import { typeChildren } from './typed-children.ts';

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
  /**
   * Where the items come from: the children read now, a folder's cached items, or children read
   * part by part as the reply is written (streamed-listing.ts).
   */
  readonly items: FreshItems | CachedItems | StreamedItems;
  /**
   * Folders and files shown. A streamed listing counts them from the directory entries before it
   * stats them; an entry that vanishes meanwhile is not written, and the writers count what they
   * wrote (`ListedCounts`).
   */
  readonly numDirs: number;
  readonly numFiles: number;
  readonly sorting: Sorting;
  /** The grants a top-level listing shows after the user's own children (docs/teams.md). */
  readonly granted?: GrantedItems;
  /** To be called once the reply is written or abandoned: gives the entries back to the budget. */
  done(): void;
}

/** Children read for this listing. */
export interface FreshItems {
  readonly kind: 'fresh';
  readonly children: FolderChildren;
  /** Type of each child, by index, as its position in LISTED_TYPES. */
  readonly types: Uint8Array;
  /** Subtitles of the videos that have some, by index. */
  readonly subtitles: ReadonlyMap<number, string[]>;
  /** Indices of the shown children, in the user's order. */
  readonly order: ArrayLike<number>;
}

/**
 * Team folders and "Shared with me" at the top of a view, or the shares in it (docs/teams.md).
 * Those of the top are kept across requests while they hold (granted-items.ts): never changed.
 */
export interface GrantedItems {
  readonly kind: 'granted';
  readonly entries: readonly ListEntry[];
  /** The JSON of every entry as a listing item with its `shared` mark, in order, joined by commas. */
  readonly json: string;
  /** Every entry, in order. */
  readonly order: ArrayLike<number>;
  /** How many entries are folders. */
  readonly numDirs: number;
}

/** A cached folder (listing-cache.ts). */
export interface CachedItems {
  readonly kind: 'cached';
  readonly folder: CachedFolder;
  /** Indices of the shown children, in the user's order. */
  readonly order: ArrayLike<number>;
}

/** '.', the first unit of the only names a user without rules may not see. */
const DOT = 0x2e;

/** Folders that may hold this many entries (`estimatedEntries`) are streamed in name order. */
const STREAM_FROM_ENTRIES = 2_000;

/**
 * Reads, types and sorts one folder's visible children: from the cache when the folder can be
 * cached there (watched, no symlinks), otherwise read now. A big folder in name order that is not
 * cached yet is streamed (streamed-listing.ts): its reply starts before its children are stat'ed,
 * and the cache is filled after it for the next listings. `stream: false` reads it whole.
 */
export async function readListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
  budget: EntryBudget,
  cache?: ListingCache,
  options: {
    stream?: boolean;
    /** The folder's stamp, when this request took it already (ScopedFs.builtStamp). */
    stamp?: FolderStamp;
  } = {},
): Promise<Listing> {
  const streamable =
    (options.stream ?? true) &&
    sorting.by === 'name' &&
    estimatedEntries(dir.stat) >= STREAM_FROM_ENTRIES;
  // One stat of the folder, before anything of it is read: what the cache and the index's names
  // are checked against (listing-cache.ts).
  const stamp = cache ? (options.stamp ?? (await cache.stamp(dir))) : null;
  // A streamed listing does not start the cache's fill, which would compete with it for the CPU:
  // the cache keeps what the streamed listing stat'ed instead. A fill already under way is
  // waited for: it is nearly done, and a second read of the folder beside it would double both.
  const cached = await cache?.folder(fs, dir, { startFill: !streamable, stamp });
  if (cached && cache) return cachedListing(fs, dir, shownPath, sorting, cache, cached);
  // Taken before the folder is read: listings waiting their turn hold nothing yet.
  const release = await budget.take(estimatedEntries(dir.stat));
  let built: Omit<Listing, 'done'>;
  // What a streamed listing reads from the disk is kept for the next listings; names the index
  // gave are not (a change its watch has not reported yet would stay in the cache). So the index's
  // names are taken only for a folder the cache could not keep anyway: its first rows then wait
  // for no directory read. A folder it can keep is read once, here, instead of once for the reply
  // and again for the cache (a 100,000-entry folder's first read held ~15 MiB more that way, and
  // the next listing waited for the second read).
  const indexed = streamable ? cache?.knownChildren(dir.real, stamp) : null;
  const known = indexed && !cache?.canKeep(indexed.count) ? indexed : null;
  const followed = streamable && !known ? (cache?.follow(dir, stamp) ?? null) : null;
  try {
    built =
      (streamable &&
        (await streamedListing(fs, dir, shownPath, sorting, known, followed !== null))) ||
      (await buildListing(fs, dir, shownPath, sorting));
  } catch (error) {
    release();
    if (followed) cache?.keep(followed, null);
    throw error;
  }
  const done = () => {
    release();
    const { items } = built;
    if (!cache || items.kind !== 'streamed') {
      if (followed) cache?.keep(followed, null);
      return;
    }
    // The parts the reply was written from, when they were every child of the folder.
    const parts = followed ? items.read() : null;
    if (followed) cache.keep(followed, parts, sorting);
    items.forget();
    // Else the folder is read for the cache now, once: later changes are patched into it.
    if (!parts && stamp) {
      void cache.folder(fs, dir, {
        waitForFill: false,
        orderFor: sorting,
        count: built.numDirs + built.numFiles,
        stamp,
      });
    }
  };
  return { ...built, done };
}

async function streamedListing(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  shownPath: string,
  sorting: Sorting,
  known: TypedNames | null | undefined,
  keepParts: boolean,
): Promise<Omit<Listing, 'done'> | null> {
  const started = await startStreamedListing(fs, dir, sorting, known, keepParts);
  if (!started) return null;
  return {
    folder: folderInfo(dir, shownPath),
    folderPath: dir.path,
    items: started.items,
    numDirs: started.numDirs,
    numFiles: started.numFiles,
    sorting,
  };
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
  const { types, subtitles, shown, numDirs } = await typeChildren(
    children,
    new SubtitleFinder(fs, children),
  );
  const fields: SortFields<number> = {
    name: (i) => children.name(i),
    isDir: (i) => children.isDir(i),
    size: (i) => children.size(i),
    modifiedMs: (i) => children.mtimeMs(i),
  };
  return {
    folder: folderInfo(dir, shownPath),
    folderPath: dir.path,
    items: { kind: 'fresh', children, types, subtitles, order: sortOrder(shown, sorting, fields) },
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
  // With no rules only a name starting with '.' can be hidden: the others need no judging, and
  // when none is hidden the cached order is served as it is, not copied.
  const undotted = fs.allowsUndottedChildrenIn(dir);
  const { names, isDir } = folder;
  let shown: Uint32Array | null = null;
  let count = 0;
  let numDirs = 0;
  for (let k = 0; k < all.length; k++) {
    const i = all[k]!;
    const name = names[i]!;
    if (!(undotted && name.charCodeAt(0) !== DOT) && !fs.isChildAllowed(dir, name)) {
      // The first hidden child: the ones before it were all shown.
      if (!shown) {
        shown = new Uint32Array(all.length);
        shown.set(all.subarray(0, k));
      }
      continue;
    }
    if (shown) shown[count] = i;
    count++;
    numDirs += isDir[i]!;
  }
  return {
    folder: folderInfo(dir, shownPath),
    folderPath: dir.path,
    items: { kind: 'cached', folder, order: shown ? shown.subarray(0, count) : all },
    numDirs,
    numFiles: count - numDirs,
    sorting,
    done: () => undefined,
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

/** One child's JSON (item-json.ts). */
function itemJson(columns: ListedColumns, i: number, folderJson: string): string {
  return (
    '{"path":"' +
    folderJson +
    itemTail({
      name: columns.name(i),
      size: columns.size(i),
      mtimeMs: columns.mtimeMs(i),
      mode: columns.mode(i),
      isDir: columns.isDir(i),
      isSymlink: columns.isSymlink(i),
      type: LISTED_TYPES[columns.type(i)]!,
      subtitles: columns.subtitles(i),
    })
  );
}

/**
 * The parts of a listing's items in order, each with its `order` to write: the one part of a
 * fresh or cached listing, or a streamed listing's parts as they are read.
 */
export async function* listedParts(
  listing: Listing,
): AsyncGenerator<FreshItems | CachedItems | GrantedItems> {
  const { items } = listing;
  if (items.kind !== 'streamed') {
    yield items;
  } else {
    yield items.first;
    yield* items.rest();
  }
  if (listing.granted) yield listing.granted;
}

/**
 * The listing's JSON (the same document as `JSON.stringify` of a Resource with items) in chunks of
 * about CHUNK_BYTES, produced only as fast as they are consumed. Items are encoded straight into
 * the chunk buffers (`itemsJson`): three times faster than joining strings and encoding the
 * result. The counts at the end are those of the items written.
 */
export async function* listingJson(
  listing: Listing,
  /** Where chunk buffers come from (http/reply-chunks.ts reuses them once written). */
  take: (bytes: number) => Buffer = Buffer.allocUnsafe,
): AsyncGenerator<Buffer> {
  const folder = JSON.stringify(listing.folder);
  yield Buffer.from(`${folder.slice(0, -1)},"items":[`);
  // Every item's path is the folder's canonical path, a slash and the name: escaped once here.
  const folderJson = JSON.stringify(
    `${listing.folderPath === '/' ? '' : listing.folderPath}/`,
  ).slice(1, -1);
  // Inside a grant every child belongs to it: each carries the folder's mark (docs/teams.md).
  const mark = listing.folder.shared;
  const markJson =
    mark && mark.kind !== 'shared-with-me' ? `,"shared":${JSON.stringify(mark)}}` : null;
  let written = 0;
  let numDirs = 0;
  const turns = new EventLoopTurns();
  for await (const part of listedParts(listing)) {
    const { order } = part;
    const columns = columnsOf(part);
    const json = markJson
      ? (i: number) => itemJson(columns, i, folderJson).slice(0, -1) + markJson
      : (i: number) => itemJson(columns, i, folderJson);
    // The grants' items are written as the one string they were kept as (granted-items.ts).
    const chunks =
      part.kind === 'granted'
        ? itemsJson([0], () => part.json, written > 0, take)
        : itemsJson(order, json, written > 0, take);
    for (const chunk of chunks) {
      yield chunk;
      // Other requests get in while a big folder is written to a client that reads fast.
      if (turns.due()) await turns.take();
    }
    written += order.length;
    for (let k = 0; k < order.length; k++) if (columns.isDir(order[k]!)) numDirs++;
  }
  yield Buffer.from(
    `],"numDirs":${numDirs},"numFiles":${written - numDirs},` +
      `"sorting":${JSON.stringify(listing.sorting)}}`,
  );
}

/**
 * Items' JSON (`json` of each index in `order`) in chunks of about CHUNK_BYTES, encoded straight
 * into buffers from `take`. `after`: items were written before these (the first then starts with
 * a comma too).
 */
function* itemsJson(
  order: ArrayLike<number>,
  json: (i: number) => string,
  after: boolean,
  take: (bytes: number) => Buffer,
): Generator<Buffer> {
  let scratch = take(CHUNK_BYTES);
  let used = 0;
  for (let k = 0; k < order.length; k++) {
    const item = (k > 0 || after ? ',' : '') + json(order[k]!);
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
