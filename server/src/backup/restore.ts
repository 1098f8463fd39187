import { chmod, copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { VERSION } from '../config/version.ts';
import { isPostgresUrl } from '../store/engine.ts';
import { migrationProvider } from '../store/migrations.ts';
import { findPgTool, pgRestore, pgTables } from '../store/pg-tools.ts';
import { DATA_PREFIX } from './backup.ts';
import { relativeInside } from './data-folder.ts';
import { readManifest, syncPath, verifyFiles, type Manifest } from './manifest.ts';

export interface RestoreOptions {
  /** The backup folder. */
  source: string;
  /** Where to restore: an empty data folder, and the database the server will use. */
  data: string;
  database: string;
  root: string;
  pgBin?: string;
}

/**
 * What a data folder may hold and still count as empty: nothing, or only the served root when it
 * lies inside (the default ./data/files), which the operator may have restored first.
 */
async function assertEmptyDataFolder(data: string, root: string): Promise<void> {
  const names = await readdir(data).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const rootInside = relativeInside(data, root);
  const others = names.filter((name) => rootInside?.split('/')[0] !== name);
  if (others.length > 0) {
    throw new Error(
      `data folder ${data} is not empty (${others.slice(0, 3).join(', ')}` +
        `${others.length > 3 ? ', …' : ''}): restore only into an empty data folder; ` +
        'move the old one away or name another with --data',
    );
  }
}

/** Copies a file into place through a temp name beside it and a rename, owner-only. */
async function placeFile(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(to), `.${path.basename(to)}.restore-${process.pid}`);
  try {
    await copyFile(from, temp);
    // It holds password hashes and the signing key: the owner's alone, as the server makes it.
    await chmod(temp, 0o600);
    await syncPath(temp);
    await rename(temp, to);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

async function restoreDatabase(options: RestoreOptions, manifest: Manifest): Promise<void> {
  const dump = path.join(options.source, manifest.database);
  const toPostgres = isPostgresUrl(options.database);
  if (manifest.engine === 'sqlite') {
    if (toPostgres) {
      throw new Error(
        'the backup holds an SQLite database: restore it to SQLite (leave --database out), ' +
          'then move it with `cabinet db copy`',
      );
    }
    if (
      await stat(options.database).then(
        () => true,
        () => false,
      )
    ) {
      throw new Error(`${options.database} already exists: restore only into a new database`);
    }
    await placeFile(dump, options.database);
    return;
  }
  if (!toPostgres) {
    throw new Error(
      'the backup holds a PostgreSQL dump: name an empty PostgreSQL database with --database',
    );
  }
  const pgRestoreFile = await findPgTool('pg_restore', options.pgBin);
  const tables = await pgTables(options.database);
  if (tables.length > 0) {
    throw new Error(
      `the database already holds tables (${tables.slice(0, 3).join(', ')}…): restore only ` +
        'into an empty database (createdb a new one)',
    );
  }
  await pgRestore(pgRestoreFile, options.database, dump);
}

/**
 * Restores a backup (docs/cli.md): checks the manifest and every file's checksum before anything
 * is written, refuses a data folder that is not empty and a database that is not new, restores
 * the database, then the data folder's files. The served files are the operator's to restore.
 */
export async function restoreBackup(options: RestoreOptions): Promise<Manifest> {
  const manifest = await readManifest(options.source);
  await verifyFiles(options.source, manifest);
  const known = Object.keys(await migrationProvider.getMigrations());
  if (!known.includes(manifest.schemaVersion)) {
    throw new Error(
      `the backup was taken by Cabinet ${manifest.version} with database schema ` +
        `${manifest.schemaVersion}, which Cabinet ${VERSION} does not know: restore it with ` +
        `Cabinet ${manifest.version} or later`,
    );
  }
  await assertEmptyDataFolder(options.data, options.root);
  await mkdir(options.data, { recursive: true, mode: 0o700 });
  await restoreDatabase(options, manifest);
  const prefix = `${DATA_PREFIX}/`;
  for (const file of manifest.files.filter((f) => f.path.startsWith(prefix))) {
    const relative = file.path.slice(prefix.length).split('/');
    await placeFile(path.join(options.source, file.path), path.join(options.data, ...relative));
  }
  return manifest;
}
