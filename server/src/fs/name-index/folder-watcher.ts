import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Events within one second above which the kernel queue may have overflowed unseen. */
const BURST_EVENTS = 8000;

export interface FolderWatcherHandlers {
  /** A name in a watched folder was created, removed, renamed or written. */
  onChange(real: string): void;
  /** Events may have been lost (a burst past the kernel queue): the index must be rebuilt. */
  onOverflow(): void;
}

/**
 * One inotify watch per folder through `fs.watch`, added while the index walks the tree. Unlike
 * watchers that stat and remember every file (chokidar; @parcel/watcher keeps a C++ tree of every
 * path, about 290 bytes a file), this costs about 1.4 KB per folder and nothing per file, which is
 * what keeps a million-file index under its memory budget (docs/search.md).
 *
 * libuv does not report the kernel's queue overflow, so a burst of events is treated as one.
 */
export class FolderWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private windowStart = 0;
  private windowEvents = 0;
  private overflowed = false;

  constructor(private readonly handlers: FolderWatcherHandlers) {}

  /** Number of folders watched. */
  get size(): number {
    return this.watchers.size;
  }

  /** Whether a folder (real path) is watched now. */
  has(real: string): boolean {
    return this.watchers.has(real);
  }

  /**
   * Watches a folder (idempotent). Throws when the system refuses (watch limit reached: ENOSPC,
   * or EMFILE); a folder that vanished meanwhile is ignored.
   */
  add(real: string): void {
    if (this.watchers.has(real)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(real, { persistent: false }, (_event, name) => {
        this.count();
        if (name) this.handlers.onChange(path.join(real, name.toString()));
        else this.handlers.onChange(real);
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return;
      throw error;
    }
    // The folder went away (its watch is gone with it) or became unreadable: forget it.
    watcher.on('error', () => this.remove(real));
    this.watchers.set(real, watcher);
  }

  /** Stops watching a folder and every folder below it. */
  removeTree(real: string): void {
    const prefix = real + path.sep;
    for (const key of this.watchers.keys()) {
      if (key === real || key.startsWith(prefix)) this.remove(key);
    }
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private remove(real: string): void {
    this.watchers.get(real)?.close();
    this.watchers.delete(real);
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
