import path from 'node:path';
import type { Sorting } from '@cabinet/protocol';
import { detectType, sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../files/file-type.ts';
import { offersSubtitles } from '../../files/subtitles.ts';
import type { FolderChildren, Resolved, ScopedFs, Stats, TypedNames } from '../../fs/scoped-fs.ts';
import { typeCode } from './listed-types.ts';
import { sortOrder } from './sort-items.ts';

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
  /** What the entry holds, counted against the cache's budget. */
  bytes: number;
}

/** Folders a cache cannot serve as they are read: their listings are built fresh each time. */
interface Uncacheable {
  readonly uncacheable: true;
  readonly bytes: number;
}

type Slot = CachedFolder | Uncacheable;

export interface ListingCacheSource {
  /** Whether the folder (real path) is watched now, so any change in it will be reported. */
  isWatched(real: string): boolean;
  /** Real paths that changed (by the watcher or Cabinet's own writes). */
  onPathChanged(listener: (real: string) => void): () => void;
  /** Changes may have been missed: everything cached must go. */
  onResync(listener: () => void): () => void;
  /** The children of a watched folder as the watches know them, or null (NameIndex.childrenOf). */
  childrenOf(real: string): TypedNames | null;
}

/** A fill under way; `stale` once a change in its folder was reported while it read. */
interface Fill {
  readonly result: Promise<Slot>;
  stale: boolean;
}

/** V8 string header plus the two-byte worst case is overkill; names are mostly one-byte. */
const STRING_OVERHEAD = 24;

/**
 * Per-folder cache of stat'ed children for listings (docs/benchmarks.md, "Listing cache"),
 * least recently used first out, bounded by bytes. Only watched folders are cached: every entry is
 * dropped when the watcher (or ScopedFs) reports a change of the folder, of one of its children
 * (the folder's listing changes) or of a grandchild (a child folder's mtime and size change), and
 * everything is dropped on a resync. A read that a change overlapped is served but not kept.
 */
export class ListingCache {
  private readonly slots = new Map<string, Slot>();
  private readonly fills = new Map<string, Fill>();
  private used = 0;
  private readonly unsubscribe: (() => void)[];

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
    for (const fill of this.fills.values()) fill.stale = true;
    this.fills.clear();
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
    } = {},
  ): Promise<CachedFolder | null> {
    if (this.capacity <= 0 || !this.source.isWatched(dir.real)) return null;
    const key = dir.real;
    let slot = this.slots.get(key);
    if (slot) {
      // Most recently used last.
      this.slots.delete(key);
      this.slots.set(key, slot);
    } else {
      let fill = this.fills.get(key);
      if (!fill && options.startFill === false) return null;
      if (!fill) {
        const maxCount = Math.floor(this.capacity / 2 / MIN_CHILD_BYTES);
        const started: Fill = {
          // A folder that could not fit is known by its names, before any stat.
          result:
            (options.count ?? 0) > maxCount
              ? Promise.resolve(uncacheable(key))
              : readFolder(fs, dir, maxCount),
          stale: false,
        };
        fill = started;
        this.fills.set(key, started);
        void started.result.then(
          (read) => {
            if (this.fills.get(key) === started) this.fills.delete(key);
            // A change reported during the read, or the watch gone: served once, never kept.
            if (started.stale || !this.source.isWatched(key)) return;
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
    return 'uncacheable' in slot ? null : slot;
  }

  /**
   * A folder's names and entry kinds without reading it, when its watch vouches for them (the
   * search index holds every watched folder's names); null otherwise. The cache's own guarantee:
   * a change shows once the watch has reported it. Not tied to the cache's budget.
   */
  knownChildren(real: string): TypedNames | null {
    return this.source.childrenOf(real);
  }

  /** The order of a cached folder's children for a sorting, kept with the folder. */
  order(folder: CachedFolder, sorting: Sorting): Uint32Array {
    const key = `${sorting.by}:${sorting.asc}`;
    let order = folder.orders.get(key);
    if (!order) {
      const present: number[] = [];
      for (let i = 0; i < folder.names.length; i++) present.push(i);
      order = Uint32Array.from(
        sortOrder(present, sorting, {
          name: (i) => folder.names[i]!,
          isDir: (i) => folder.isDir[i] === 1,
          size: (i) => folder.sizes[i]!,
          modifiedMs: (i) => folder.mtimes[i]!,
        }),
      );
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
    this.slots.delete(key);
    this.slots.set(key, slot);
    this.used += slot.bytes;
    this.evict();
  }

  private evict(): void {
    for (const [key, slot] of this.slots) {
      if (this.used <= this.capacity) return;
      this.slots.delete(key);
      this.used -= slot.bytes;
    }
  }

  /** A path changed: its own listing, its folder's and its grandparent's may show it. */
  private changed(real: string): void {
    const parent = path.dirname(real);
    this.drop(real);
    this.drop(parent);
    this.drop(path.dirname(parent));
  }

  private drop(key: string): void {
    const slot = this.slots.get(key);
    if (slot) {
      this.slots.delete(key);
      this.used -= slot.bytes;
    }
    const fill = this.fills.get(key);
    if (fill) {
      fill.stale = true;
      this.fills.delete(key);
    }
  }
}

/** Fewest bytes a cached child takes (numbers, order and a short name). */
const MIN_CHILD_BYTES = 40;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Reads every child of a folder and pre-serializes each (or finds it uncacheable). */
async function readFolder(
  fs: ScopedFs,
  dir: Resolved & { stat: Stats },
  maxCount: number,
): Promise<Slot> {
  const children = await fs.readAllChildren(dir, {
    wantHead: sniffsByName,
    headBytes: SNIFF_BYTES,
    headMaxSize: TEXT_LIMIT_BYTES,
    sorted: true,
    maxCount,
  });
  return (children && build(dir.real, children)) ?? uncacheable(dir.real);
}

function uncacheable(key: string): Uncacheable {
  return { uncacheable: true, bytes: 64 + key.length };
}

/**
 * Packs read children into a CachedFolder; null when a listing needs more than the children
 * themselves: a symlink (its target is judged per user and changes unwatched) or a video beside
 * subtitles (they can live in sub-folders this folder's watch does not see).
 */
function build(key: string, children: FolderChildren): CachedFolder | null {
  const present: number[] = [];
  let videos = false;
  let subtitles = false;
  for (let i = 0; i < children.count; i++) {
    const mode = children.mode(i);
    if (mode < 0) continue; // vanished while read
    if ((mode & S_IFMT) === S_IFLNK) return null;
    present.push(i);
    if (offersSubtitles(children.name(i), children.isDir(i))) subtitles = true;
  }
  const count = present.length;
  const names = new Array<string>(count);
  const isDir = new Uint8Array(count);
  const sizes = new Float64Array(count);
  const mtimes = new Float64Array(count);
  const modes = new Uint32Array(count);
  const types = new Uint8Array(count);
  let nameBytes = 0;
  for (let k = 0; k < count; k++) {
    const i = present[k]!;
    const name = children.name(i);
    const dir = children.isDir(i);
    // Links never get here, nor videos with subtitles.
    const type = dir ? '' : detectType(name, children.stat(i), children.head(i));
    if (type === 'video') videos = true;
    names[k] = name;
    nameBytes += STRING_OVERHEAD + name.length * 2;
    isDir[k] = dir ? 1 : 0;
    sizes[k] = children.size(i);
    mtimes[k] = children.mtimeMs(i);
    modes[k] = children.mode(i);
    types[k] = typeCode.get(type)!;
  }
  if (videos && subtitles) return null;
  return {
    key,
    names,
    isDir,
    sizes,
    mtimes,
    modes,
    types,
    orders: new Map(),
    bytes: 256 + nameBytes + count * (1 + 8 + 8 + 4 + 1),
  };
}
