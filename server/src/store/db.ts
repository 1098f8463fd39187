import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** Opens the database named by `database` (an SQLite file path) and runs pending migrations. */
export async function openDatabase(database: string): Promise<Db> {
  if (/^postgres(ql)?:\/\//.test(database)) {
    throw new Error('PostgreSQL support is not in this build yet; use an SQLite file path');
  }
  mkdirSync(path.dirname(database), { recursive: true });
  const sqlite = new SQLite(database);
  // WAL lets readers proceed during writes; busy_timeout covers the CLI and server sharing a file.
  sqlite.pragma('journal_mode = WAL');
  // In WAL mode NORMAL never corrupts the database; a power cut may lose the last commits (a
  // restart or crash of the server loses nothing), and no commit waits for an fsync. Resumable
  // uploads update their session on every request, which FULL made wait for the disk each time.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
  });
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error } = await migrator.migrateToLatest();
  if (error) {
    await db.destroy();
    throw new Error(`database migration failed: ${(error as Error).message}`, { cause: error });
  }
  return db;
}
