import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { FileChanges } from '../changes.ts';
import { identityOf, sameFolder, type FolderIdentity } from '../read/folder-stamp.ts';
import type { TypedNames } from '../../fs/typed-names.ts';
import { FolderWatcher } from '../watch/folder-watcher.ts';
import { buildGramIndex, type GramIndex } from './gram-index.ts';
import { indexFilePath, loadIndexFile, saveIndexFile } from './index-file.ts';
import { NameTable, type TableParts } from './name-table.ts';
import { TableChildren } from './table-children.ts';
import { scanTree } from './tree-scan.ts';

export interface NameIndexOptions {
  /** Real path of the served root. */
  realRoot: string;
  /** Data folder: the index is persisted there. */
  dataDir: string;
  log: FastifyBaseLogger;
  /** Changes made through ScopedFs, applied at once (the watcher would see them a little later). */
  changes: FileChanges;
  /** Watch folders (false on network mounts: periodic reconciliation only). */
  watch: boolean;
  /** Seconds between reconciliations when folders are not watched. */
  reconcileInterval: number;
  /** Tests hold background walks with this until they have checked the fallback. */
  gate?: Promise<void>;
  /** Bytes of names added since the trigram index was built that make it build again (tests). */
  gramTailBytes?: number;
}

/** A table from persisted parts, or null when they do not hang together (built again then). */
function tableOf(parts: TableParts): NameTable | null {
  try {
    return new NameTable(parts);
  } catch {
    return null;
  }
}

/** Unsaved changes are written at most this often. */
const SAVE_EVERY_MS = 60_000;
/**
 * Names added since the gram index was built are scanned by every selective query; past this many
 * bytes of them (about 50,000 names, well under a millisecond of scanning) it is built again.
 */
const GRAM_TAIL_BYTES = 1024 * 1024;

/**
 * The name index of the whole root, kept fresh (docs/search.md). Life cycle:
 *
 * - start: load the persisted table if there is one (searches use it at once), then reconcile in
 *   the background: walk the tree into a fresh table while changes seen meanwhile are queued,
 *   replay them, swap. With no persisted table, searches fall back to a walk until then.
 * - changes: every watched folder reports names that changed; each is re-checked with one lstat
 *   and the table updated (a new folder is scanned). The same happens for ScopedFs's own writes.
 * - a burst that may have overflowed the kernel queue, or too much garbage, triggers the same
 *   consistent rebuild; without watching, it runs every `reconcileInterval` seconds.
 */
export class NameIndex {
  private table: NameTable | null = null;
  private readonly watcher: FolderWatcher;
  private watching: boolean;
  /** Paths changed while a rebuild walks, replayed onto the new table before it is used. */
  private pending: Set<string> | null = null;
  private rebuildRun: Promise<void> | null = null;
  private rebuildAgain = false;
  /** A gram index being built for the current table (names added since the last one). */
  private gramsRun: Promise<void> | null = null;
  private applying: Promise<void> = Promise.resolve();
  private readonly closing = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];
  private dirty = false;
  /**
   * Whether the table follows the disk in every watched folder: set when a walk made with watches
   * is swapped in, cleared when changes may have been missed (a burst, watching given up).
   */
  private following = false;
  /** Changes reported but not applied to the table yet. */
  private unapplied = 0;
  private saving: Promise<void> | null = null;
  private readonly unsubscribe: () => void;
  /** Told of every changed path (the event streams' self-updating folders, docs/jobs.md). */
  private readonly pathListeners = new Set<(real: string) => void>();
  /** Told when changes may have been missed (a burst, or watching stopped): see `onResync`. */
  private readonly resyncListeners = new Set<() => void>();

  constructor(private readonly options: NameIndexOptions) {
    this.watching = options.watch;
    this.watcher = new FolderWatcher({
      onChange: (real) => this.changed(real),
      onOverflow: () => {
        options.log.warn('search index: burst of file events, rebuilding to stay consistent');
        this.following = false;
        this.resync();
        this.rebuild();
      },
    });
    this.unsubscribe = options.changes.on((change) => {
      this.changed(change.real);
      if (change.to) this.changed(change.to);
    });
  }

  /**
   * Subscribes to every real path the watcher or ScopedFs reports changed; returns the function
   * that unsubscribes. Listeners must not block (they queue their own work).
   */
  onPathChanged(listener: (real: string) => void): () => void {
    this.pathListeners.add(listener);
    return () => this.pathListeners.delete(listener);
  }

  /**
   * Subscribes to moments when changes may have gone unreported (a burst past the kernel queue,
   * or watching given up): caches fed by `onPathChanged` must drop everything. Returns the
   * function that unsubscribes.
   */
  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /**
   * Whether changes in a folder (real path) are reported now by a watch of the folder itself
   * (the listing cache keeps only such folders, docs/benchmarks.md). With `folder`: a watch on
   * that very folder (device and inode), not on one that stood at the path before.
   */
  isWatched(real: string, folder?: FolderIdentity): boolean {
    return (
      this.watching &&
      !this.closing.signal.aborted &&
      (folder ? this.watcher.watchesFolder(real, folder) : this.watcher.has(real))
    );
  }

  /**
   * The children of a watched folder (real path) as the table holds them, for listings that would
   * otherwise read the folder first (a big folder's streamed listing): null unless the table
   * follows the disk there, with every reported change applied, and (with `folder`) the watch is
   * on that very folder: a folder replaced at its path is read, not taken for the old one. A
   * change shows once its folder's watch has reported it (callers skip a folder changed a moment
   * ago: `FolderStamp.racy`).
   */
  childrenOf(real: string, folder?: FolderIdentity): TypedNames | null {
    const table = this.table;
    if (!table || !this.following || this.unapplied > 0 || !this.isWatched(real, folder)) {
      return null;
    }
    const id = this.idIn(table, real, (parent, name) => table.findChild(parent, name));
    if (id < 0 || !table.isDir(id)) return null;
    return TableChildren.of(table, id);
  }

  /** When the current table was last built from the disk (ms); null before the first build. */
  builtAt: number | null = null;

  /** The table searches read, or null while the first build runs (searches then walk). */
  get current(): NameTable | null {
    return this.table;
  }

  get realRoot(): string {
    return this.options.realRoot;
  }

  /** Loads the persisted table and starts the background reconciliation; never blocks on it. */
  async start(): Promise<void> {
    const file = indexFilePath(this.options.dataDir);
    const started = performance.now();
    const parts = await loadIndexFile(file, this.options.realRoot).catch(() => null);
    this.table = parts ? tableOf(parts) : null;
    if (this.table) {
      this.options.log.info(
        { entries: this.table.live, ms: Math.round(performance.now() - started) },
        'search index loaded; reconciling with the disk in the background',
      );
    } else {
      this.options.log.info(
        'search index is being built; searches walk the tree until it is ready',
      );
    }
    if (!this.watching) this.startPeriodic('file watching is off');
    this.timers.push(setInterval(() => void this.save(), SAVE_EVERY_MS).unref());
    // A table saved without its gram index (an older file) answers by scanning until it has one.
    if (this.table && !this.table.grams) this.regram(this.table);
    this.rebuild();
  }

  /** Resolves when the running rebuild (if any) has been swapped in. */
  async settled(): Promise<void> {
    while (this.rebuildRun) await this.rebuildRun;
    await this.applying;
  }

  /** Id of the entry at a real path, or -1 when it is not indexed (or no table is ready). */
  idOf(real: string): number {
    const table = this.table;
    return table ? this.idIn(table, real, (parent, name) => table.lookup(parent, name)) : -1;
  }

  /** The id of a real path in a table, each step found by `find` (-1: not indexed). */
  private idIn(
    table: NameTable,
    real: string,
    find: (parentId: number, name: string) => number,
  ): number {
    const relative = path.relative(this.options.realRoot, real);
    if (relative === '') return 0;
    if (relative.startsWith('..') || path.isAbsolute(relative)) return -1;
    let id = 0;
    for (const name of relative.split(path.sep)) {
      id = find(id, name);
      if (id < 0) return -1;
    }
    return id;
  }

  /** Stops watching and timers, waits for running work and saves unsaved changes. */
  async close(): Promise<void> {
    this.closing.abort();
    this.unsubscribe();
    for (const timer of this.timers) clearInterval(timer);
    this.watcher.close();
    await this.rebuildRun?.catch(() => undefined);
    await this.gramsRun;
    await this.applying;
    await this.save();
  }

  /** Starts a consistent rebuild now, or once more after the running one. */
  rebuild(): void {
    if (this.closing.signal.aborted) return;
    if (this.rebuildRun) {
      this.rebuildAgain = true;
      return;
    }
    this.rebuildRun = this.runRebuild()
      .catch((error: unknown) =>
        this.options.log.error({ err: error }, 'search index rebuild failed'),
      )
      .finally(() => {
        this.rebuildRun = null;
        if (this.rebuildAgain) {
          this.rebuildAgain = false;
          this.rebuild();
        }
      });
  }

  private async runRebuild(): Promise<void> {
    await this.options.gate;
    if (this.closing.signal.aborted) return;
    const started = performance.now();
    const table = new NameTable();
    this.pending = new Set();
    await scanTree(table, 0, this.options.realRoot, {
      fresh: true,
      signal: this.closing.signal,
      watch: this.watching ? (real) => this.watch(real) : undefined,
    });
    if (this.closing.signal.aborted) return;
    // Plain arrays of the size walked before the gram index reads them all (growable.ts).
    table.settle();
    // The gram index is built before the swap, so the old table (with its own) answers meanwhile.
    const grams = await this.buildGrams(table);
    if (!grams) return;
    table.grams = grams;
    // Changes seen during the walk may or may not be in the new table: re-check each of them.
    while (this.pending.size > 0) {
      const replay = [...this.pending];
      this.pending.clear();
      for (const real of replay) await this.refresh(table, real);
    }
    this.pending = null;
    const first = this.table === null;
    this.table = table;
    this.builtAt = Date.now();
    this.following = this.watching;
    this.options.log.info(
      {
        entries: table.live,
        bytes: table.memoryBytes,
        folders: this.watcher.size,
        ms: Math.round(performance.now() - started),
        watching: this.watching,
      },
      first ? 'search index ready' : 'search index reconciled with the disk',
    );
    this.dirty = true;
    await this.save();
  }

  private watch(real: string): void {
    if (!this.watching) return;
    try {
      this.watcher.add(real);
    } catch (error) {
      this.startPeriodic(`the system refused a folder watch (${(error as Error).message})`);
    }
  }

  /** Falls back to reconciling every interval, and says why in the log. */
  private startPeriodic(reason: string): void {
    if (this.watching) {
      this.watching = false;
      this.following = false;
      this.watcher.close();
      this.resync();
    }
    const seconds = this.options.reconcileInterval;
    this.options.log.warn(
      `search index: ${reason}; reconciling with the disk every ${seconds} s instead`,
    );
    this.timers.push(setInterval(() => this.rebuild(), Math.max(1, seconds) * 1000).unref());
  }

  private resync(): void {
    for (const listener of this.resyncListeners) {
      try {
        listener();
      } catch {
        // A broken listener must not stop the index from following the disk.
      }
    }
  }

  private changed(real: string): void {
    if (this.closing.signal.aborted) return;
    for (const listener of this.pathListeners) {
      try {
        listener(real);
      } catch {
        // A broken listener must not stop the index from following the disk.
      }
    }
    this.pending?.add(real);
    const table = this.table;
    if (!table) return;
    this.unapplied++;
    this.applying = this.applying
      .then(() => this.refresh(table, real))
      .catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'search index update failed'),
      )
      .finally(() => this.unapplied--);
  }

  /**
   * Makes the table agree with the disk at one path: removed if gone, added (with its subtree
   * when it is a folder) if new, replaced if it changed between file and folder.
   */
  private async refresh(table: NameTable, real: string): Promise<void> {
    const relative = path.relative(this.options.realRoot, real);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return;
    const names = relative.split(path.sep);
    let parentId = 0;
    let parentReal = this.options.realRoot;
    for (let i = 0; i < names.length - 1; i++) {
      const id = table.lookup(parentId, names[i]!);
      // An ancestor is not indexed yet: refreshing it scans everything below, this path included.
      if (id < 0) return this.refresh(table, path.join(parentReal, names[i]!));
      if (!table.isDir(id)) return;
      parentId = id;
      parentReal = path.join(parentReal, names[i]!);
    }
    const name = names[names.length - 1]!;
    const info = await lstat(real).catch(() => null);
    const existing = table.lookup(parentId, name);
    if (existing >= 0) {
      const same =
        info &&
        table.isDir(existing) === info.isDirectory() &&
        table.isLink(existing) === info.isSymbolicLink() &&
        !(info.isDirectory() && (await this.replaced(real)));
      if (same) return;
      if (table.isDir(existing)) this.watcher.removeTree(real);
      table.remove(existing);
      this.dirty = true;
    }
    if (!info) return;
    const id = table.add(parentId, name, info.isDirectory(), info.isSymbolicLink());
    this.dirty = true;
    if (info.isDirectory()) {
      await scanTree(table, id, real, {
        signal: this.closing.signal,
        watch: this.watching ? (folder) => this.watch(folder) : undefined,
      });
    }
    if (table === this.table && table.garbage > Math.max(50_000, table.live / 4)) this.rebuild();
    if (table === this.table) this.regramIfLong(table);
  }

  /**
   * Whether the folder at a path is another than the one its watch (and so the table's entries
   * below it) knows: replaced in one step, or its watch lost. Its subtree is then read again.
   */
  private async replaced(real: string): Promise<boolean> {
    if (!this.watching) return false;
    if (!this.watcher.has(real)) return true;
    const known = this.watcher.identity(real);
    if (!known) return false; // just watched: its identity is being read
    const now = await identityOf(real);
    return now !== null && !sameFolder(now, known);
  }

  /** Builds a gram index of the table step by step (null when the server closes meanwhile). */
  private async buildGrams(table: NameTable): Promise<GramIndex | null> {
    const steps = buildGramIndex(table);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.closing.signal.aborted) return null;
    }
  }

  /** Rebuilds the gram index when the names added since the last one make too long a tail. */
  private regramIfLong(table: NameTable): void {
    const grams = table.grams;
    if (!grams || grams.covered >= table.size) return;
    const limit = this.options.gramTailBytes ?? GRAM_TAIL_BYTES;
    if (table.bytes - table.start[grams.covered]! > limit) this.regram(table);
  }

  /** Builds a gram index of the table in the background and attaches it if still current. */
  private regram(table: NameTable): void {
    if (this.gramsRun || this.closing.signal.aborted) return;
    const started = performance.now();
    this.gramsRun = this.buildGrams(table)
      .then((grams) => {
        if (!grams || table !== this.table) return;
        table.grams = grams;
        this.dirty = true;
        this.options.log.debug(
          { covered: grams.covered, ms: Math.round(performance.now() - started) },
          'search index: trigram index rebuilt',
        );
      })
      .catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'search index: trigram index build failed'),
      )
      .finally(() => {
        this.gramsRun = null;
      });
  }

  private async save(): Promise<void> {
    if (this.saving) return this.saving;
    const table = this.table;
    if (!this.dirty || !table) return;
    this.dirty = false;
    this.saving = saveIndexFile(
      indexFilePath(this.options.dataDir),
      this.options.realRoot,
      table.parts(),
    )
      .catch((error: unknown) => {
        this.dirty = true;
        this.options.log.warn({ err: error }, 'could not save the search index');
      })
      .finally(() => {
        this.saving = null;
      });
    return this.saving;
  }
}
