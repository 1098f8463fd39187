import type { Stats } from 'node:fs';
import { cp, lstat, mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { errorCode, mapFsErrors, toAppError } from './fs-errors.ts';

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
}
