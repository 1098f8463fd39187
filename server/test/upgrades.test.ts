// Upgrades keep data (docs/deploy.md): a database as each earlier schema version left it, filled
// with rows the way that version's code wrote them, is opened by the current code, which serves
// every row through the API. And a version older than the database refuses to start on it.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Migrator, sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TUS, HOOK_KEYS, LIMITS } from '@cabinet/protocol';
import { hashPassword } from '../src/credentials/password.ts';
import { generateSigningKey, signToken } from '../src/credentials/tokens.ts';
import { connectDatabase, openDatabase } from '../src/store/db.ts';
import { migrationNames, migrationProvider } from '../src/store/migrations.ts';
import type { UserRecord } from '../src/store/users.repo.ts';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');
const ALICE_PASSWORD = 'alice-has-a-long-passphrase';
const REPORT = 'quarterly figures\n';
/** An app password as version 0010's service made them: `cab_<id>_<secret>`, SHA-256 of the secret. */
const APP_PASSWORD_ID = '0123456789abcdef';
const APP_PASSWORD_SECRET = 'A'.repeat(42) + 'g';
const APP_PASSWORD = `cab_${APP_PASSWORD_ID}_${APP_PASSWORD_SECRET}`;

/**
 * The schema versions the upgrade is tried from, each a migration name. All of them took most of a
 * minute on PostgreSQL, so a sample where what old code wrote differs: the first release (shares
 * without their real target, sessions without browser and address, profiles without a quota),
 * share links with targets, the sites before the trash, the trash and app passwords before quotas,
 * quotas and two-factor before the audit log, the first file jobs (without an address), and
 * always the version just before this one.
 */
function versions(): string[] {
  const all = migrationNames();
  const sample = [
    '0001_initial',
    '0003_share_links',
    '0008_sites',
    '0010_webdav_app_passwords',
    '0014_oidc',
    '0016_file_jobs',
    all[all.length - 2]!,
  ];
  return all.filter((name) => sample.includes(name));
}

/** True when migration `name` had run in a database left at `version`. */
function hadRun(version: string, name: string): boolean {
  const all = migrationNames();
  return all.indexOf(name) <= all.indexOf(version);
}

/** The settings the first release wrote on first start (its services/settings.defaults.ts). */
function firstReleaseSettings() {
  return {
    signup: false,
    hideLoginButton: true,
    createUserDir: false,
    minimumPasswordLength: LIMITS.minimumPasswordLength,
    userHomeBasePath: '/users',
    defaults: {
      scope: '.',
      locale: 'en',
      viewMode: 'mosaic',
      singleClick: false,
      redirectAfterCopyMove: true,
      sorting: { by: 'name', asc: false },
      perm: {
        admin: false,
        execute: true,
        create: true,
        rename: true,
        modify: true,
        delete: true,
        share: true,
        download: true,
      },
      commands: [],
      hideDotfiles: false,
      dateFormat: false,
      aceEditorTheme: '',
    },
    authMethod: 'json',
    rules: [],
    branding: {
      name: '',
      disableExternal: false,
      disableUsedPercentage: false,
      files: '',
      theme: '',
      color: '',
    },
    tus: { ...DEFAULT_TUS },
    shell: [],
    commands: Object.fromEntries(HOOK_KEYS.map((k) => [k, [] as string[]])),
  };
}

/** A user's profile column as that version's users repository wrote it (quota from 0011 on). */
function profile(version: string, admin: boolean, quota: number): string {
  const defaults = firstReleaseSettings().defaults;
  return JSON.stringify({
    ...defaults,
    lockPassword: false,
    rules: [],
    perm: Object.fromEntries(Object.entries(defaults.perm).map(([k, v]) => [k, admin || v])),
    ...(hadRun(version, '0011_quota_usage') && { quota }),
  });
}

/**
 * Fills a database left at `version` the way that version's code would have: plain inserts of
 * the columns that existed then, generated ids left to the database as the code did.
 */
async function fill(
  db: Kysely<unknown>,
  version: string,
): Promise<{ alice: number; oldToken: string }> {
  const at = (name: string) => hadRun(version, name);
  const now = Date.now();
  const json = (value: unknown) => JSON.stringify(value);
  const signingKey = generateSigningKey();
  await sql`insert into kv (key, value) values ('signing_key', ${json(signingKey)}),
    ('settings', ${json(firstReleaseSettings())})`.execute(db);
  for (const [name, password, admin] of [
    ['admin', ADMIN_PASSWORD, true],
    ['alice', ALICE_PASSWORD, false],
  ] as const) {
    await sql`insert into users (username, password_hash, profile, updated_at)
      values (${name}, ${await hashPassword(password)}, ${profile(version, admin, 10_000_000)}, ${now})`.execute(
      db,
    );
  }
  const ids = await sql<{ id: number; username: string }>`select id, username from users`.execute(
    db,
  );
  const idOf = (name: string) => Number(ids.rows.find((row) => row.username === name)!.id);
  const admin = idOf('admin');
  const alice = idOf('alice');

  if (at('0005_session_details')) {
    await sql`insert into sessions (id, user_id, created_at, expires_at, revoked_at, user_agent,
        address, last_used_at${at('0013_two_factor') ? sql`, enrol_only` : sql``})
      values ('old-session', ${alice}, ${now}, ${now + 86_400_000}, null, 'Old Firefox',
        '203.0.113.7', ${now}${at('0013_two_factor') ? sql`, 0` : sql``})`.execute(db);
  } else {
    await sql`insert into sessions (id, user_id, created_at, expires_at, revoked_at)
      values ('old-session', ${alice}, ${now}, ${now + 86_400_000}, null)`.execute(db);
  }
  // The token that version handed alice at sign-in (the same claims since the first release).
  const aliceRecord = {
    ...(JSON.parse(profile(version, false, 10_000_000)) as object),
    id: alice,
    username: 'alice',
  } as UserRecord;
  const { token: oldToken } = await signToken(
    new TextEncoder().encode(signingKey),
    aliceRecord,
    86_400,
    'old-session',
    now,
  );

  if (at('0003_share_links')) {
    await sql`insert into shares (hash, path, user_id, expire, password_hash, token, target,
        download_limit, downloads, is_dir, is_request)
      values ('oldlink1', '/docs/report.txt', ${admin}, 0, '', '', '/docs/report.txt', 5, 1, 0, 0)`.execute(
      db,
    );
  } else {
    await sql`insert into shares (hash, path, user_id, expire, password_hash, token)
      values ('oldlink1', '/docs/report.txt', ${admin}, 0, '', '')`.execute(db);
  }

  if (at('0004_command_runs')) {
    await sql`insert into command_runs (kind, user_id, username, path, line, outcome, exit_code,
        duration_ms, started_at)
      values ('command', ${admin}, 'admin', '/', 'ls -l', 'exited', 0, 12, ${now})`.execute(db);
  }
  if (at('0008_sites')) {
    await sql`insert into sites (name, title, folder, generator, output, serve, users, created_at)
      values ('blog', 'Old Blog', '/blog', 'builtin', 'public', 0, ${json([alice])}, ${now})`.execute(
      db,
    );
  }
  if (at('0009_trash')) {
    await sql`insert into trash_items (id, user_id, name, path, target, is_dir, size, deleted_at,
        deleted_by, shares)
      values ('oldtrash1', ${alice}, 'draft.txt', '/draft.txt', '/draft.txt', 0, 6, ${now},
        ${alice}, '[]')`.execute(db);
  }
  if (at('0010_webdav_app_passwords')) {
    const secretHash = createHash('sha256').update(APP_PASSWORD_SECRET).digest('hex');
    await sql`insert into app_passwords (id, user_id, name, secret_hash, read_only, folder,
        created_at, last_used_at)
      values (${APP_PASSWORD_ID}, ${alice}, 'Old phone', ${secretHash}, 0, '/', ${now}, null)`.execute(
      db,
    );
  }
  if (at('0015_audit_log')) {
    await sql`insert into audit_log (at, user_id, username, action, target, address, outcome,
        details)
      values (${now}, ${alice}, 'alice', 'login', '', '203.0.113.7', 'ok', '{}')`.execute(db);
  }
  if (at('0016_file_jobs')) {
    const items = json([{ from: '/docs/report.txt', to: '/copy.txt' }]);
    await sql`insert into file_jobs (id, user_id, kind, state, on_conflict, items, item_count,
        item_index, files_total, files_done, bytes_total, bytes_done, created_at, updated_at,
        finished_at${at('0017_file_job_address') ? sql`, address` : sql``})
      values ('oldjob1', ${alice}, 'copy', 'done', 'ask', ${items}, 1, 1, 1, 1, 18, 18, ${now},
        ${now}, ${now}${at('0017_file_job_address') ? sql`, '203.0.113.7'` : sql``})`.execute(db);
  }
  return { alice, oldToken };
}

/** Builds the database of a data folder as `version` left it, filled. */
async function buildAt(dataDir: string, version: string) {
  const handle = await testDatabaseFor(dataDir);
  const db = await connectDatabase(handle.database);
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(version);
    if (error) throw error;
    return await fill(db as Kysely<unknown>, version);
  } finally {
    await db.destroy();
    await handle.release();
  }
}

async function json<T>(response: Response): Promise<T> {
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function signIn(server: TestServer, username: string, password: string): Promise<string> {
  const response = await server.fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe('upgrading a database an earlier version left', () => {
  let server: TestServer | undefined;
  let base: string | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (base) await rm(base, { recursive: true, force: true });
    base = undefined;
  });

  for (const version of versions()) {
    it(`serves every row written at ${version}`, async () => {
      const at = (name: string) => hadRun(version, name);
      base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-upgrade-'));
      const root = path.join(base, 'files');
      const dataDir = path.join(base, 'data');
      await mkdir(path.join(root, 'docs'), { recursive: true });
      await mkdir(path.join(root, 'blog'), { recursive: true });
      await writeFile(path.join(root, 'docs', 'report.txt'), REPORT);
      const { alice, oldToken } = await buildAt(dataDir, version);

      server = await startTestServer({ root, dataDir });
      const adminToken = await signIn(server, 'admin', ADMIN_PASSWORD);
      const aliceToken = await signIn(server, 'alice', ALICE_PASSWORD);

      const users = await json<Array<{ username: string; quota?: number }>>(
        await server.fetch('/api/users', { token: adminToken }),
      );
      expect(users.map((u) => u.username).sort()).toEqual(['admin', 'alice']);
      if (at('0011_quota_usage')) {
        expect(users.find((u) => u.username === 'alice')!.quota).toBe(10_000_000);
      }

      // Signed in before the upgrade, still signed in after it.
      const stillSignedIn = await server.fetch('/api/resources/docs/', { token: oldToken });
      expect(stillSignedIn.status).toBe(200);
      expect(await stillSignedIn.text()).toContain('report.txt');

      const sessions = await json<Array<{ id: string; userAgent: string }>>(
        await server.fetch(`/api/users/${alice}/sessions`, { token: adminToken }),
      );
      expect(sessions.find((s) => s.id === 'old-session')?.userAgent).toBe(
        at('0005_session_details') ? 'Old Firefox' : '',
      );

      // The link opens and downloads its file, whether it was made before links knew their target.
      const shares = await json<Array<{ hash: string }>>(
        await server.fetch('/api/shares', { token: adminToken }),
      );
      expect(shares.map((s) => s.hash)).toContain('oldlink1');
      const opened = await server.fetch('/api/public/share/oldlink1');
      expect(opened.status).toBe(200);
      expect(await opened.text()).toContain('report.txt');
      const download = await server.fetch('/api/public/dl/oldlink1?download=true');
      expect(download.status).toBe(200);
      expect(await download.text()).toBe(REPORT);

      if (at('0004_command_runs')) {
        const runs = await json<Array<{ line: string }>>(
          await server.fetch('/api/command-runs', { token: adminToken }),
        );
        expect(runs.map((r) => r.line)).toContain('ls -l');
      }
      if (at('0008_sites')) {
        const sites = await json<Array<{ name: string; title: string }>>(
          await server.fetch('/api/sites?all=1', { token: adminToken }),
        );
        expect(sites.map((s) => s.title)).toContain('Old Blog');
      }
      if (at('0009_trash')) {
        const trash = await json<Array<{ id: string; name: string }>>(
          await server.fetch('/api/trash', { token: aliceToken }),
        );
        expect(trash.map((t) => t.name)).toEqual(['draft.txt']);
      }
      if (at('0010_webdav_app_passwords')) {
        const passwords = await json<Array<{ name: string }>>(
          await server.fetch('/api/app-passwords', { token: aliceToken }),
        );
        expect(passwords.map((p) => p.name)).toEqual(['Old phone']);
        const listing = await server.fetch('/api/resources/docs/', {
          headers: { authorization: `Bearer ${APP_PASSWORD}` },
        });
        expect(listing.status).toBe(200);
        expect(await listing.text()).toContain('report.txt');
      }
      if (at('0015_audit_log')) {
        const audit = await json<{ entries: Array<{ username: string; address: string }> }>(
          await server.fetch('/api/audit?action=login&user=alice', { token: adminToken }),
        );
        expect(audit.entries.map((e) => e.address)).toContain('203.0.113.7');
      }
      if (at('0016_file_jobs')) {
        const jobs = await json<Array<{ id: string; state: string }>>(
          await server.fetch('/api/jobs', { token: aliceToken }),
        );
        expect(jobs.find((j) => j.id === 'oldjob1')?.state).toBe('done');
      }
    });
  }
});

describe('a version older than the database', () => {
  const run = promisify(execFile);
  let dir: string | undefined;
  let handle: TestDatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.drop();
    handle = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('refuses to start, naming the migration it does not know and saying to run the newer version', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-newer-db-'));
    const dataDir = path.join(dir, 'data');
    const root = path.join(dir, 'files');
    handle = await testDatabaseFor(dataDir);
    // What a newer version leaves: every migration of this one and one more after them.
    const db = await openDatabase(handle.database);
    await sql`insert into kysely_migration (name, timestamp)
      values ('0099_from_a_newer_version', ${new Date().toISOString()})`.execute(db);
    await db.destroy();

    const store = ['--data', dataDir, '--root', root, '--database', handle.database];
    const refused = {
      code: 1,
      stderr: expect.stringMatching(
        /^cabinet: the database was upgraded by a newer version of Cabinet: it holds migration "0099_from_a_newer_version", which this version does not know\. Run the newer version/m,
      ),
    };
    await expect(run('node', [BIN, 'users', 'ls', ...store])).rejects.toMatchObject(refused);
    await expect(
      run('node', [BIN, 'serve', ...store, '--address', '127.0.0.1', '--port', '0'], {
        timeout: 120_000,
      }),
    ).rejects.toMatchObject(refused);
    // Several workers: the primary refuses before starting any, rather than replacing them for ever.
    await expect(
      run(
        'node',
        [BIN, 'serve', ...store, '--address', '127.0.0.1', '--port', '0', '--workers', '2'],
        { timeout: 120_000 },
      ),
    ).rejects.toMatchObject(refused);

    // Nothing was changed: the current migrations are all still there, the newer one too.
    const after = await connectDatabase(handle.database);
    const names = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(after);
    await after.destroy();
    expect(names.rows.map((row) => row.name)).toEqual([
      ...migrationNames(),
      '0099_from_a_newer_version',
    ]);
  });
});
