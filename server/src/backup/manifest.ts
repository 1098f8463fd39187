import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from '../store/engine.ts';

/** The file whose presence says a backup is complete; written last, by rename. */
export const MANIFEST = 'manifest.json';

/** Bumped when the layout of a backup changes in a way an older `cabinet restore` cannot read. */
export const BACKUP_FORMAT = 1;

export interface ManifestFile {
  /** Relative to the backup folder, `/`-separated: `database.sqlite`, `data/cabinet.json`. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: 'cabinet-backup';
  formatVersion: number;
  /** The Cabinet version that took the backup. */
  version: string;
  /** The latest database migration the backup holds. */
  schemaVersion: string;
  engine: Engine;
  /** ISO 8601, when the backup was taken. */
  created: string;
  /** The database's file among `files`. */
  database: string;
  files: ManifestFile[];
  /** What of the data folder was left out, and why (caches, trash, the served files). */
  skipped: { path: string; reason: string }[];
}

/** Size and SHA-256 of a file, streamed. */
export async function describeFile(folder: string, relative: string): Promise<ManifestFile> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path.join(folder, relative))) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { path: relative, size, sha256: hash.digest('hex') };
}

/** Forces a file or folder's contents (or its entries) to disk. */
export async function syncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes the manifest through a temp file and a rename, after syncing it, then syncs the folder:
 * a backup killed at any moment before has no manifest, and never a half-written one.
 */
export async function writeManifest(folder: string, manifest: Manifest): Promise<void> {
  const temp = path.join(folder, `.${MANIFEST}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(manifest, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, path.join(folder, MANIFEST));
  await syncPath(folder);
}

/** A manifest path that stays inside the backup folder: relative, no `..`, no empty segment. */
function isSafeRelative(relative: string): boolean {
  const parts = relative.split('/');
  return (
    relative.length > 0 &&
    !relative.includes('\\') &&
    !relative.includes('\0') &&
    parts.every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

function fail(detail: string): never {
  throw new Error(`not a complete Cabinet backup: ${detail}`);
}

/** Reads and checks the shape of a backup's manifest; a missing one means an unfinished backup. */
export async function readManifest(folder: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(folder, MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      fail(`${folder} has no ${MANIFEST} (a backup that did not finish has none)`);
    }
    throw error;
  }
  let parsed: Manifest;
  try {
    parsed = JSON.parse(text) as Manifest;
  } catch {
    fail(`${MANIFEST} is not JSON`);
  }
  if (parsed?.format !== 'cabinet-backup') fail(`${MANIFEST} is not a Cabinet manifest`);
  if (parsed.formatVersion !== BACKUP_FORMAT) {
    fail(`format ${String(parsed.formatVersion)}; this Cabinet reads format ${BACKUP_FORMAT}`);
  }
  if (parsed.engine !== 'sqlite' && parsed.engine !== 'postgres') fail('unknown engine');
  if (typeof parsed.schemaVersion !== 'string') fail('no schema version');
  if (!Array.isArray(parsed.files)) fail('no file list');
  for (const file of parsed.files) {
    if (
      typeof file?.path !== 'string' ||
      !isSafeRelative(file.path) ||
      !Number.isSafeInteger(file.size) ||
      typeof file.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(file.sha256)
    ) {
      fail(`a file entry is malformed: ${JSON.stringify(file)}`);
    }
  }
  if (!parsed.files.some((file) => file.path === parsed.database)) fail('no database file');
  return parsed;
}

/** Checks every file of a backup against its size and checksum; throws naming the first wrong one. */
export async function verifyFiles(folder: string, manifest: Manifest): Promise<void> {
  for (const expected of manifest.files) {
    const actual = await describeFile(folder, expected.path).catch((error: Error) => {
      throw new Error(`backup file ${expected.path} cannot be read: ${error.message}`, {
        cause: error,
      });
    });
    if (actual.size !== expected.size || actual.sha256 !== expected.sha256) {
      throw new Error(
        `backup file ${expected.path} does not match its checksum in ${MANIFEST}: ` +
          'the backup is damaged or was changed; restore nothing from it',
      );
    }
  }
}
