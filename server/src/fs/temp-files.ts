import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { errorCode } from './fs-errors.ts';

/** Every temp file Cabinet creates among user files starts with this; listings never show them. */
/** Starts with '.', as ScopeResolver.allowsUndottedChildren relies on. */
export const TEMP_PREFIX = '.cabinet-tmp-';

/** True for names of Cabinet's temp files. */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX);
}

/** A fresh, unguessable temp file name. */
export function newTempName(): string {
  return `${TEMP_PREFIX}${randomBytes(12).toString('hex')}`;
}

/**
 * What a journal entry records. `atomic` temps (whole-body writes, copies) are deleted at the next
 * start; `resumable` temps (resumable uploads) survive restarts and are removed by their owner.
 */
export type TempKind = 'atomic' | 'resumable';

/** One journal file: a single temp (`path`), or the temps of a batch of copied files (`paths`). */
interface JournalEntry {
  path?: string;
  paths?: string[];
  kind: TempKind;
}

/** The temp paths an entry names. */
function pathsOf(entry: JournalEntry): string[] {
  return entry.paths ?? (entry.path === undefined ? [] : [entry.path]);
}

/** Another host's journal counts as abandoned once nothing in it changed for this long. */
export const FOREIGN_JOURNAL_STALE_MS = 24 * 60 * 60 * 1000;

/** Who wrote a journal folder: `<host>~<pid>~<random>`. */
interface JournalOwner {
  host: string;
  pid: number;
}

function ownerOf(folder: string): JournalOwner | undefined {
  const [host, pid, nonce] = folder.split('~');
  const parsed = Number(pid);
  if (!host || !nonce || !Number.isSafeInteger(parsed) || parsed <= 0) return undefined;
  return { host, pid: parsed };
}

/** Whether a process of this host is running (EPERM: it runs, as another user). */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/** The latest modification time of a folder and its entries (0 when none can be read). */
async function newestChange(folderPath: string): Promise<number> {
  const names = await readdir(folderPath).catch(() => []);
  let newest = 0;
  for (const name of [...names.map((n) => path.join(folderPath, n)), folderPath]) {
    const info = await stat(name).catch(() => undefined);
    if (info) newest = Math.max(newest, info.mtimeMs);
  }
  return newest;
}

/** Journal folders named after an instance id start with this (`@<id, URI-encoded>`). */
const INSTANCE_FOLDER_PREFIX = '@';

/** Who this process is among instances, and whether another one still runs (InstanceLease). */
export interface JournalInstance {
  readonly id: string;
  isGone(id: string): Promise<boolean>;
}

export interface TempJournalOptions {
  /**
   * This instance: its folder is named after its id, and another instance's folder is judged by
   * that instance's lease, never by a process id. Without it (tools and tests of the file layer)
   * folders are named and judged as before: by pid on this host, by age elsewhere.
   */
  instance?: JournalInstance;
  /** Tells whether a pid-named folder's writer is gone (default: by its pid on this host, by age elsewhere). */
  ownerGone?: (owner: JournalOwner) => boolean;
  now?: () => number;
}

/**
 * Records in-flight temp files in the data folder, one small file per temp, so that a crash never
 * leaves orphans among user files: walking a huge tree at start to find them would be far too slow.
 * Cost per write: one tiny create and one unlink in the data folder (a copy records its files in
 * batches, `recordMany`).
 *
 * Each instance writes into its own folder (`temp-journal/@<instance id>/`), because instances can
 * share one data folder: a starting instance removes only the leftovers of instances that are
 * provably gone — whose lease expired (JournalInstance) — never the temps of a write running next
 * door, even one of a process with the same pid and host name in another PID namespace.
 */
export class TempJournal {
  private constructor(
    private readonly dir: string,
    /** This process's folder inside `dir`. */
    private readonly own: string,
    private readonly options: TempJournalOptions,
  ) {}

  /** Opens (creating) the journal folder and this process's folder in it. */
  static async open(dataDir: string, options: TempJournalOptions = {}): Promise<TempJournal> {
    const dir = path.join(dataDir, 'temp-journal');
    const own = options.instance
      ? `${INSTANCE_FOLDER_PREFIX}${encodeURIComponent(options.instance.id)}`
      : `${hostname()}~${process.pid}~${randomBytes(6).toString('hex')}`;
    await mkdir(path.join(dir, own), { recursive: true, mode: 0o700 });
    return new TempJournal(dir, own, options);
  }

  /**
   * Records a temp file before it is created; returns the id to forget it by. With the data folder
   * full the write goes ahead unrecorded (id `""`): the user's folder may well have room, and a
   * write refused for want of a few bytes of journal would be worse than the rare orphan a crash at
   * that moment leaves (a temp name, hidden from listings and refused as a path).
   */
  async record(realTempPath: string, kind: TempKind): Promise<string> {
    return this.write({ path: realTempPath, kind });
  }

  /**
   * Records the temps of several files at once, before any of them is created (a copy's next
   * files, fs/copy-run.ts): one small file for the batch instead of one per temp. A crash removes
   * those of them that exist; the rest were never made. `atomic` only.
   */
  async recordMany(realTempPaths: string[]): Promise<string> {
    return this.write({ paths: realTempPaths, kind: 'atomic' });
  }

  private async write(entry: JournalEntry): Promise<string> {
    const id = `${this.own}/${randomBytes(12).toString('hex')}`;
    const file = path.join(this.dir, id);
    try {
      try {
        await writeFile(file, JSON.stringify(entry), { mode: 0o600 });
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') throw error;
        // A neighbour on another host took this idle folder for abandoned: make it again.
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        await writeFile(file, JSON.stringify(entry), { mode: 0o600 });
      }
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'ENOSPC' && code !== 'EDQUOT') throw error;
      await unlink(file).catch(() => undefined);
      return '';
    }
    return id;
  }

  /** Forgets a temp file that was renamed into place or removed. */
  async forget(id: string): Promise<void> {
    if (id.split('/').some((part) => part === '..' || part === '')) return;
    await unlink(path.join(this.dir, id)).catch(() => undefined);
  }

  /** Entries of one kind, of every process's folder, with their ids. */
  async list(kind: TempKind): Promise<Array<{ id: string; path: string }>> {
    const found: Array<{ id: string; path: string }> = [];
    for (const id of await this.ids()) {
      const entry = await this.read(id);
      if (entry?.kind === kind) for (const one of pathsOf(entry)) found.push({ id, path: one });
    }
    return found;
  }

  /**
   * Removes the leftovers of writes interrupted by a crash: the `atomic` temps recorded by writers
   * that are gone (and by versions before per-process folders). Only files whose name carries the
   * temp prefix are deleted, so a corrupted journal can never remove a user's file. Returns the
   * count.
   */
  async cleanUp(): Promise<number> {
    let removed = 0;
    for (const { folder, ids } of await this.foldersOfGoneWriters()) {
      for (const id of ids) {
        const entry = await this.read(id);
        if (entry && entry.kind !== 'atomic') continue;
        let kept = false;
        for (const temp of entry ? pathsOf(entry) : []) {
          if (!isTempName(path.basename(temp))) continue;
          try {
            await unlink(temp);
            removed++;
          } catch (error) {
            if (errorCode(error) !== 'ENOENT') kept = true;
          }
        }
        if (!kept) await this.forget(id);
      }
      // Emptied folders go; one still holding resumable entries stays for their owner.
      if (folder) await rmdir(path.join(this.dir, folder)).catch(() => undefined);
    }
    return removed;
  }

  /** Entry ids of every folder, and the flat entries of versions before per-process folders. */
  private async ids(): Promise<string[]> {
    const ids: string[] = [];
    for (const item of await readdir(this.dir, { withFileTypes: true })) {
      if (item.isFile()) ids.push(item.name);
      else if (item.isDirectory()) {
        const names = await readdir(path.join(this.dir, item.name)).catch(() => []);
        for (const name of names) ids.push(`${item.name}/${name}`);
      }
    }
    return ids;
  }

  private async foldersOfGoneWriters(): Promise<Array<{ folder: string | null; ids: string[] }>> {
    const found: Array<{ folder: string | null; ids: string[] }> = [];
    const legacy: string[] = [];
    for (const item of await readdir(this.dir, { withFileTypes: true })) {
      if (item.isFile()) {
        legacy.push(item.name);
        continue;
      }
      if (!item.isDirectory() || item.name === this.own) continue;
      if (!(await this.folderGone(item.name))) continue;
      const names = await readdir(path.join(this.dir, item.name)).catch(() => []);
      found.push({ folder: item.name, ids: names.map((name) => `${item.name}/${name}`) });
    }
    if (legacy.length > 0) found.push({ folder: null, ids: legacy });
    return found;
  }

  /**
   * An instance's folder is judged by its lease; a pid-named one (of a version before instance
   * ids, or of a tool without an instance) as before; a folder named neither way is a leftover.
   */
  private async folderGone(name: string): Promise<boolean> {
    const folderPath = path.join(this.dir, name);
    if (name.startsWith(INSTANCE_FOLDER_PREFIX)) {
      const id = decodeURIComponent(name.slice(INSTANCE_FOLDER_PREFIX.length));
      if (this.options.instance) return this.options.instance.isGone(id);
      return this.idleForLong(folderPath);
    }
    const owner = ownerOf(name);
    return owner === undefined || (await this.gone(owner, folderPath));
  }

  private async idleForLong(folderPath: string): Promise<boolean> {
    const now = this.options.now?.() ?? Date.now();
    return now - (await newestChange(folderPath)) > FOREIGN_JOURNAL_STALE_MS;
  }

  /**
   * A process of this host is judged by its pid alone; only another host's folder is judged by
   * its newest change, which needs a stat of each entry.
   */
  private async gone(owner: JournalOwner, folderPath: string): Promise<boolean> {
    if (this.options.ownerGone) return this.options.ownerGone(owner);
    if (owner.host === hostname()) return !processRuns(owner.pid);
    return this.idleForLong(folderPath);
  }

  private async read(id: string): Promise<JournalEntry | undefined> {
    try {
      const parsed = JSON.parse(await readFile(path.join(this.dir, id), 'utf8')) as JournalEntry;
      const paths: unknown = parsed.paths ?? [parsed.path];
      const valid =
        Array.isArray(paths) &&
        paths.every((one) => typeof one === 'string' && path.isAbsolute(one));
      return valid ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
}
