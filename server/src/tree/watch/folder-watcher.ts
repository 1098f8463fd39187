import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { identityOf, type FolderIdentity } from '../read/folder-stamp.ts';

/** Events within one second above which the kernel queue may have overflowed unseen. */
const BURST_EVENTS = 8000;

export interface FolderWatcherHandlers {
  /**
   * A name in a watched folder was created, removed, renamed or written; or the folder itself
   * changed, was replaced or lost its watch (`real` is then the folder).
   */
  onChange(real: string): void;
  /** Events may have been lost (a burst past the kernel queue): the index must be rebuilt. */
  onOverflow(): void;
}

/**
 * One folder's watch and the device and inode it is on, UNKNOWN until its stat has answered. The
 * numbers are kept as `compact` gives them, in the record itself: an identity object and its two
 * bigints cost ~80 bytes a watch, 1.5 MiB for the 20,000 folders of a million-file tree.
 */
interface Watch {
  readonly watcher: FSWatcher;
  dev: number | bigint;
  ino: number | bigint;
}

const UNKNOWN = -1;

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/** A device or inode number as a number where one holds it exactly (nearly always), else as is. */
function compact(value: bigint): number | bigint {
  return value <= MAX_EXACT ? Number(value) : value;
}

/**
 * Whether a watch is on this folder; false while its identity is not known (no inode is UNKNOWN).
 */
function isOn(watch: Watch | undefined, folder: FolderIdentity): boolean {
  return (
    watch !== undefined && watch.ino === compact(folder.ino) && watch.dev === compact(folder.dev)
  );
}

/** The folder a watch is on, kept on its FSWatcher for the shared listeners. */
const FOLDER = Symbol('watched folder');
type Watcher = FSWatcher & { [FOLDER]?: string };

/**
 * One inotify watch per folder through `fs.watch`, added while the index walks the tree. Unlike
 * watchers that stat and remember every file (chokidar; @parcel/watcher keeps a C++ tree of every
 * path, about 290 bytes a file), this costs about 1.4 KB per folder and nothing per file, which is
 * what keeps a million-file index under its memory budget (docs/search.md).
 *
 * A watch follows an inode, not a path: each is kept with the device and inode it was put on, so
 * a folder replaced at its path (`rm -rf X && mkdir X`, `mv live.new live`) is noticed and watched
 * again (`add` of a watched path checks, and so does the index on the path's events), and nobody takes the old folder's watch for the new one
 * (`watches`).
 *
 * libuv does not report the kernel's queue overflow, so a burst of events is treated as one.
 */
export class FolderWatcher {
  private readonly watches = new Map<string, Watch>();
  private windowStart = 0;
  private windowEvents = 0;
  private overflowed = false;
  private closed = false;

  /**
   * The listeners of every watch, made once: a closure per watch and per event (two of them) cost
   * ~280 bytes of heap each, 5.5 MiB for the 20,000 folders of a million-file tree. An emitter
   * calls its listeners with itself as `this`, which names the watch.
   */
  private readonly onEvent: (this: Watcher, event: string, name: string | Buffer | null) => void;
  private readonly onError: (this: Watcher) => void;

  constructor(private readonly handlers: FolderWatcherHandlers) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the emitter is `this` inside
    const self = this;
    this.onEvent = function (event, name) {
      const real = this[FOLDER];
      if (real !== undefined) self.event(real, this, event, name);
    };
    this.onError = function () {
      const real = this[FOLDER];
      if (real !== undefined) self.lost(real, this);
    };
  }

  /** Number of folders watched. */
  get size(): number {
    return this.watches.size;
  }

  /** Whether a folder (real path) has a watch now, whichever inode it is on. */
  has(real: string): boolean {
    return this.watches.has(real);
  }

  /** Whether the watch at a path is on this folder (false while its inode is not known yet). */
  watchesFolder(real: string, folder: FolderIdentity): boolean {
    return isOn(this.watches.get(real), folder);
  }

  /** The inode the watch at a path is on; null when unwatched or not known yet. */
  identity(real: string): FolderIdentity | null {
    const watch = this.watches.get(real);
    return watch && watch.ino !== UNKNOWN
      ? { dev: BigInt(watch.dev), ino: BigInt(watch.ino) }
      : null;
  }

  /**
   * Watches a folder. A path watched already is checked: when another folder stands there now,
   * the old watch goes and the path is reported changed (the index then reads and watches it). Throws when the system
   * refuses (watch limit reached: ENOSPC, or EMFILE); a folder that vanished meanwhile is ignored.
   */
  add(real: string): void {
    const existing = this.watches.get(real);
    if (existing) {
      void this.check(real, existing);
      return;
    }
    let watcher: Watcher;
    try {
      watcher = watch(real, { persistent: false });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return;
      throw error;
    }
    // Set before any event can arrive (events come on a later turn).
    watcher[FOLDER] = real;
    watcher.on('change', this.onEvent);
    watcher.on('error', this.onError);
    const added: Watch = { watcher, dev: UNKNOWN, ino: UNKNOWN };
    this.watches.set(real, added);
    // The stat follows the watch: a folder replaced in between is watched on the old inode but
    // known by the new one, and its next event (or the next `add`) finds the mismatch.
    void identityOf(real).then((identity) => {
      if (!identity || this.watches.get(real) !== added) return;
      added.dev = compact(identity.dev);
      added.ino = compact(identity.ino);
    });
  }

  /** An event of the watch on `real`. */
  private event(
    real: string,
    watcher: FSWatcher,
    event: string,
    name: string | Buffer | null,
  ): void {
    this.count();
    const child = name?.toString();
    // libuv names an event of the watched folder itself by the folder's own base name. A
    // 'rename' of it (moved, deleted, its watch ignored) ends what this watch can say about the
    // path, even if a new folder there gets the freed inode number again: the watch goes, and the
    // path is reported so that the index reads and watches it anew. (A child of that very name
    // being renamed costs the same, needlessly.)
    if (!child || child === path.basename(real)) {
      if (event === 'rename' && this.watches.get(real)?.watcher === watcher) this.remove(real);
      this.handlers.onChange(real);
    }
    if (child) this.handlers.onChange(path.join(real, child));
  }

  /**
   * The watch on `real` failed: the folder went away (its watch is gone with it) or became
   * unreadable. Whoever keeps the folder's state must look at it again, not trust a watch that
   * no longer reports.
   */
  private lost(real: string, watcher: FSWatcher): void {
    if (this.watches.get(real)?.watcher !== watcher) return;
    this.remove(real);
    if (!this.closed) this.handlers.onChange(real);
  }

  /** Drops the watch of a path whose folder is another than the one watched. */
  private async check(real: string, existing: Watch): Promise<void> {
    if (existing.ino === UNKNOWN) return; // its first stat has not answered yet
    const now = await identityOf(real);
    if (this.closed || this.watches.get(real) !== existing) return;
    if (now && isOn(existing, now)) return;
    // Reported unwatched: the index reads the folder there again, watching it as it goes.
    this.remove(real);
    this.handlers.onChange(real);
  }

  /** Stops watching a folder and every folder below it. */
  removeTree(real: string): void {
    const prefix = real + path.sep;
    for (const key of this.watches.keys()) {
      if (key === real || key.startsWith(prefix)) this.remove(key);
    }
  }

  close(): void {
    this.closed = true;
    for (const { watcher } of this.watches.values()) watcher.close();
    this.watches.clear();
  }

  private remove(real: string): void {
    this.watches.get(real)?.watcher.close();
    this.watches.delete(real);
  }

  private count(): void {
    const now = Date.now();
    if (now - this.windowStart > 1000) {
      this.windowStart = now;
      this.windowEvents = 0;
      this.overflowed = false;
    }
    if (++this.windowEvents > BURST_EVENTS && !this.overflowed) {
      this.overflowed = true;
      this.handlers.onOverflow();
    }
  }
}
