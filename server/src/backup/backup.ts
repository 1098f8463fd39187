import { chmod, copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { VERSION } from '../config/version.ts';
import { isPostgresUrl } from '../store/engine.ts';
import { findPgTool, pgDump, pgSchemaVersion } from '../store/pg-tools.ts';
import { backupSqlite } from '../store/sqlite-backup.ts';
import { planDataFolder, relativeInside } from './data-folder.ts';
import { BACKUP_FORMAT, describeFile, syncPath, writeManifest, type Manifest } from './manifest.ts';

export interface BackupOptions {
  /** The server's data folder, database and served root, as `serve` resolves them. */
  data: string;
  database: string;
  root: string;
  /** The backup folder: created, or empty. */
  target: string;
  /** Folder of pg_dump, when it is not found on its own. */
  pgBin?: string;
  /** Progress and waits, for the operator. */
  notice(text: string): void;
}

/** Files a data folder's copies go under in the backup. */
export const DATA_PREFIX = 'data';

async function emptyOrMissing(folder: string): Promise<boolean> {
  return readdir(folder).then(
    (names) => names.length === 0,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return true;
      throw error;
    },
  );
}

/**
 * Takes a backup of a running installation (docs/cli.md): the settings and key files of its
 * data folder, then a consistent copy of its database, then, last and atomically, the manifest
 * with every file's size and checksum. Until the manifest is there the folder is not a backup.
 */
export async function takeBackup(options: BackupOptions): Promise<Manifest> {
  const { data, database, target } = options;
  if (relativeInside(data, target) !== undefined || path.resolve(data) === path.resolve(target)) {
    // The next backup would copy this one into itself, and a restore would bring it back.
    throw new Error(`backup folder ${target} is inside the data folder: put backups elsewhere`);
  }
  if (!(await emptyOrMissing(target))) {
    // An earlier manifest there would vouch for files this backup had not finished writing.
    throw new Error(`backup folder ${target} is not empty: back up into a new or empty folder`);
  }
  if (
    !(await stat(data).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new Error(`no data folder at ${data}`);
  }
  const engine = isPostgresUrl(database) ? 'postgres' : 'sqlite';
  // A missing tool is found out before anything is written.
  const pgDumpFile = engine === 'postgres' ? await findPgTool('pg_dump', options.pgBin) : '';
  if (
    engine === 'sqlite' &&
    !(await stat(database).then(
      (s) => s.isFile(),
      () => false,
    ))
  ) {
    throw new Error(`no SQLite database at ${database}`);
  }
  await mkdir(target, { recursive: true, mode: 0o700 });

  const plan = await planDataFolder(data, {
    root: options.root,
    sqliteFile: engine === 'sqlite' ? database : undefined,
  });
  const copied: string[] = [];
  for (const relative of plan.files) {
    const to = path.join(target, DATA_PREFIX, ...relative.split('/'));
    await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
    await copyFile(path.join(data, ...relative.split('/')), to);
    copied.push(`${DATA_PREFIX}/${relative}`);
  }

  let databaseFile: string;
  let schemaVersion: string;
  if (engine === 'sqlite') {
    databaseFile = 'database.sqlite';
    ({ schemaVersion } = await backupSqlite(database, path.join(target, databaseFile), () =>
      options.notice('the database is locked by another connection: waiting for it'),
    ));
  } else {
    databaseFile = 'database.pgdump';
    const version = await pgSchemaVersion(database);
    if (!version) throw new Error('the database holds no Cabinet schema: nothing to back up');
    schemaVersion = version;
    await pgDump(pgDumpFile, database, path.join(target, databaseFile));
  }

  const files = [];
  for (const relative of [databaseFile, ...copied]) {
    // Password hashes, the signing key, secrets of the config: the owner's alone.
    await chmod(path.join(target, relative), 0o600);
    files.push(await describeFile(target, relative));
    await syncPath(path.join(target, relative));
  }
  for (const folder of new Set(copied.map((file) => path.dirname(path.join(target, file))))) {
    await syncPath(folder);
  }
  const manifest: Manifest = {
    format: 'cabinet-backup',
    formatVersion: BACKUP_FORMAT,
    version: VERSION,
    schemaVersion,
    engine,
    created: new Date().toISOString(),
    database: databaseFile,
    files,
    skipped: plan.skipped,
  };
  await writeManifest(target, manifest);
  return manifest;
}
