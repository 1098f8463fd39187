// `cabinet backup` and `cabinet restore` (docs/cli.md): a backup taken while a real server uploads,
// shares, creates users and runs a job restores into an empty data folder on which a new server
// signs every user in, opens every link and finishes every job; a backup killed midway has no
// manifest; restore refuses a tampered file and a data folder that is not empty.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileJob } from '@cabinet/protocol';
import { buildProgram } from '../src/cli/program.ts';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { eventually } from './helpers/eventually.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');

/** A settings file an operator keeps in the data folder; the backup must carry it. */
const SETTINGS_FILE = 'cabinet.json';
const SETTINGS = '{"brandingName": "Vault"}\n';

interface Place {
  data: string;
  root: string;
  database: string;
}

/** The store flags of a place: the database only when it is not the default SQLite file. */
function flags(place: Place): string[] {
  const base = ['--data', place.data, '--root', place.root];
  return place.database === path.join(place.data, 'cabinet.db')
    ? base
    : [...base, '--database', place.database];
}

/** Runs the CLI in-process; resolves with what it printed and the error it ended with. */
async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram({ out: (t) => out.push(t), err: (t) => err.push(t) });
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  let error: Error | undefined;
  try {
    await program.parseAsync(['node', 'cabinet', ...args]);
  } catch (e) {
    error = e as Error;
  }
  return { out: out.join('\n'), err: err.join('\n'), error };
}

/** POSTs JSON (or a raw body) with a token. */
function post(server: TestServer, route: string, token: string, body: unknown) {
  const raw = typeof body === 'string' || Buffer.isBuffer(body);
  return server.fetch(route, {
    method: 'POST',
    token,
    body: raw ? (body as string) : JSON.stringify(body),
    headers: raw ? {} : { 'content-type': 'application/json' },
  });
}

function login(server: TestServer, username: string, password: string) {
  return server.fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, recaptcha: '' }),
  });
}

let base: string;
let source: TestServer;
let backupDir: string;
const handles: TestDatabaseHandle[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-backup-'));
  source = await startTestServer();
  await writeFile(path.join(source.dataDir, SETTINGS_FILE), SETTINGS);
  // A thumbnail in the cache and an item in the trash: neither belongs in the backup.
  await mkdir(path.join(source.dataDir, 'cache/previews'), { recursive: true });
  await writeFile(path.join(source.dataDir, 'cache/previews/thumb.jpg'), 'thumbnail');
  await mkdir(path.join(source.root, 'docs'), { recursive: true });
  await writeFile(path.join(source.root, 'docs/trashed.txt'), 'gone');
  const deleted = await source.fetch('/api/resources/docs/trashed.txt', {
    method: 'DELETE',
    token: source.admin.token,
  });
  expect(deleted.status).toBe(204);
  expect(existsSync(path.join(source.dataDir, 'trash'))).toBe(true);
  backupDir = path.join(base, 'backup');
});

afterAll(async () => {
  await source.close();
  for (const handle of handles) await handle.drop();
  await rm(base, { recursive: true, force: true });
});

/** An empty data folder and a database for it: the default SQLite file, or a new PostgreSQL one. */
async function emptyPlace(name: string): Promise<Place> {
  const data = path.join(base, name);
  const handle = await testDatabaseFor(data);
  handles.push(handle);
  return { data, root: source.root, database: handle.database };
}

describe('cabinet backup while the server writes, and cabinet restore', () => {
  /** What the writers finished: users with their passwords, share links, jobs. */
  const users = new Map<string, string>([['admin', ADMIN_PASSWORD]]);
  const shares: string[] = [];
  const jobs: string[] = [];
  /** How much of each list was done when the backup began: all of that must be restored. */
  let before = { users: 0, shares: 0, jobs: 0 };

  it('restores a backup taken during uploads, shares, users and a job: every user signs in, every link opens, every job finishes', async () => {
    let writing = true;
    /** Resolvers waiting for the next finished round of writes. */
    let waiting: (() => void)[] = [];
    const nextRound = () => new Promise<void>((resolve) => waiting.push(resolve));
    const writer = (async () => {
      for (let n = 0; writing; n++) {
        const password = `backup-user-${n}-long-enough`;
        const user = await source.createUser({
          username: `writer${n}`,
          password,
          scope: '.',
          perm: { create: true, share: true, download: true },
        });
        users.set(user.user.username, password);
        const upload = await post(
          source,
          `/api/resources/up/file-${n}.txt?override=true`,
          user.token,
          `content ${n}`.repeat(200),
        );
        expect(upload.status).toBe(200);
        const share = await post(source, `/api/share/up/file-${n}.txt`, user.token, {});
        expect(share.status).toBe(200);
        shares.push(((await share.json()) as { hash: string }).hash);
        if (n % 3 === 0) {
          const job = await post(source, '/api/jobs', source.admin.token, {
            kind: 'copy',
            items: [{ from: `/up/file-${n}.txt`, to: `/copies/file-${n}.txt` }],
          });
          expect(job.status).toBe(202);
          jobs.push(((await job.json()) as { id: string }).id);
        }
        for (const resolve of waiting) resolve();
        waiting = [];
      }
    })();
    // A failed write ends the wait with its error instead of leaving it waiting.
    const afterRound = () =>
      Promise.race([nextRound(), writer.then(() => Promise.reject(new Error('writes stopped')))]);
    await afterRound();
    await afterRound();
    before = { users: users.size, shares: shares.length, jobs: jobs.length };
    const backup = await cli(
      'backup',
      backupDir,
      ...flags({ data: source.dataDir, root: source.root, database: source.config.database }),
    );
    // The writers go on after the backup, not only before it.
    await afterRound();
    writing = false;
    await writer;
    expect(backup.error).toBeUndefined();
    expect(backup.out).toMatch(/^backed up .* and 1 file\(s\) of /);
    expect(backup.out).toContain('not included: cache/ (thumbnail and preview cache');
    expect(backup.out).toContain('not included: trash/ (deleted files');
    const manifest = JSON.parse(await readFile(path.join(backupDir, 'manifest.json'), 'utf8')) as {
      files: { path: string }[];
    };
    expect(manifest.files.map((f) => f.path).sort()).toEqual(
      [
        source.config.database.startsWith('postgres') ? 'database.pgdump' : 'database.sqlite',
        `data/${SETTINGS_FILE}`,
      ].sort(),
    );

    const place = await emptyPlace('restored');
    const restore = await cli('restore', backupDir, ...flags(place));
    expect(restore.error).toBeUndefined();
    expect(restore.out).toMatch(/^restored the backup of /);
    expect(await readFile(path.join(place.data, SETTINGS_FILE), 'utf8')).toBe(SETTINGS);
    expect(existsSync(path.join(place.data, 'cache'))).toBe(false);

    const restored = await startTestServer({
      root: place.root,
      dataDir: place.data,
      config: { database: place.database },
    });
    try {
      const restoredUsers = (await restored.ctx.store.users.list()).map((u) => u.username);
      // Whatever was done before the backup began is there; nothing is there that was never made.
      expect(restoredUsers).toEqual(
        expect.arrayContaining([...users.keys()].slice(0, before.users)),
      );
      for (const username of restoredUsers) {
        expect(users.has(username)).toBe(true);
        const signedIn = await login(restored, username, users.get(username)!);
        expect(signedIn.status).toBe(200);
      }
      const restoredShares = (await restored.ctx.store.shares.all()).map((s) => s.hash);
      expect(restoredShares).toEqual(expect.arrayContaining(shares.slice(0, before.shares)));
      expect(restoredShares.length).toBeGreaterThan(0);
      for (const hash of restoredShares) {
        expect(shares).toContain(hash);
        const opened = await restored.fetch(`/api/public/share/${hash}`);
        expect(opened.status).toBe(200);
      }
      // A job the backup caught queued or running resumes on the restored server and finishes.
      const restoredJobs = jobs.slice(0, before.jobs);
      expect(restoredJobs.length).toBeGreaterThan(0);
      for (const id of restoredJobs) {
        await eventually(
          async () =>
            (await (
              await restored.fetch(`/api/jobs/${id}`, { token: restored.admin.token })
            ).json()) as FileJob,
          (job) => job.state === 'done',
        );
      }
    } finally {
      await restored.close({ removeFiles: false });
    }
  });

  it('refuses a data folder that is not empty, with a message and a non-zero exit', async () => {
    const place = await emptyPlace('not-empty');
    await mkdir(place.data, { recursive: true });
    await writeFile(path.join(place.data, 'old.txt'), 'left over');
    const run = spawn(process.execPath, [BIN, 'restore', backupDir, ...flags(place)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    run.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((resolve) => run.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /cabinet: data folder .*not-empty is not empty \(old\.txt\): restore only into an empty data folder/,
    );
    expect(await readdir(place.data)).toEqual(['old.txt']);
  });

  it('refuses a database that already exists: an SQLite file there, a PostgreSQL one with tables', async () => {
    const place = { ...(await emptyPlace('into-live-database')), database: source.config.database };
    const restore = await cli('restore', backupDir, ...flags(place));
    expect(restore.error?.message).toMatch(
      source.config.database.startsWith('postgres')
        ? /^the database already holds tables \(.*\): restore only into an empty database/
        : /cabinet\.db already exists: restore only into a new database$/,
    );
    // The live server's state is untouched and it still serves its users.
    expect((await login(source, 'admin', ADMIN_PASSWORD)).status).toBe(200);
  });

  it('refuses a backup whose file does not match its checksum, and writes nothing', async () => {
    const tampered = path.join(base, 'tampered');
    await rm(tampered, { recursive: true, force: true });
    await mkdir(tampered);
    for (const name of ['manifest.json', 'database.sqlite', 'database.pgdump']) {
      if (existsSync(path.join(backupDir, name))) {
        await writeFile(path.join(tampered, name), await readFile(path.join(backupDir, name)));
      }
    }
    await mkdir(path.join(tampered, 'data'));
    await writeFile(path.join(tampered, 'data', SETTINGS_FILE), SETTINGS.replace('Vault', 'Vauld'));
    const place = await emptyPlace('from-tampered');
    const restore = await cli('restore', tampered, ...flags(place));
    expect(restore.error?.message).toBe(
      `backup file data/${SETTINGS_FILE} does not match its checksum in manifest.json: the backup is damaged or was changed; restore nothing from it`,
    );
    expect(existsSync(place.data)).toBe(false);
  });
});

describe('a PostgreSQL backup without pg_dump', () => {
  it('stops before writing anything and says where pg_dump was looked for', async () => {
    const empty = await mkdtemp(path.join(base, 'no-tools-'));
    const dir = path.join(base, 'never-written');
    const run = await cli(
      'backup',
      dir,
      '--data',
      source.dataDir,
      '--root',
      source.root,
      '--database',
      'postgres://cabinet@127.0.0.1:1/cabinet',
      '--pg-bin',
      empty,
    );
    expect(run.error?.message).toBe(`no pg_dump in ${empty}`);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('a backup killed midway', () => {
  it('leaves no manifest, and restore refuses the folder', async () => {
    const dir = path.join(base, 'killed');
    const database = source.config.database;
    const onPostgres = database.startsWith('postgres');
    // The database is copied after the data folder's files: a lock held here stops the backup
    // between the two, wherever the kill lands. SQLite: an exclusive lock (the test server's own
    // connection is closed first); PostgreSQL: a table locked against pg_dump.
    let releaseLock: () => Promise<void>;
    const stopped = await startTestServer({
      root: source.root,
      dataDir: path.join(base, 'killed-data'),
    });
    await writeFile(path.join(stopped.dataDir, SETTINGS_FILE), SETTINGS);
    await stopped.close({ removeFiles: false });
    const handle = await testDatabaseFor(stopped.dataDir);
    handles.push(handle);
    if (onPostgres) {
      const client = new pg.Client({ connectionString: handle.database.replace(/\?.*$/, '') });
      await client.connect();
      await client.query('begin');
      await client.query('lock table users in access exclusive mode');
      releaseLock = async () => {
        await client.query('rollback');
        await client.end();
      };
    } else {
      const lock = new SQLite(handle.database);
      lock.pragma('locking_mode = EXCLUSIVE');
      lock.exec('begin exclusive; commit');
      releaseLock = async () => {
        lock.close();
      };
    }
    const place = { data: stopped.dataDir, root: source.root, database: handle.database };
    // Its own process group, so pg_dump goes with it.
    const child = spawn(process.execPath, [BIN, 'backup', dir, ...flags(place)], {
      stdio: 'ignore',
      detached: true,
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await expect
        .poll(() => existsSync(path.join(dir, 'data', SETTINGS_FILE)), { timeout: 60_000 })
        .toBe(true);
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    } finally {
      await releaseLock();
    }
    expect(await readdir(dir)).not.toContain('manifest.json');
    const restore = await cli('restore', dir, ...flags(await emptyPlace('from-killed')));
    expect(restore.error?.message).toBe(
      `not a complete Cabinet backup: ${dir} has no manifest.json (a backup that did not finish has none)`,
    );
    // Nor does a new backup finish into it and vouch for the old files.
    const again = await cli('backup', dir, ...flags(place));
    expect(again.error?.message).toBe(
      `backup folder ${dir} is not empty: back up into a new or empty folder`,
    );
    const inside = path.join(place.data, 'backups');
    expect((await cli('backup', inside, ...flags(place))).error?.message).toBe(
      `backup folder ${inside} is inside the data folder: put backups elsewhere`,
    );
  });
});
