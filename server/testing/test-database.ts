// Which database a test runs on: an SQLite file in the test's data folder, or, when
// CABINET_TEST_POSTGRES names a PostgreSQL server (the `postgres` database of a throw-away cluster,
// see scripts/postgres.mjs), a database of its own on that server. `npm test` runs the server suite
// both ways (docs/database.md).
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Db, type Engine } from '../src/store/db.ts';

/** The variable holding the PostgreSQL server URL the tests run against. */
export const TEST_POSTGRES_ENV = 'CABINET_TEST_POSTGRES';

/**
 * Connections each test instance keeps at most. Vitest runs one test file fewer than the machine
 * has cores at once, and a file may run several instances; PostgreSQL's max_connections (300 in
 * scripts/postgres.mjs) stays far off even on a many-core machine.
 */
const TEST_POOL_SIZE = 4;

/** The PostgreSQL server the tests run against, or undefined when they run on SQLite. */
export function testPostgresUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return env[TEST_POSTGRES_ENV] || undefined;
}

/** The engine the tests run against. */
export function testEngine(env: NodeJS.ProcessEnv = process.env): Engine {
  return testPostgresUrl(env) ? 'postgres' : 'sqlite';
}

/** A database a test server (or a CLI run) uses, held until released or dropped. */
export interface TestDatabaseHandle {
  /** The value for the `database` option: an SQLite file path or a postgres:// URL. */
  database: string;
  engine: Engine;
  /** Lets go of the database and keeps it (a server that will be restarted on the same data). */
  release(): Promise<void>;
  /**
   * Lets go of the database and removes it, unless another instance still holds it (instances
   * sharing a data folder share its database; the last one to go drops it). SQLite files go with
   * their data folder, so on SQLite this only releases.
   */
  drop(): Promise<void>;
}

/** The PostgreSQL database name a data folder maps to: the same folder, the same database. */
export function testDatabaseName(dataDir: string): string {
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex');
  return `cabinet_t_${digest.slice(0, 24)}`;
}

/** The server URL with another database and the test pool size. */
function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  url.searchParams.set('pool_size', String(TEST_POOL_SIZE));
  return url.toString();
}

/**
 * The database of the data folder `dataDir`: `<dataDir>/cabinet.db`, or under CABINET_TEST_POSTGRES
 * the PostgreSQL database named after the folder, created when missing. So a server restarted on
 * the same data folder (tests that pass `dataDir` back in) finds its state again.
 *
 * On PostgreSQL the handle keeps one connection to the server's `postgres` database holding a
 * shared advisory lock on the name for as long as it is held: `drop()` removes the database only
 * when it can take that lock exclusively, that is when no other instance holds the database, even
 * one whose pool has no open connection at the moment.
 */
export async function testDatabaseFor(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TestDatabaseHandle> {
  const serverUrl = testPostgresUrl(env);
  if (!serverUrl) {
    const release = () => Promise.resolve();
    return {
      database: path.join(dataDir, 'cabinet.db'),
      engine: 'sqlite',
      release,
      drop: release,
    };
  }
  const name = testDatabaseName(dataDir);
  const admin = new pg.Client({ connectionString: serverUrl });
  // Errors of this idle connection surface on the next query; unhandled, they would end the run.
  admin.on('error', () => {});
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock_shared(hashtext($1))', [name]);
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount === 0) {
      // Another instance on the same data folder created it first: 42P04, or 23505 when both
      // creations ran at the same moment.
      await admin.query(`create database "${name}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } catch (error) {
    await admin.end();
    throw error;
  }
  let held = true;
  const letGo = async (remove: boolean) => {
    if (!held) return;
    held = false;
    try {
      await admin.query('select pg_advisory_unlock_shared(hashtext($1))', [name]);
      if (!remove) return;
      const { rows } = await admin.query<{ alone: boolean }>(
        'select pg_try_advisory_lock(hashtext($1)) as alone',
        [name],
      );
      // FORCE ends what is left of this holder's own pool: its connections close asynchronously.
      if (rows[0]?.alone) await admin.query(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end();
    }
  };
  return {
    database: databaseUrl(serverUrl, name),
    engine: 'postgres',
    release: () => letGo(false),
    drop: () => letGo(true),
  };
}

/** A migrated store for unit tests that open the database directly, on the engine under test. */
export interface TestDatabase {
  db: Db;
  /** The `database` option value it was opened with. */
  database: string;
  engine: Engine;
  /** Closes the connection and opens the same database again (as a restart would). */
  reopen(): Promise<Db>;
  /** Closes the connection and removes the database (and its temp folder). */
  close(): Promise<void>;
}

/** Opens a fresh, migrated database: SQLite in a temp folder, or PostgreSQL under the variable. */
export async function openTestDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<TestDatabase> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-test-db-'));
  const handle = await testDatabaseFor(dir, env);
  const removeAll = async () => {
    await handle.drop();
    await rm(dir, { recursive: true, force: true });
  };
  let db: Db;
  try {
    db = await openDatabase(handle.database);
  } catch (error) {
    await removeAll();
    throw error;
  }
  const test: TestDatabase = {
    db,
    database: handle.database,
    engine: handle.engine,
    async reopen() {
      await test.db.destroy();
      test.db = await openDatabase(handle.database);
      return test.db;
    },
    async close() {
      await test.db.destroy();
      await removeAll();
    },
  };
  return test;
}
