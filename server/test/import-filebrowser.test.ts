import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.ts';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';
import { bucket, writeBolt } from '../src/import/bolt-writer.fixture.ts';
import { IMPORT_RECORD_KEY } from '../src/import/filebrowser-import.ts';
import {
  REAL_FIXTURES,
  bcryptHash,
  fbLink,
  fbServer,
  fbSettings,
  fbUser,
  filebrowserDb,
} from '../src/import/filebrowser-db.fixture.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { login } from './helpers/auth.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { fakeDist } from './helpers/web-dist.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');
const realFixture = (name: string) => fileURLToPath(new URL(name, REAL_FIXTURES));

const ADMIN_OLD = 'the admin password from filebrowser';
const BOB_OLD = 'bob-was-here-2019';
const SHARE_PASSWORD = 'share pass';

/** The test database of each data folder the commands name (SQLite file or PostgreSQL). */
const databases = new Map<string, TestDatabaseHandle>();

/**
 * `args` with `--database` naming the test database of their `--data` folder, so that under
 * CABINET_TEST_POSTGRES the import lands where a test server on that folder looks (docs/database.md).
 */
async function onTestDatabase(args: string[]): Promise<string[]> {
  const at = args.indexOf('--data');
  if (at < 0 || args.includes('--database')) return args;
  const dataDir = args[at + 1]!;
  let handle = databases.get(dataDir);
  if (!handle) {
    handle = await testDatabaseFor(dataDir);
    databases.set(dataDir, handle);
  }
  return [...args, '--database', handle.database];
}

/** Runs `cabinet …` in-process; resolves with what it printed and the error it ended with. */
async function cabinet(...given: string[]) {
  const args = await onTestDatabase(given);
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram({ out: (t) => out.push(t), err: (t) => err.push(t) });
  const overrideExits = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(overrideExits);
  };
  overrideExits(program);
  let error: Error | undefined;
  try {
    await program.parseAsync(['node', 'cabinet', ...args]);
  } catch (e) {
    error = e as Error;
  }
  return { out: out.join('\n'), err: err.join('\n'), error };
}

const id8 = (id: number) => {
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(BigInt(id));
  return key;
};

let base: string;
let root: string;
let data: string;
let source: string;
let dist: string;
let server: TestServer | undefined;

/** A server on the imported database (started once, after the import). */
async function serverOnImport(): Promise<TestServer> {
  server ??= await startTestServer({ root, dataDir: data, config: { webDist: dist } });
  return server;
}

async function put(relative: string, content: string) {
  await mkdir(path.dirname(path.join(root, relative)), { recursive: true });
  await writeFile(path.join(root, relative), content);
}

async function token(username: string, password: string): Promise<string> {
  const response = await login(await serverOnImport(), { username, password });
  expect(response.status).toBe(200);
  return response.text();
}

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-import-'));
  root = path.join(base, 'srv');
  data = path.join(base, 'data');
  source = path.join(base, 'filebrowser.db');
  dist = await fakeDist();
  await put('docs/report.txt', 'quarterly report');
  await put('docs/plan.txt', 'the plan');
  await put('users/bob/notes.txt', 'bob notes');
  await put('users/bob/secret/key.txt', 'bob secret');
  await put('users/bob/draft.tmp', 'draft');
  await put('users/bob/.profile', 'dotfile');
  const full = fbUser(0, '', '').perm as Record<string, boolean>;
  const db = filebrowserDb({
    users: [
      fbUser(1, 'admin', await bcryptHash(ADMIN_OLD), { perm: { ...full, admin: true } }),
      fbUser(2, 'bob', await bcryptHash(BOB_OLD, '$2y$'), {
        scope: '/users/bob',
        locale: 'pt_BR',
        perm: { ...full, delete: false, execute: false },
        rules: [
          { regex: false, allow: false, path: '/secret', regexp: null },
          { regex: true, allow: false, path: '', regexp: { raw: '\\.tmp$' } },
        ],
        hideDotfiles: true,
        viewMode: 'list',
        sorting: { by: 'modified', asc: true },
      }),
      fbUser(3, 'carol', '', { scope: '/docs' }),
    ],
    links: [
      fbLink('bobNotes', '/notes.txt', 2),
      fbLink('docsPw12', '/docs/', 1, {
        password_hash: await bcryptHash(SHARE_PASSWORD),
        token: 'a-token-filebrowser-stored',
      }),
      fbLink('expired1', '/docs/report.txt', 1, { expire: 1_000_000 }),
      fbLink('orphan12', '/docs/', 99),
      fbLink('missing1', '/gone.txt', 1),
    ],
    settings: fbSettings({
      signup: true,
      branding: { name: 'Team files', theme: 'dark', disableExternal: true },
      rules: [{ regex: false, allow: false, path: '/docs/plan.txt', regexp: null }],
    }),
    server: fbServer({ root, port: '8081', baseURL: '/files', tokenExpirationTime: '6h' }),
    raw: { User: [[id8(9), 'not json at all']] },
  });
  await writeFile(source, db);
});
afterAll(async () => {
  await server?.close({ removeFiles: false });
  for (const handle of databases.values()) await handle.drop();
  await rm(base, { recursive: true, force: true });
  await rm(dist, { recursive: true, force: true });
});

describe('cabinet import filebrowser', () => {
  it('imports users, links and settings in one go and prints what it did and the config', async () => {
    const { out, err, error } = await cabinet(
      'import',
      'filebrowser',
      source,
      '--data',
      data,
      '--root',
      root,
    );
    expect(error).toBeUndefined();
    // "into a new Cabinet database" follows on SQLite, where the file did not exist; the test
    // database on PostgreSQL exists (empty) before the command runs.
    expect(out).toContain(`imported 3 users, 3 share links and the settings from ${source}`);
    expect(out).toContain('users: admin, bob, carol');
    expect(out).toContain('the unused administrator "admin" of this new Cabinet was replaced');
    expect(out).toContain('skipped user #9: unreadable: not JSON');
    expect(out).toContain('skipped share expired1: it has expired');
    expect(out).toContain(
      'skipped share orphan12: its owner (filebrowser user #99) does not exist',
    );
    expect(out).toContain("share links whose item is not under this Cabinet's root (missing1)");
    expect(out).toContain('mapped: bob: locale "pt_BR" → "pt-br"');
    expect(out).toMatch(/warning: carol: the stored password is not a bcrypt hash/);
    expect(out).toMatch(/not imported: setting "key": the token signing key/);
    const config = JSON.parse(out.slice(out.lastIndexOf('\n{'))) as Record<string, unknown>;
    expect(config).toMatchObject({
      root,
      port: 8081,
      baseURL: '/files',
      tokenExpiration: '6h',
      authMethod: 'json',
    });
    // Neither a password nor a hash is ever printed, nor the first start's generated password.
    for (const secret of [ADMIN_OLD, BOB_OLD, SHARE_PASSWORD, '$2a$', '$2y$', '$argon2']) {
      expect(out + err).not.toContain(secret);
    }
    expect(err).not.toContain('randomly generated password');
  });

  it('lets everyone sign in with their old password, and rehashes it on the first login', async () => {
    const running = await serverOnImport();
    const before = (await running.ctx.store.users.byUsername('bob'))!.passwordHash;
    expect(before.startsWith('$2y$')).toBe(true);
    await token('bob', BOB_OLD);
    const after = (await running.ctx.store.users.byUsername('bob'))!.passwordHash;
    expect(after.startsWith('$argon2id$')).toBe(true);
    await token('bob', BOB_OLD);
    await token('admin', ADMIN_OLD);
    expect((await login(running, { username: 'bob', password: 'guess' })).status).toBe(403);
    expect((await login(running, { username: 'carol', password: '' })).status).toBe(403);
  });

  it('gives the imported user the same scope, permissions, rules and profile', async () => {
    const running = await serverOnImport();
    const bob = await token('bob', BOB_OLD);
    const listing = await running.fetch('/api/resources/', { token: bob });
    expect(listing.status).toBe(200);
    const items = ((await listing.json()) as { items: { name: string }[] }).items;
    // Scope /users/bob; the /secret and *.tmp rules and hidden dotfiles apply.
    expect(items.map((item) => item.name)).toEqual(['notes.txt']);
    expect((await running.fetch('/api/resources/secret/key.txt', { token: bob })).status).toBe(403);
    const remove = await running.fetch('/api/resources/notes.txt', {
      method: 'DELETE',
      token: bob,
    });
    expect(remove.status).toBe(403);
    const record = (await running.ctx.store.users.byUsername('bob'))!;
    expect(record.scope).toBe('/users/bob');
    // A user reading their own record is not shown their scope; the rest is as it was.
    const self = await running.fetch(`/api/users/${record.id}`, { token: bob });
    expect(await self.json()).toMatchObject({
      username: 'bob',
      locale: 'pt-br',
      viewMode: 'list',
      hideDotfiles: true,
      sorting: { by: 'modified', asc: true },
      perm: { admin: false, delete: false, execute: false, create: true, share: true },
    });
    const settings = await running.ctx.settings.get();
    expect(settings).toMatchObject({
      signup: true,
      branding: { name: 'Team files', theme: 'dark', disableExternal: true },
      rules: [{ path: '/docs/plan.txt', allow: false }],
    });
  });

  it('opens imported links at their old URLs, with and without their password', async () => {
    const running = await serverOnImport();
    const pub = (rawPath: string, headers: Record<string, string> = {}) =>
      rawRequest(running.url, 'GET', rawPath, { headers });
    const open = await pub('/api/public/share/bobNotes');
    expect(open.status).toBe(200);
    expect(JSON.parse(open.body)).toMatchObject({ name: 'notes.txt' });
    expect((await pub('/api/public/dl/bobNotes')).body).toBe('bob notes');
    expect((await pub('/share/bobNotes')).status).toBe(200);

    expect((await pub('/api/public/share/docsPw12')).status).toBe(401);
    expect((await pub('/api/public/share/docsPw12', { 'X-SHARE-PASSWORD': 'wrong' })).status).toBe(
      401,
    );
    // filebrowser's stored token opens nothing: Cabinet's download tokens are signed and expire.
    expect(
      (await pub('/api/public/dl/docsPw12/report.txt?token=a-token-filebrowser-stored')).status,
    ).toBe(401);
    const unlocked = await pub('/api/public/share/docsPw12', {
      'X-SHARE-PASSWORD': encodeURIComponent(SHARE_PASSWORD),
    });
    expect(unlocked.status).toBe(200);
    const { token: downloadToken, items } = JSON.parse(unlocked.body) as {
      token: string;
      items: { name: string }[];
    };
    // The global rule blocking /docs/plan.txt applies to the owner's link too.
    expect(items.map((item) => item.name)).toEqual(['report.txt']);
    const file = await pub(`/api/public/dl/docsPw12/report.txt?token=${downloadToken}`);
    expect(file.body).toBe('quarterly report');
    expect((await pub('/api/public/share/missing1')).status).toBe(404);
    expect((await pub('/api/public/share/expired1')).status).toBe(404);

    const shares = await running.ctx.store.shares.all();
    expect(shares.find((s) => s.hash === 'docsPw12')).toMatchObject({
      path: '/docs/',
      target: '/docs',
      isDir: true,
    });
    expect(shares.find((s) => s.hash === 'missing1')).toMatchObject({ target: '' });
  });

  it('changes nothing in a dry run, and says what it would do', async () => {
    const running = await serverOnImport();
    const snapshot = async () => ({
      users: await running.ctx.store.users.list(),
      shares: await running.ctx.store.shares.all(),
      settings: await running.ctx.store.kv.get('settings'),
      record: await running.ctx.store.kv.get(IMPORT_RECORD_KEY),
    });
    const before = await snapshot();
    const dry = await cabinet(
      'import',
      'filebrowser',
      source,
      '--dry-run',
      '--merge',
      '--data',
      data,
      '--root',
      root,
      '--write-config',
      path.join(base, 'dry.json'),
    );
    expect(dry.error).toBeUndefined();
    expect(dry.out).toMatch(/^Dry run \(nothing changed\): would import 0 users, 0 share links/);
    expect(dry.out).toContain('skipped user "bob": the name is taken in this Cabinet');
    expect(await snapshot()).toEqual(before);
    expect(existsSync(path.join(base, 'dry.json'))).toBe(false);

    // Into a database that does not exist yet: nothing is created, not even the data folder.
    const fresh = path.join(base, 'never-created');
    // The SQLite path on both engines: a file that does not exist yet.
    const planned = await cabinet(
      'import',
      'filebrowser',
      source,
      '--dry-run',
      '--data',
      fresh,
      '--database',
      path.join(fresh, 'cabinet.db'),
    );
    expect(planned.error).toBeUndefined();
    expect(planned.out).toMatch(/would import 3 users, 3 share links .* into a new Cabinet/);
    expect(existsSync(fresh)).toBe(false);
  });

  it('refuses a database with users unless --merge, and then never overwrites one', async () => {
    const running = await serverOnImport();
    const refused = await cabinet('import', 'filebrowser', source, '--data', data);
    expect(refused.error?.message).toMatch(
      /^this Cabinet database already has users \(admin, bob, carol\); add --merge/,
    );
    const bobBefore = await running.ctx.store.users.byUsername('bob');
    const second = path.join(base, 'second.db');
    await writeFile(
      second,
      filebrowserDb({
        users: [
          fbUser(1, 'bob', await bcryptHash('another bob')),
          fbUser(2, 'dave', await bcryptHash('dave-old-password')),
        ],
        links: [fbLink('bobNotes', '/x', 1), fbLink('daveLink', '/', 2)],
      }),
    );
    const merged = await cabinet('import', 'filebrowser', second, '--merge', '--data', data);
    expect(merged.error).toBeUndefined();
    expect(merged.out).toContain('imported 1 user, 1 share link and no settings');
    expect(merged.out).toContain('skipped user "bob": the name is taken in this Cabinet');
    expect(merged.out).toContain('skipped share bobNotes: its owner "bob" was not imported');
    expect(await running.ctx.store.users.byUsername('bob')).toEqual(bobBefore);
    await token('dave', 'dave-old-password');
    expect((await login(running, { username: 'bob', password: 'another bob' })).status).toBe(403);
    expect((await running.ctx.settings.get()).branding.name).toBe('Team files');
  });

  it('writes the configuration to a new file only, never over one', async () => {
    const target = path.join(base, 'cabinet.json');
    const fbConfig = path.join(base, '.filebrowser.yaml');
    await writeFile(fbConfig, `root: ${root}\nport: 9090\ndatabase: ${source}\n`);
    const other = path.join(base, 'data-config');
    const first = await cabinet(
      'import',
      'filebrowser',
      '--config',
      fbConfig,
      '--data',
      other,
      '--root',
      root,
      '--write-config',
      target,
    );
    expect(first.error).toBeUndefined();
    expect(first.out).toContain(`written to ${target}`);
    expect(JSON.parse(await readFile(target, 'utf8'))).toMatchObject({ root, port: 9090 });
    await writeFile(target, '{"port": 1}\n');
    const again = await cabinet(
      'import',
      'filebrowser',
      source,
      '--merge',
      '--data',
      other,
      '--write-config',
      target,
    );
    expect(again.error?.message).toMatch(/exists already; Cabinet never writes over a config/);
    expect(await readFile(target, 'utf8')).toBe('{"port": 1}\n');
  });
});

describe('secrets of the configuration', () => {
  it('are masked on screen and written only to the --write-config file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-import-secret-'));
    try {
      const file = path.join(dir, 'fb.db');
      await writeFile(
        file,
        filebrowserDb({
          users: [fbUser(1, 'admin', await bcryptHash('x'), { perm: { admin: true } })],
          auther: { recaptcha: { host: '', key: 'site-key', secret: 'very-secret-value' } },
        }),
      );
      const args = ['import', 'filebrowser', file, '--root', path.join(dir, 'srv')];
      const shown = await cabinet(...args, '--data', path.join(dir, 'a'));
      expect(shown.out).toContain('"recaptchaSecret": "(hidden: written by --write-config)"');
      expect(shown.out).not.toContain('very-secret-value');
      const written = path.join(dir, 'cabinet.json');
      const saved = await cabinet(
        ...args,
        '--data',
        path.join(dir, 'b'),
        '--write-config',
        written,
      );
      expect(saved.out).not.toContain('very-secret-value');
      expect(JSON.parse(await readFile(written, 'utf8'))).toMatchObject({
        authMethod: 'json',
        recaptchaKey: 'site-key',
        recaptchaSecret: 'very-secret-value',
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a large filebrowser database', () => {
  it('imports hundreds of users and links spread over branch and overflow pages', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-import-large-'));
    try {
      const hash = await bcryptHash('same for everyone');
      const users = Array.from({ length: 300 }, (_, i) =>
        fbUser(i + 1, `user${String(i + 1).padStart(3, '0')}`, hash, {
          perm: i === 0 ? { admin: true } : fbUser(0, '', '').perm,
          // Long rule lists make some records larger than a page (overflow pages).
          rules: Array.from({ length: i % 50 === 0 ? 200 : 1 }, (_, r) => ({
            regex: false,
            allow: false,
            path: `/private-${r}`,
            regexp: null,
          })),
        }),
      );
      const links = users.map((u, i) => fbLink(`link${String(i).padStart(4, '0')}`, '/', i + 1));
      const file = path.join(dir, 'large.db');
      await writeFile(
        file,
        filebrowserDb({ users, links }, { maxLeafEntries: 7, maxBranchEntries: 3 }),
      );
      const data = path.join(dir, 'data');
      const { out, error } = await cabinet(
        'import',
        'filebrowser',
        file,
        '--data',
        data,
        '--root',
        path.join(dir, 'srv'),
      );
      expect(error).toBeUndefined();
      expect(out).toContain('imported 300 users, 300 share links and the settings');
      expect(out).toContain('users: user001, user002');
      expect(out).toContain('user020 and 280 more');
      const running = await startTestServer({
        root: path.join(dir, 'srv'),
        dataDir: data,
        config: { adminUsername: 'user001' },
      });
      try {
        const imported = await running.ctx.store.users.list();
        expect(imported.map((u) => u.username)).toEqual(users.map((u) => u.username));
        expect(imported[50]!.rules).toHaveLength(200);
        expect(await running.ctx.store.shares.all()).toHaveLength(300);
        expect(
          (await login(running, { username: 'user300', password: 'same for everyone' })).status,
        ).toBe(200);
      } finally {
        await running.close({ removeFiles: false });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the real filebrowser databases', () => {
  it.each(['json-auth-admin.db', 'hook-auth-admin.db'])(
    'import %s, and admin signs in with the password filebrowser had',
    async (name) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-import-real-'));
      const files = path.join(dir, 'srv');
      try {
        const { out, error } = await cabinet(
          'import',
          'filebrowser',
          realFixture(name),
          '--data',
          path.join(dir, 'data'),
          '--root',
          files,
        );
        expect(error).toBeUndefined();
        expect(out).toContain('imported 1 user, 0 share links and the settings');
        const running = await startTestServer({ root: files, dataDir: path.join(dir, 'data') });
        try {
          expect((await login(running, { username: 'admin', password: 'admin' })).status).toBe(200);
          expect((await running.ctx.store.users.list()).map((u) => u.username)).toEqual(['admin']);
          const record = await running.ctx.store.kv.get<Record<string, unknown>>(IMPORT_RECORD_KEY);
          if (name.startsWith('hook')) {
            expect(out).toMatch(/warning: auth method hook \(command "\/ldap\.sh arg"\)/);
            expect(record?.authHook).toEqual({ command: '/ldap.sh arg', enabled: false });
          } else {
            expect(record?.authHook).toBeUndefined();
            expect((await running.ctx.settings.get()).branding.name).toBe('Penta CM');
          }
        } finally {
          await running.close({ removeFiles: false });
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('files that are not filebrowser databases', () => {
  const run = promisify(execFile);
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-import-bad-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const real = () => readFile(realFixture('json-auth-admin.db'));
  const cases: [string, () => Promise<Buffer | undefined>, RegExp][] = [
    ['a text file', async () => Buffer.from('users: []\n'), /not a BoltDB file/],
    ['an empty file', async () => Buffer.alloc(0), /the file is empty/],
    ['a truncated copy', async () => (await real()).subarray(0, 20_000), /truncated BoltDB file/],
    [
      'a damaged page',
      async () => {
        const bytes = await real();
        // The root page of the newer meta page (page 1, txid 17) now claims another id.
        const root = Number(bytes.readBigUInt64LE(4096 + 32));
        bytes.writeBigUInt64LE(3n, root * 4096);
        return bytes;
      },
      /damaged BoltDB file: page \d+ carries another page's id/,
    ],
    [
      'a BoltDB file of something else',
      async () => Buffer.from(writeBolt(bucket([['Things', bucket([['a', '1']])]]))),
      /a BoltDB file, but not a filebrowser database/,
    ],
    ['a missing file', async () => undefined, /no such file/],
  ];
  it.each(cases)(
    '%s: one clear line, exit code 1, nothing created',
    async (name, bytes, message) => {
      const file = path.join(dir, `${name.replace(/\W+/g, '-')}.db`);
      const content = await bytes();
      if (content) await writeFile(file, content);
      const data = path.join(dir, `data-${name.replace(/\W+/g, '-')}`);
      const args = await onTestDatabase([BIN, 'import', 'filebrowser', file, '--data', data]);
      const failure = await run('node', args).then(
        () => undefined,
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toBe('');
      expect(failure?.stderr).toMatch(/^cabinet: [^\n]+\n$/);
      expect(failure?.stderr).toMatch(message);
      expect(existsSync(data)).toBe(false);
    },
  );

  it('imports through the real binary from a copy of the database', async () => {
    const copy = path.join(dir, 'copy.db');
    await copyFile(realFixture('json-auth-admin.db'), copy);
    const data = path.join(dir, 'data-copy');
    const args = await onTestDatabase([BIN, 'import', 'filebrowser', copy, '--data', data]);
    const { stdout } = await run('node', args);
    expect(stdout).toContain('imported 1 user');
  });
});
