import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The files an import touches besides the databases: the filebrowser database and config file it
 * reads (never writes), the cabinet.json it may write (never over another), and a scratch folder
 * for a dry run into a database that does not exist yet.
 */

/** A filebrowser database holds users, shares and settings; one this large is something else. */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

function describeError(file: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EBUSY' || code === 'EAGAIN' || code === 'ETXTBSY'
          ? 'the file is locked by another program (stop filebrowser, or import a copy)'
          : code === 'EISDIR'
            ? 'it is a folder, not a database file'
            : ((error as Error).message ?? String(error));
  return new Error(`cannot read ${file}: ${reason}`, { cause: error });
}

/**
 * Reads a filebrowser database in one piece, opened read-only, so the reader works on a snapshot
 * even while filebrowser runs (its meta pages then tell a complete state from a torn one).
 */
export async function readSourceDatabase(file: string): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw describeError(file, error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw describeError(file, { code: 'EISDIR' });
    if (stat.size > MAX_SOURCE_BYTES) {
      throw new Error(
        `cannot read ${file}: ${stat.size} bytes is more than a filebrowser database holds ` +
          `(at most ${MAX_SOURCE_BYTES} read)`,
      );
    }
    return await handle.readFile();
  } catch (error) {
    if ((error as Error).message?.startsWith('cannot read')) throw error;
    throw describeError(file, error);
  } finally {
    await handle.close();
  }
}

/** Reads filebrowser's config file as text. */
export async function readTextFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw describeError(file, error);
  }
}

function exists(file: string): Error {
  return new Error(`${file} exists already; Cabinet never writes over a config: name another file`);
}

/** Fails when `file` exists, so that an import is refused before it changes anything. */
export function assertNewFile(file: string): void {
  if (existsSync(file)) throw exists(file);
}

/** Writes a new file; one that exists is never replaced (a Cabinet config is not overwritten). */
export async function writeNewFile(file: string, content: string): Promise<void> {
  try {
    await writeFile(file, content, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists(file);
    throw new Error(`cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

/** Whether an SQLite database file is there (a postgres:// URL always counts as there). */
export function databaseExists(database: string): boolean {
  return /^postgres(ql)?:\/\//.test(database) || existsSync(database);
}

/** Whether a folder (the root) is there. */
export function folderExists(folder: string): boolean {
  return existsSync(folder);
}

/** A scratch folder for a dry run's throw-away database; call `remove` when done. */
export async function scratchFolder(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-import-dry-run-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
