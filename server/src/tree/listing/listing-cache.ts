import path from 'node:path';
import type { Sorting } from '@cabinet/protocol';
import {
  detectType,
  sniffsByName,
  SNIFF_BYTES,
  TEXT_LIMIT_BYTES,
} from '../../file-kinds/file-type.ts';
import { offersSubtitles } from '../../file-kinds/subtitles.ts';
import type { FolderChildren, Resolved, ScopedFs, Stats, TypedNames } from '../../fs/scoped-fs.ts';
import {
  folderStamp,
  sameStamp,
  shownNumbers,
  type FolderIdentity,
  type FolderStamp,
} from '../read/folder-stamp.ts';
import type { FindStats } from '../read/find-stats.ts';
import { typeCode } from './listed-types.ts';
import { patchFolder, type Patched } from './listing-patch.ts';
import { identity, sortOrder } from './sort-items.ts';

/**
 * The stat'ed children of one folder, as every user's listing of it starts: all names but temp
 * files, whatever any user's rules or hidden dotfiles say (each listing filters them itself), with
 * their numbers and types. A listing from it costs a filter, a cached sort order and the JSON
 * written from these columns: no readdir, no stat, no type sniffing. (Each child's JSON was once
 * kept too, ready to copy: 170 more bytes a child, which the 200 MiB budget could not spare, for
 * a listing already many times faster than nginx's without it: docs/benchmarks.md.)
 */
export interface CachedFolder {
  /** The folder's real path, the key it is held under. */
  readonly key: string;
  /** The folder's stamp taken before it was read: served only while the folder's equals it. */
  readonly stamp: FolderStamp;
  /**
   * Children that are files with other hard links: a write through another link raises no event
   * in this folder, so they are stat'ed again at every listing.
   */
  readonly linked: Uint32Array;
  /**
   * Children the watches reported changed since the folder was read (written in place, chmod, a
   * child folder's content): stat'ed again before the folder is served (`patchFolder`).
   */
  readonly dirty: Set<string>;
  /**
   * Stamped within a clock tick of its last change (`FolderStamp.racy`): an equal stamp does not
   * prove its names unchanged, so they are read again before it is served.
   */
  readonly recheck: boolean;
  /** Names in code-unit order. */
  readonly names: readonly string[];
  readonly isDir: Uint8Array;
  readonly sizes: Float64Array;
  readonly mtimes: Float64Array;
  /** Each child's st_mode. */
  readonly modes: Uint32Array;
  /** Each child's type as its position in LISTED_TYPES. */
  readonly types: Uint8Array;
  /** Orders of all children by sorting (`by:asc`), computed on first use. */
  readonly orders: Map<string, Uint32Array>;
  /**
   * Whether some child is a video, and whether some child may hold subtitles (`offersSubtitles`):
   * a folder with both is not cached. A patch carries them over without looking at every name
   * again, so after one removed the last such child they may say yes wrongly: the folder is then
   * given up a little early, never served wrong.
   */
  readonly videos: boolean;
  readonly subtitles: boolean;
  /** What the entry holds, counted against the cache's budget. */
  bytes: number;
}

/** Folders a cache cannot serve as they are read: their listings are built fresh each time. */
interface Uncacheable {
  readonly uncacheable: true;
  readonly stamp: FolderStamp;
  readonly bytes: number;
}

type Slot = CachedFolder | Uncacheable;

export interface ListingCacheSource {
  /**
   * Whether the folder (real path) is watched now, so any change in it will be reported; with
   * `folder`, watched on that very inode.
   */
  isWatched(real: string, folder?: FolderIdentity): boolean;
  /** Real paths that changed (by the watcher or Cabinet's own writes). */
  onPathChanged(listener: (real: string) => void): () => void;
  /** Changes may have been missed: everything cached must go. */
  onResync(listener: () => void): () => void;
  /**
   * The children of a watched folder as the watches know them, or null (NameIndex.childrenOf);
   * with `folder`, only when the watch is on that very inode.
   */
  childrenOf(real: string, folder?: FolderIdentity): TypedNames | null;
}

/** A fill under way; `stale` once a change in its folder was reported while it read. */
interface Fill {
  readonly result: Promise<Slot>;
  /** The folder's stamp taken before the read. */
  readonly stamp: FolderStamp;
  stale: boolean;
}

/** A folder read by a listing, followed so that it may be kept (`ListingCache.follow`). */
export interface Followed {
  readonly key: string;
  readonly stamp: FolderStamp;
  stale: boolean;
}

/** Most hard-linked files a cached folder re-stats per listing; a folder with more is not kept. */
const MAX_LINKED = 64;

/** V8 string header plus the two-byte worst case is overkill; names are mostly one-byte. */
export const STRING_OVERHEAD = 24;

/**
 * Per-folder cache of stat'ed children for listings (docs/benchmarks.md, "Listing cache"),
 * least recently used first out, bounded by bytes. Two guards keep every listing from it equal to
 * a fresh read:
 *
 * - At every request the folder is stat'ed once (`FolderStamp`: device, inode, mtime and ctime in
 *   ns) and the cached folder is served as it is only if that stamp equals the one taken before
 *   it was read: a name added, removed or renamed in it by anyone, a folder replaced at its path or
 *   an ancestor moved so that another folder stands there, all show at once, without any event.
 *   Otherwise it is brought up to date from one directory read (`patchFolder`). A folder stamped
 *   within a clock tick of its last change is kept marked `recheck`: its names are read again.
 * - What does not change the folder's own stamp (a file written in place, chmod, a touch, a child
 *   folder's mtime) is reported by watches: only folders watched on their very inode are kept; a
 *   change reported of the folder or anything below it drops it, one of a child or grandchild
 *   marks that child `dirty` (stat'ed again before the folder is served). Files with other hard
 *   links are stat'ed again at each listing (a write through another link raises no event here).
 *
 * Everything is dropped on a resync. A read that a change overlapped is served but not kept.
 */
export class ListingCache {
  private readonly slots = new Map<string, Slot>();
  private readonly fills = new Map<string, Fill>();
  /**
   * Held folders below each path (by ancestor): a change of a path with none below it costs no
   * scan of every held folder.
   */
  private readonly below = new Map<string, number>();
  /** Folders read elsewhere that may be kept from what was read (`follow`, `keep`). */
  private readonly followed = new Set<Followed>();
  private used = 0;
  private readonly unsubscribe: (() => void)[];
  /**
   * Lookups of watched folders answered from what was held (patched ones too), and those that had
   * to read the folder whole (the figures of /metrics).
   */
  hits = 0;
  misses = 0;

  constructor(
    private readonly source: ListingCacheSource,
    /** Byte budget; 0 turns the cache off. */
    readonly capacity: number,
  ) {
    this.unsubscribe = [
      source.onPathChanged((real) => this.changed(real)),
      source.onResync(() => this.clear()),
    ];
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.used;
  }

  /** Folders held now (cached or known uncacheable). */
  get size(): number {
    return this.slots.size;
  }

  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.clear();
  }

  clear(): void {
    this.slots.clear();
    this.below.clear();
    for (const fill of this.fills.values()) fill.stale = true;
    this.fills.clear();
    for (const followed of this.followed) followed.stale = true;
    this.followed.clear();
    this.used = 0;
  }

  /**
   * The cached children of a folder the user may list, read and kept if it is watched; null when
   * it cannot be served from a cache (not watched, cache off, holds symlinks or subtitled videos,
   * too many children), or with `waitForFill: false` while it is still being read; with
   * `startFill: false` a folder not cached yet is not read either. `orderFor`: a fill started now
   * also sorts the children so (the next listing's first byte need not wait for that sort).
   * `count`: how many children the caller just found there; a folder with more than could fit is
   * known uncacheable without a read (a million names read again for nothing took a second).
   */
  async folder(
    fs: ScopedFs,
    dir: Resolved & { stat: Stats },
    options: {
      waitForFill?: boolean;
      startFill?: boolean;
      orderFor?: Sorting;
      count?: number;
      /** The folder's stamp taken for this request (`stamp`), if it was already. */
      stamp?: FolderStamp | null;
    } = {},
  ): Promise<CachedFolder | null> {
    if (this.capacity <= 0) return null;
    const stamp = options.stamp !== undefined ? options.stamp : await this.stamp(dir);
    if (!stamp || !this.source.isWatched(dir.real, stamp)) return null;
    const key = dir.real;
    let slot = this.slots.get(key);
    if (slot && !('uncacheable' in slot)) {
      const same = sameStamp(slot.stamp, stamp);
      if (!same || slot.recheck || slot.dirty.size > 0) {
        // Changed since it was read (whether or not an event said so), or some children did:
        // brought up to date from one directory read and the stats of what changed.
        const patched = await this.patch(dir, slot, stamp, fs.root.findStats, options.orderFor);
        if (patched) this.hits++;
        else this.misses++;
        return patched && (await this.linksUnchanged(patched)) ? patched : null;
      }
    } else if (slot && !sameStamp(slot.stamp, stamp)) {
      this.drop(key);
      slot = undefined;
    }
    if (slot) {
      this.hits++;
      // Most recently used last.
      this.slots.delete(key);
      this.slots.set(key, slot);
    } else {
      this.misses++;
      let fill = this.fills.get(key);
      if (fill && !sameStamp(fill.stamp, stamp)) {
        // The folder changed since that read began: it is not for this request.
        fill.stale = true;
        this.fills.delete(key);
        fill = undefined;
      }
      if (!fill && options.startFill === false) return null;
      if (!fill) {
        const maxCount = this.maxChildren;
        const started: Fill = {
          // A folder that could not fit is known by its names, before any stat.
          result:
            (options.count ?? 0) > maxCount
              ? Promise.resolve(uncacheable(key, stamp))
              : readFolder(fs, dir, stamp, maxCount),
          stamp,
          stale: false,
        };
        fill = started;
        this.fills.set(key, started);
        void started.result.then(
          (read) => {
            if (this.fills.get(key) === started) this.fills.delete(key);
            // A change reported during the read, or the watch gone: served once, never kept.
            if (started.stale || !this.source.isWatched(key, stamp)) return;
            this.store(key, read);
            // Kept (not refused as too big) and cacheable: sorted now, off the next reply's path.
            if (options.orderFor && this.slots.get(key) === read && !('uncacheable' in read)) {
              this.order(read, options.orderFor);
            }
          },
          () => {
            if (this.fills.get(key) === started) this.fills.delete(key);
          },
        );
      }
      // A caller that reads the folder itself meanwhile (a streamed listing) does not wait.
      if (options.waitForFill === false) return null;
      slot = await fill.result;
    }
    if ('uncacheable' in slot) return null;
    return (await this.linksUnchanged(slot)) ? slot : null;
  }

  /**
   * The folder's stamp now (one stat), which `folder` and `knownChildren` check against; null
   * when the folder is gone.
   */
  stamp(dir: Resolved): Promise<FolderStamp | null> {
    return folderStamp(dir.real);
  }

  /**
   * Brings a cached folder whose stamp changed (or whose children were reported changed) up to
   * date (`patchFolder`) and keeps the result unless a change was reported meanwhile; null when
   * the folder must be read whole.
   */
  private async patch(
    dir: Resolved,
    old: CachedFolder,
    stamp: FolderStamp,
    finder: FindStats,
    orderFor?: Sorting,
  ): Promise<CachedFolder | null> {
    // Changes reported from now on make the result stale; those before are in `dirty`.
    const followed: Followed = { key: old.key, stamp, stale: false };
    this.followed.add(followed);
    const dirty = new Set(old.dirty);
    const maxCount = this.maxChildren;
    let result: Patched | null = null;
    try {
      result = await patchFolder(dir, old, stamp, dirty, maxCount, finder);
    } finally {
      this.followed.delete(followed);
    }
    if (!result) {
      if (this.slots.get(old.key) === old) this.drop(old.key);
      return null;
    }
    const patched = result.folder;
    for (const [key, order] of old.orders) {
      const carried = carriedOrder(order, result, key);
      if (carried) {
        patched.orders.set(key, carried);
        patched.bytes += carried.byteLength;
      }
    }
    if (!followed.stale && this.source.isWatched(old.key, stamp)) {
      if (this.slots.get(old.key) === old || !this.slots.has(old.key)) {
        this.store(old.key, patched);
        if (orderFor && this.slots.get(old.key) === patched) this.order(patched, orderFor);
      }
    }
    return patched;
  }

  /** Whether a cached folder's hard-linked files still have the numbers it holds (else dropped). */
  private async linksUnchanged(folder: CachedFolder): Promise<boolean> {
    if (folder.linked.length === 0) return true;
    const names = Array.from(folder.linked, (i) => folder.names[i]!);
    const now = await shownNumbers(folder.key, names);
    for (let k = 0; k < names.length; k++) {
      const i = folder.linked[k]!;
      const numbers = now[k];
      if (
        !numbers ||
        numbers.size !== folder.sizes[i] ||
        numbers.mtimeMs !== folder.mtimes[i] ||
        numbers.mode !== folder.modes[i]
      ) {
        if (this.slots.get(folder.key) === folder) this.drop(folder.key);
        return false;
      }
    }
    return true;
  }

  /**
   * A folder's names and entry kinds without reading it, when its watch vouches for them (the
   * search index holds every watched folder's names); null otherwise: when the watch is on another
   * inode than the folder's (replaced at its path), or the folder changed a moment ago (its event
   * may not have been applied yet). Not tied to the cache's budget.
   */
  knownChildren(real: string, stamp: FolderStamp | null): TypedNames | null {
    if (!stamp || stamp.racy) return null;
    return this.source.childrenOf(real, stamp);
  }

  /** Whether a folder of `count` children could be kept (`keep`, `folder`): not too big for it. */
  canKeep(count: number): boolean {
    return this.capacity > 0 && count <= this.maxChildren;
  }

  /** The most children a kept folder may have: half the cache at the fewest bytes a child takes. */
  private get maxChildren(): number {
    return Math.floor(this.capacity / 2 / MIN_CHILD_BYTES);
  }

  /**
   * Starts following a folder that a listing reads whole itself (a streamed listing), so that
   * what it stat'ed can be kept (`keep`) instead of the folder being read again for the cache;
   * null when it could not be kept anyway. `stamp` must have been taken before that read began:
   * a change reported meanwhile makes it stale, and one not reported changes the stamp.
   */
  follow(dir: Resolved, stamp: FolderStamp | null): Followed | null {
    if (this.capacity <= 0 || !stamp) return null;
    if (!this.source.isWatched(dir.real, stamp) || this.slots.has(dir.real)) return null;
    const followed: Followed = { key: dir.real, stamp, stale: false };
    this.followed.add(followed);
    return followed;
  }

  /**
   * Keeps a followed folder from its children as a listing read them all, in parts (every child
   * but temp files, each part's shown children in its `order`); nothing when a change was
   * reported since `follow`, when its watch is gone or it cannot be cached.
   */
  keep(
    followed: Followed,
    parts: readonly { children: FolderChildren; order: ArrayLike<number> }[] | null,
    /** Sorted so now, off the next reply's path. */
    orderFor?: Sorting,
  ): void {
    this.followed.delete(followed);
    if (!parts || followed.stale || !this.source.isWatched(followed.key, followed.stamp)) return;
    let count = 0;
    for (const part of parts) count += part.order.length;
    if (!this.canKeep(count)) return;
    const folder = build(followed.key, followed.stamp, parts);
    if (!folder) return;
    this.store(followed.key, folder);
    if (orderFor && this.slots.get(followed.key) === folder) this.order(folder, orderFor);
  }

  /** The order of a cached folder's children for a sorting, kept with the folder. */
  order(folder: CachedFolder, sorting: Sorting): Uint32Array {
    const key = `${sorting.by}:${sorting.asc}`;
    let order = folder.orders.get(key);
    if (!order) {
      order = sortOrder(identity(folder.names.length), sorting, {
        name: (i) => folder.names[i]!,
        isDir: (i) => folder.isDir[i] === 1,
        size: (i) => folder.sizes[i]!,
        modifiedMs: (i) => folder.mtimes[i]!,
      });
      folder.orders.set(key, order);
      folder.bytes += order.byteLength;
      if (this.slots.get(folder.key) === folder) {
        this.used += order.byteLength;
        this.evict();
      }
    }
    return order;
  }

  private store(key: string, slot: Slot): void {
    if (slot.bytes > this.capacity / 2) return; // one folder never takes most of the cache
    const old = this.slots.get(key);
    if (old) this.used -= old.bytes;
    else this.count(key, 1);
    this.slots.delete(key);
    this.slots.set(key, slot);
    this.used += slot.bytes;
    this.evict();
  }

  private evict(): void {
    for (const [key, slot] of this.slots) {
      if (this.used <= this.capacity) return;
      this.slots.delete(key);
      this.count(key, -1);
      this.used -= slot.bytes;
    }
  }

  /**
   * A path changed: its own listing, its folder's and its grandparent's may show it, and when it
   * is a folder moved or removed, so may every listing below it (their paths now lead elsewhere).
   */
  private changed(real: string): void {
    const parent = path.dirname(real);
    this.drop(real);
    this.touched(parent, path.basename(real));
    this.touched(path.dirname(parent), path.basename(parent));
    const prefix = real === path.sep ? real : real + path.sep;
    if (this.below.has(real)) {
      for (const key of this.slots.keys()) if (key.startsWith(prefix)) this.drop(key);
    }
    for (const key of this.fills.keys()) if (key.startsWith(prefix)) this.drop(key);
    for (const followed of this.followed) {
      if (followed.key.startsWith(prefix)) followed.stale = true;
    }
  }

  /**
   * A child of a folder changed: a cached folder notes it (stat'ed again before it is served, as
   * are names added or removed); a read of the folder under way is not kept.
   */
  private touched(key: string, child: string): void {
    const slot = this.slots.get(key);
    if (slot && !('uncacheable' in slot)) {
      slot.dirty.add(child);
      // Past a quarter of its children, reading the folder whole costs about the same.
      if (slot.dirty.size > 64 && slot.dirty.size > slot.names.length / 4) this.drop(key);
      const fill = this.fills.get(key);
      if (fill) {
        fill.stale = true;
        this.fills.delete(key);
      }
      for (const followed of this.followed) if (followed.key === key) followed.stale = true;
    } else this.drop(key);
  }

  /** Counts a folder taken in (1) or let go (-1) under each of its ancestors. */
  private count(key: string, by: 1 | -1): void {
    for (let at = path.dirname(key); ; at = path.dirname(at)) {
      const held = (this.below.get(at) ?? 0) + by;
      if (held > 0) this.below.set(at, held);
      else this.below.delete(at);
      if (at === path.dirname(at)) return;
    }
  }

  private drop(key: string): void {
    const slot = this.slots.get(key);
    if (slot) {
      this.slots.delete(key);
      this.count(key, -1);
      this.used -= slot.bytes;
    }
    const fill = this.fills.get(key);
    if (fill) {
      fill.stale = true;
      this.fills.delete(key);
    }
    for (const followed of this.followed) if (followed.key === key) followed.stale = true;
  }
}

/** Most children stat'ed in a patch whose places in a kept order are found one by one. */
const MAX_INSERTED = 32;

/**
 * A name order of the old folder carried over to the patched one: the kept children in their old
 * order, the few stat'ed now put in their places by binary search, instead of sorting every
 * child again (tens of milliseconds for 100,000). Only name orders: a child's place there depends
 * on its name and whether it is a folder, neither of which changes while it is kept. Null when
 * it must be sorted anew.
 */
function carriedOrder(old: Uint32Array, patched: Patched, key: string): Uint32Array | null {
  const [by, asc] = key.split(':');
  if (by !== 'name' || patched.inserted.length > MAX_INSERTED) return null;
  const { folder, oldToNew, inserted } = patched;
  const sorting: Sorting = { by: 'name', asc: asc === 'true' };
  const fields = {
    name: (i: number) => folder.names[i]!,
    isDir: (i: number) => folder.isDir[i] === 1,
    size: (i: number) => folder.sizes[i]!,
    modifiedMs: (i: number) => folder.mtimes[i]!,
  };
  // The same comparison as a full sort's (distinct names never tie).
  const before = (a: number, b: number) => sortOrder([a, b], sorting, fields)[0] === a;
  const order: number[] = [];
  for (let k = 0; k < old.length; k++) {
    const moved = oldToNew[old[k]!]!;
    if (moved >= 0) order.push(moved);
  }
  for (const child of inserted) {
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(order[middle]!, child)) low = middle + 1;
      else high = middle;
    }
    order.splice(low, 0, child);
  }
  return order.length === folder.names.length ? Uint32Array.from(order) : null;
}

/** Fewest bytes a cached child takes (numbers, order and a short name). */
const MIN_CHILD_BYTES = 40;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Reads every child of a folder and pre-serializes each (or finds it uncacheable). */
async function readFolder(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  stamp: FolderStamp,
  maxCount: number,
): Promise<Slot> {
  const children = await fs.readAllChildren(dir, {
    wantHead: sniffsByName,
    headBytes: SNIFF_BYTES,
    headMaxSize: TEXT_LIMIT_BYTES,
    sorted: true,
    maxCount,
  });
  if (!children) return uncacheable(dir.real, stamp);
  return build(dir.real, stamp, [{ children }]) ?? uncacheable(dir.real, stamp);
}

function uncacheable(key: string, stamp: FolderStamp): Uncacheable {
  return { uncacheable: true, stamp, bytes: 64 + key.length };
}

/**
 * Packs read children into a CachedFolder (from one whole read, or the parts a streamed listing
 * stat'ed: each part's children in its `order`, all of them in index order without one); null
 * when a listing needs more than the children themselves: a symlink (its target is judged per
 * user and changes unwatched), a video beside subtitles (they can live in sub-folders this
 * folder's watch does not see), or more hard-linked files than are worth stat'ing per listing.
 * The columns are allocated once at their final size, not grown entry by entry: the grown copies
 * of a 100,000-entry folder were ~10 MiB of garbage that stayed in RSS until V8 collected it.
 */
export function build(
  key: string,
  stamp: FolderStamp,
  parts: readonly { children: FolderChildren; order?: ArrayLike<number> }[],
): CachedFolder | null {
  let total = 0;
  for (const { children, order } of parts) total += order ? order.length : children.count;
  // At its final size too (V8 keeps a million-entry array fast): `count` of it are used.
  const names = new Array<string>(total);
  let count = 0;
  const isDir = new Uint8Array(total);
  const sizes = new Float64Array(total);
  const mtimes = new Float64Array(total);
  const modes = new Uint32Array(total);
  const types = new Uint8Array(total);
  const linked: number[] = [];
  for (const { children, order } of parts) {
    const length = order ? order.length : children.count;
    for (let k = 0; k < length; k++) {
      const i = order ? order[k]! : k;
      const mode = children.mode(i);
      if (mode < 0) continue; // vanished while read
      if ((mode & S_IFMT) === S_IFLNK) return null;
      const name = children.name(i);
      const dir = children.isDir(i);
      const at = count++;
      if (!dir && children.nlink(i) > 1) linked.push(at);
      names[at] = name;
      isDir[at] = dir ? 1 : 0;
      sizes[at] = children.size(i);
      mtimes[at] = children.mtimeMs(i);
      modes[at] = mode;
      const type = dir ? '' : detectType(name, children.stat(i), children.head(i));
      types[at] = typeCode.get(type)!;
    }
  }
  names.length = count;
  // Children that vanished while read leave the columns a little long: cut to the count.
  const fit = <T extends Uint8Array | Float64Array | Uint32Array>(column: T): T =>
    count === total ? column : (column.slice(0, count) as T);
  const columns = {
    isDir: fit(isDir),
    sizes: fit(sizes),
    mtimes: fit(mtimes),
    modes: fit(modes),
    types: fit(types),
  };
  return folderFromColumns(key, stamp, names, columns, linked);
}

export type Columns = Pick<CachedFolder, 'isDir' | 'sizes' | 'mtimes' | 'modes' | 'types'>;

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A CachedFolder of the given children's columns, put in code-unit order of their names (what
 * `patchFolder` merges by) if they are not, in place: the folder takes `names` and `columns` as
 * they are. Null for a video beside subtitles or too many hard-linked files (`linked`: indices of
 * the files with other links).
 */
export function folderFromColumns(
  key: string,
  stamp: FolderStamp,
  names: string[],
  columns: Columns,
  linked: number[],
): CachedFolder | null {
  if (linked.length > MAX_LINKED) return null;
  const count = names.length;
  let sorted = true;
  for (let i = 1; i < count && sorted; i++) sorted = names[i - 1]! < names[i]!;
  if (!sorted) {
    // Put in order where they lie: copies of a 100,000-entry folder's names and columns (and the
    // boxed numbers of Array.from) were ~15 MiB of garbage at its first listing.
    const order = identity(count).sort((a, b) => byCodeUnits(names[a]!, names[b]!));
    const position = new Uint32Array(count);
    for (let to = 0; to < count; to++) position[order[to]!] = to;
    permute(order, [
      names,
      columns.isDir,
      columns.sizes,
      columns.mtimes,
      columns.modes,
      columns.types,
    ]);
    linked = linked.map((i) => position[i]!).sort((a, b) => a - b);
  }
  const video = typeCode.get('video');
  let videos = false;
  let subtitles = false;
  let nameBytes = 0;
  for (let i = 0; i < count; i++) {
    const name = names[i]!;
    nameBytes += STRING_OVERHEAD + name.length * 2;
    if (columns.types[i] === video) videos = true;
    if (offersSubtitles(name, columns.isDir[i] === 1)) subtitles = true;
  }
  return packedFolder(key, stamp, names, columns, Uint32Array.from(linked), {
    nameBytes,
    videos,
    subtitles,
  });
}

/**
 * Reorders arrays of one length in place so that each's element `to` is its former element
 * `order[to]`: one cycle of the permutation at a time, with a bit per element for the done ones.
 */
function permute(order: Uint32Array, arrays: { [index: number]: unknown }[]): void {
  const done = new Uint8Array(Math.ceil(order.length / 8));
  const mark = (i: number) => (done[i >> 3]! |= 1 << (i & 7));
  const held: unknown[] = new Array<unknown>(arrays.length);
  for (let start = 0; start < order.length; start++) {
    if (done[start >> 3]! & (1 << (start & 7))) continue;
    for (let a = 0; a < arrays.length; a++) held[a] = arrays[a]![start];
    let to = start;
    for (let from = order[to]!; from !== start; to = from, from = order[to]!) {
      for (const array of arrays) array[to] = array[from];
      mark(to);
    }
    for (let a = 0; a < arrays.length; a++) arrays[a]![to] = held[a];
    mark(to);
  }
}

/**
 * A CachedFolder of children already in code-unit order, whose names' bytes (`STRING_OVERHEAD`
 * plus two a UTF-16 unit) and flags are known; null for a video beside subtitles or too many
 * hard-linked files.
 */
export function packedFolder(
  key: string,
  stamp: FolderStamp,
  names: string[],
  columns: Columns,
  linked: Uint32Array,
  known: { nameBytes: number; videos: boolean; subtitles: boolean },
): CachedFolder | null {
  if (linked.length > MAX_LINKED) return null;
  if (known.videos && known.subtitles) return null;
  const count = names.length;
  return {
    key,
    stamp,
    linked,
    names,
    ...columns,
    orders: new Map(),
    videos: known.videos,
    subtitles: known.subtitles,
    dirty: new Set(),
    recheck: stamp.racy,
    bytes: 256 + known.nameBytes + count * (1 + 8 + 8 + 4 + 1) + linked.length * 4,
  };
}
