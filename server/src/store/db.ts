import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  DEFAULT_MIGRATION_TABLE,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import type pg from 'pg';
import { isPostgresUrl } from './engine.ts';
import { migrationNames, migrationProvider } from './migrations.ts';
import type { Database } from './schema.ts';

export { engineOf, isPostgresUrl, type Engine } from './engine.ts';

export type Db = Kysely<Database>;

/** A PostgreSQL pool's connections now (pg.Pool's counts). */
export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

const POOL = Symbol('cabinet.pool');

/**
 * The connection pool of a PostgreSQL database opened here; null for SQLite, whose one
 * connection has no pool. Read by the metrics (docs/metrics.md), kept on the Kysely instance.
 */
export function poolStats(db: Db): PoolStats | null {
  const pool = (db as unknown as { [POOL]?: pg.Pool })[POOL];
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

/** Connections each instance keeps to PostgreSQL at most, unless the URL says `pool_size=N`. */
export const DEFAULT_POOL_SIZE = 10;

export interface OpenOptions {
  /** Refuse a missing SQLite file rather than create it (a PostgreSQL database is never created). */
  mustExist?: boolean;
}

/**
 * Opens the database named by `database` and runs pending migrations: a `postgres://` or
 * `postgresql://` URL opens PostgreSQL through a connection pool, anything else is an SQLite file,
 * created when missing unless `mustExist`.
 */
export async function openDatabase(database: string, options: OpenOptions = {}): Promise<Db> {
  const db = await connectDatabase(database, options);
  try {
    await migrateDatabase(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/** Opens the database without touching its schema (see openDatabase). */
export async function connectDatabase(database: string, options: OpenOptions = {}): Promise<Db> {
  if (options.mustExist && !isPostgresUrl(database) && !existsSync(database)) {
    throw new Error(`no SQLite database at ${database}`);
  }
  return isPostgresUrl(database) ? await openPostgres(database) : openSqlite(database);
}

/** Runs the migrations the database has not had yet, refusing a database a newer version migrated. */
export async function migrateDatabase(db: Db): Promise<void> {
  await refuseNewerDatabase(db);
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
  if (error) {
    // A newer instance may have migrated between the check and the migration's lock.
    await refuseNewerDatabase(db);
    throw new Error(`database migration failed: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Throws when the database holds a migration this code does not know: a newer version migrated
 * it, and this one would misread (or write wrongly) what the newer schema holds. Migrations only
 * ever go forward, so there is no running this version on it.
 */
export async function refuseNewerDatabase(db: Db): Promise<void> {
  const unknown = await unknownMigrations(db);
  if (unknown.length > 0) {
    throw new Error(
      `the database was upgraded by a newer version of Cabinet: it holds migration ` +
        `"${unknown[0]}", which this version does not know. Run the newer version ` +
        `(or restore a backup taken before the upgrade); an older version never runs on it.`,
    );
  }
}

/** refuseNewerDatabase on the database `database` names, opened for the check only. */
export async function checkDatabaseVersion(database: string): Promise<void> {
  const db = await connectDatabase(database);
  try {
    await refuseNewerDatabase(db);
  } finally {
    await db.destroy();
  }
}

/** Migrations recorded in the database that this code does not have, by name. */
export async function unknownMigrations(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === DEFAULT_MIGRATION_TABLE)) return [];
  const known = new Set(migrationNames());
  const rows = await sql<{ name: string }>`select name from ${sql.table(
    DEFAULT_MIGRATION_TABLE,
  )} order by name`.execute(db);
  return rows.rows.map((row) => row.name).filter((name) => !known.has(name));
}

function openSqlite(file: string): Db {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // It holds the signing key and password hashes: created readable by the owner only. SQLite gives
  // its -wal and -shm files the database file's permissions.
  if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  const sqlite = new SQLite(file);
  // WAL lets readers proceed during writes; busy_timeout covers the CLI and server sharing a file.
  sqlite.pragma('journal_mode = WAL');
  // In WAL mode NORMAL never corrupts the database; a power cut may lose the last commits (a
  // restart or crash of the server loses nothing), and no commit waits for an fsync. Resumable
  // uploads update their session on every request, which FULL made wait for the disk each time.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** The server and database a URL names, without its password or parameters, for messages. */
export function describeDatabase(database: string): string {
  if (!isPostgresUrl(database)) return database;
  // Not WHATWG URL parsing: pg accepts forms it refuses, such as `postgres://user@/db?host=/run`.
  return database.replace(/^(\w+:\/\/[^:@/]*):[^@/]*@/, '$1@').replace(/[?#].*$/, '');
}

/** PostgreSQL's int8 (bigint, count(*)) as a JavaScript number while it is exact, else its digits. */
function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

/** A connection error's text; a refused connection to a name with several addresses has none. */
function errorText(error: unknown): string {
  const e = error as { message?: string; code?: string; errors?: unknown[] };
  if (e?.message) return e.message;
  if (e?.errors?.length) return errorText(e.errors[0]);
  return e?.code ?? String(error);
}

async function openPostgres(url: string): Promise<Db> {
  // pg ignores parameters it does not know, so `pool_size` can stay in the URL it is given.
  const poolSize = /[?&]pool_size=([^&#]*)/.exec(url)?.[1];
  const max = poolSize === undefined ? DEFAULT_POOL_SIZE : Number(poolSize);
  if (!/^\d+$/.test(poolSize ?? '1') || max < 1) {
    throw new Error(`pool_size must be a whole number of connections, not "${poolSize}"`);
  }
  // Imported here: a server on SQLite never loads the driver (~4.5 MiB of heap).
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Per pool, never pg.types: int8 columns (times, sizes, counts) read as numbers as on SQLite.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === pg.types.builtins.INT8 && format !== 'binary'
          ? parseInt8
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A pooled connection that breaks while idle (a server restart, an administrator ending it) is
  // dropped by the pool and replaced on the next query; without a listener it would end the process.
  pool.on('error', () => {});
  const db = Object.assign(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), {
    [POOL]: pool,
  });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new Error(`cannot connect to ${describeDatabase(url)}: ${errorText(error)}`, {
      cause: error,
    });
  }
  return db;
}
