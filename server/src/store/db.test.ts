import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testEngine, type TestDatabase } from '../../testing/test-database.ts';
import { describeDatabase, engineOf, isPostgresUrl, openDatabase } from './db.ts';

describe('openDatabase', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('opens the engine its argument names', () => {
    expect(engineOf(database.db)).toBe(testEngine());
    expect(isPostgresUrl(database.database)).toBe(testEngine() === 'postgres');
  });

  it('reads 64-bit integers and counts as numbers', async () => {
    const { rows } = await sql<{
      big: unknown;
      n: unknown;
    }>`select cast(${2 ** 40} as bigint) as big, (select count(*) from users) as n`.execute(
      database.db,
    );
    expect(rows[0]).toEqual({ big: 2 ** 40, n: 0 });
  });

  it('names a server it cannot reach, without the password', async () => {
    const error = (await openDatabase('postgres://ann:secret@127.0.0.1:1/cabinet').catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/^cannot connect to postgres:\/\/ann@127\.0\.0\.1:1\/cabinet: /);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(error.message).not.toContain('secret');
  });

  it('takes a pool size from the URL and refuses one that is not a count', async () => {
    await expect(openDatabase('postgresql://127.0.0.1:1/cabinet?pool_size=0')).rejects.toThrow(
      'pool_size must be a whole number of connections, not "0"',
    );
    await expect(openDatabase('postgresql://127.0.0.1:1/cabinet?pool_size=2')).rejects.toThrow(
      /^cannot connect/,
    );
  });

  it('refuses a missing SQLite file when asked to', async () => {
    await expect(openDatabase('/nonexistent/cabinet.db', { mustExist: true })).rejects.toThrow(
      'no SQLite database at /nonexistent/cabinet.db',
    );
  });

  it('describes a URL without its password and a file as its path', () => {
    expect(describeDatabase('postgres://ann:pw@db.example:5432/cabinet?sslmode=require')).toBe(
      'postgres://ann@db.example:5432/cabinet',
    );
    expect(describeDatabase('postgresql://ann:pw@/cabinet?host=/run/postgresql')).toBe(
      'postgresql://ann@/cabinet',
    );
    expect(describeDatabase('/var/lib/cabinet/cabinet.db')).toBe('/var/lib/cabinet/cabinet.db');
  });
});

describe('a new SQLite database', () => {
  it('is created readable by its owner only, its WAL too (it holds the signing key)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-db-mode-'));
    const file = path.join(dir, 'data', 'cabinet.db');
    const db = await openDatabase(file);
    try {
      await sql`select 1`.execute(db);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    } finally {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
