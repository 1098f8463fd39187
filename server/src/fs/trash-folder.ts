import type { Stats } from 'node:fs';
import {
  cp,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { errors } from '../errors.ts';
import { errorCode, mapFsErrors, toAppError } from './fs-errors.ts';
import { FOREIGN_JOURNAL_STALE_MS, processRuns } from './temp-files.ts';

/** What a tree holds, to check a copy against its source before the source is deleted. */
export interface TreeSummary {
  files: number;
  folders: number;
  links: number;
  /** Bytes of the regular files. */
  bytes: number;
}

/** Walks a real tree without following links (a link counts as one entry, never its target). */
export async function summarise(real: string): Promise<TreeSummary> {
  const summary: TreeSummary = { files: 0, folders: 0, links: 0, bytes: 0 };
  const visit = async (entry: string): Promise<void> => {
    const info = await lstat(entry);
    if (info.isSymbolicLink()) summary.links += 1;
    else if (info.isDirectory()) {
      summary.folders += 1;
      for (const name of await readdir(entry)) await visit(path.join(entry, name));
    } else {
      summary.files += 1;
      summary.bytes += info.size;
    }
  };
  await visit(real);
  return summary;
}

/**
 * Moves a real entry to another real place: rename(2), or across file systems a copy that is
 * checked against the source (same files, folders, links and bytes) before the source goes, so an
 * interrupted or short copy never costs the original. The destination must not exist.
 */
export async function relocate(from: string, to: string, dirMode: number): Promise<void> {
  await mapFsErrors(() => mkdir(path.dirname(to), { recursive: true, mode: dirMode }));
  try {
    await rename(from, to);
    return;
  } catch (error) {
    if (errorCode(error) !== 'EXDEV') throw toAppError(error);
  }
  try {
    await cp(from, to, {
      recursive: true,
      verbatimSymlinks: true,
      errorOnExist: true,
      force: false,
      preserveTimestamps: true,
    });
    const [source, copy] = await Promise.all([summarise(from), summarise(to)]);
    if (JSON.stringify(source) !== JSON.stringify(copy)) {
      throw errors.internal('the copy does not match its source');
    }
  } catch (error) {
    await rm(to, { recursive: true, force: true });
    throw toAppError(error);
  }
  await mapFsErrors(() => rm(from, { recursive: true, force: false }));
}

/** A delete under way: the row it will write, and which process writes it. */
export interface PendingDelete<T> {
  userId: number;
  id: string;
  record: T;
  /** Whether the process that wrote the marker may still be at work (then it is left alone). */
  writerAlive: boolean;
}

const PENDING_SUFFIX = '.pending';

/**
 * The trash's storage, `<data>/trash/<userId>/<itemId>/<name>`: outside the served root, so no
 * listing, search or share can reach a trashed item, and on the data folder's file system (a move
 * from the root is a rename when both share one). Only the trash service uses it.
 */
export class TrashFolder {
  readonly base: string;

  constructor(
    dataDir: string,
    private readonly dirMode: number,
  ) {
    this.base = path.join(path.resolve(dataDir), 'trash');
  }

  /** The folder of one item (holds exactly the item, under its own name). */
  itemFolder(userId: number, id: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(id)) throw errors.badRequest('invalid trash id');
    return path.join(this.base, String(userId), id);
  }

  /** Where the item itself lies. */
  itemPath(userId: number, id: string, name: string): string {
    if (name === '' || name.includes('/') || name === '.' || name === '..') {
      throw errors.badRequest('invalid name');
    }
    return path.join(this.itemFolder(userId, id), name);
  }

  /** Creates an item's folder (its parents too). */
  async prepare(userId: number, id: string): Promise<void> {
    await mapFsErrors(() =>
      mkdir(this.itemFolder(userId, id), { recursive: true, mode: this.dirMode }),
    );
  }

  /** Bytes of the item's regular files. */
  async sizeOf(userId: number, id: string, name: string): Promise<number> {
    return (await summarise(this.itemPath(userId, id, name))).bytes;
  }

  /** Whether the item's content is still there. */
  async exists(userId: number, id: string, name: string): Promise<boolean> {
    try {
      await lstat(this.itemPath(userId, id, name));
      return true;
    } catch {
      return false;
    }
  }

  /** Deletes an item's folder for good; a missing one is fine. */
  async discard(userId: number, id: string): Promise<void> {
    await mapFsErrors(() => rm(this.itemFolder(userId, id), { recursive: true, force: true }));
  }

  /** Opens a trashed regular file for reading (404 for folders, links and missing items). */
  async openFile(
    userId: number,
    id: string,
    name: string,
  ): Promise<{ handle: FileHandle; stat: Stats }> {
    const real = this.itemPath(userId, id, name);
    const info = await mapFsErrors(() => lstat(real));
    if (!info.isFile()) throw errors.notFound();
    const handle = await mapFsErrors(() => open(real, 'r'));
    return { handle, stat: await handle.stat() };
  }

  /**
   * Records a delete about to move an item in, beside its folder (`<userId>/<id>.pending`): a
   * crash between the move and the row would otherwise leave the item here with no row, invisible
   * to its owner and never purged. `recoverInterrupted` of the trash service reads these at start.
   */
  async markPending(userId: number, id: string, record: unknown): Promise<void> {
    const marker = { host: hostname(), pid: process.pid, record };
    const file = this.pendingPath(userId, id);
    await mapFsErrors(() => mkdir(path.dirname(file), { recursive: true, mode: this.dirMode }));
    await mapFsErrors(() => writeFile(file, JSON.stringify(marker), { mode: 0o600 }));
  }

  /** Removes an item's folder only when empty (a delete undone before its move). */
  async discardEmpty(userId: number, id: string): Promise<void> {
    await rmdir(this.itemFolder(userId, id)).catch(() => undefined);
  }

  /** Forgets a pending delete once its row is written (or its move failed). */
  async clearPending(userId: number, id: string): Promise<void> {
    await unlink(this.pendingPath(userId, id)).catch(() => undefined);
  }

  /** Every pending delete, with whether its writer may still be running. */
  async pending<T>(now = Date.now()): Promise<Array<PendingDelete<T>>> {
    const found: Array<PendingDelete<T>> = [];
    const owners = await readdir(this.base).catch(() => [] as string[]);
    for (const owner of owners.filter((name) => /^\d+$/.test(name))) {
      const names = await readdir(path.join(this.base, owner)).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith(PENDING_SUFFIX))) {
        const id = name.slice(0, -PENDING_SUFFIX.length);
        const file = path.join(this.base, owner, name);
        try {
          const marker = JSON.parse(await readFile(file, 'utf8')) as {
            host: string;
            pid: number;
            record: T;
          };
          // This process (several in-process servers share it) and live processes of this host
          // may be mid-delete; another host's marker counts as abandoned once long untouched.
          const writerAlive =
            marker.host === hostname()
              ? marker.pid === process.pid || processRuns(marker.pid)
              : now - (await stat(file)).mtimeMs < FOREIGN_JOURNAL_STALE_MS;
          found.push({ userId: Number(owner), id, record: marker.record, writerAlive });
        } catch {
          // Unreadable or half-written (a crash while writing it): the move had not begun.
          if (/^[A-Za-z0-9_-]+$/.test(id)) {
            found.push({ userId: Number(owner), id, record: undefined as T, writerAlive: false });
          }
        }
      }
    }
    return found;
  }

  private pendingPath(userId: number, id: string): string {
    return `${this.itemFolder(userId, id)}${PENDING_SUFFIX}`;
  }
}
