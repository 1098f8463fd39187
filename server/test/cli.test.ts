import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_MALLOC_ENV,
  SERVER_NODE_FLAGS,
  SHEBANG_NODE_FLAGS,
  transferFlag,
} from '../scripts/node-flags.mjs';
import { verifyPassword } from '../src/credentials/password.ts';
import { buildProgram } from '../src/cli/program.ts';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';
import { startTestServer } from '../testing/test-server.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');
const STRONG = 'a-long-enough-unusual-passphrase';

/**
 * The store options for a data folder: on PostgreSQL the test database's URL, since the default
 * is the SQLite file `<data>/cabinet.db`.
 */
function storeFlags(dataDir: string, database: TestDatabaseHandle): string[] {
  const flags = ['--data', dataDir, '--root', path.join(dataDir, 'files')];
  return database.engine === 'postgres' ? [...flags, '--database', database.database] : flags;
}

/** Runs the CLI in-process on the given data folder; resolves with what it printed. */
async function cli(place: { dir: string; database: TestDatabaseHandle }, ...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const program = buildProgram({ out: (t) => out.push(t), err: (t) => err.push(t) });
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  let error: Error | undefined;
  const extra = args[0] === 'hash-password' ? [] : storeFlags(place.dir, place.database);
  try {
    await program.parseAsync(['node', 'cabinet', ...args, ...extra]);
  } catch (e) {
    error = e as Error;
  }
  return { out: out.join('\n'), err: err.join('\n'), error };
}

describe('cabinet administration commands', () => {
  let dir: string;
  let place: { dir: string; database: TestDatabaseHandle };
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-cli-'));
    place = { dir, database: await testDatabaseFor(dir) };
  });
  afterAll(async () => {
    await place.database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the database on first use and prints the generated admin password to stderr', async () => {
    const { out, err } = await cli(place, 'users', 'ls');
    expect(out).toMatch(/^ID\tUsername/);
    expect(out).toMatch(/\n1\tadmin\t\.\ten\tadmin,execute,/);
    expect(err).toMatch(/User 'admin' initialized with randomly generated password: \S{16}/);
  });

  it('adds users with flags, under the password policy', async () => {
    const added = await cli(
      place,
      'users',
      'add',
      'bob',
      STRONG,
      '--locale',
      'de',
      '--scope',
      '/bob',
      '--no-perm-delete',
      '--commands',
      'ls git',
    );
    expect(added.error).toBeUndefined();
    expect(added.out).toBe('created user 2 (bob)');
    const list = (await cli(place, 'users', 'ls')).out;
    expect(list).toContain('2\tbob\t/bob\tde\texecute,create,rename,modify,share,download');
    const weak = await cli(place, 'users', 'add', 'eve', 'short');
    expect(weak.error?.message).toBe('password is too short, minimum length is 12');
    const common = await cli(place, 'users', 'add', 'eve', 'qwertyuiop123');
    expect(common.error?.message).toBe('password is too easy');
    expect((await cli(place, 'users', 'add', 'bob', STRONG)).error?.message).toBe(
      'username already taken',
    );
  });

  it('updates only the given fields, by id or name', async () => {
    const res = await cli(
      place,
      'users',
      'update',
      'bob',
      '-p',
      `${STRONG}-2`,
      '--admin',
      '-u',
      'robert',
    );
    expect(res.error).toBeUndefined();
    expect(res.out).toBe('updated user 2 (robert)');
    const list = (await cli(place, 'users', 'ls')).out;
    expect(list).toContain(
      '2\trobert\t/bob\tde\tadmin,execute,create,rename,modify,delete,share,download',
    );
    expect(
      (await cli(place, 'users', 'update', '2', '--no-admin', '--locale', 'fr')).error,
    ).toBeUndefined();
    expect((await cli(place, 'users', 'ls')).out).toContain('2\trobert\t/bob\tfr\texecute,');
    expect((await cli(place, 'users', 'update', 'nobody', '--admin')).error?.message).toBe(
      'no user "nobody"',
    );
  });

  it('removes users but never the last administrator', async () => {
    expect((await cli(place, 'users', 'rm', 'admin')).error?.message).toBe(
      'the last administrator cannot be deleted',
    );
    expect((await cli(place, 'users', 'rm', 'robert')).out).toBe('deleted user 2 (robert)');
    expect((await cli(place, 'users', 'ls')).out).not.toContain('robert');
  });

  it('shows and changes settings with the same validation as the API', async () => {
    const set = await cli(
      place,
      'config',
      'set',
      '--signup',
      '--create-user-dir',
      'true',
      '--min-password-length',
      '16',
      '--branding-name',
      'Vault',
      '--branding-theme',
      'dark',
      '--shell',
      '/bin/sh -c',
      '--default-perm-execute',
      'false',
    );
    expect(set.error).toBeUndefined();
    const settings = JSON.parse((await cli(place, 'config', 'show')).out) as Record<
      string,
      unknown
    >;
    expect(settings).toMatchObject({
      signup: true,
      createUserDir: true,
      minimumPasswordLength: 16,
      branding: { name: 'Vault', theme: 'dark' },
      shell: ['/bin/sh', '-c'],
      defaults: { perm: { execute: false } },
    });
    expect((await cli(place, 'config', 'set', '--branding-theme', 'neon')).error?.message).toMatch(
      /branding.theme/,
    );
    expect((await cli(place, 'config', 'set', '--signup', 'maybe')).error).toBeDefined();
    expect((await cli(place, 'config', 'set')).error?.message).toMatch(/nothing to change/);
    const carol = await cli(place, 'users', 'add', 'carol', 'only-fifteen-ch');
    expect(carol.error?.message).toBe('password is too short, minimum length is 16');
    expect((await cli(place, 'users', 'add', 'carol', `${STRONG}-carol`)).error).toBeUndefined();
    expect(existsSync(path.join(dir, 'files/users/carol'))).toBe(true);
  });

  it('hashes a password that the server accepts as a hashed admin password', async () => {
    const { out } = await cli(place, 'hash-password', STRONG);
    expect(out).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(out, STRONG)).toBe(true);
    const server = await startTestServer({ config: { adminPassword: out } });
    try {
      const res = await server.fetch('/api/login', {
        method: 'POST',
        body: JSON.stringify({ username: 'admin', password: STRONG }),
      });
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the cabinet binary', () => {
  const run = promisify(execFile);

  it("runs as a program, with the V8 flags and glibc's settings npm start passes", async () => {
    const firstLine = (await readFile(BIN, 'utf8')).split('\n')[0];
    const settings = Object.entries(SERVER_MALLOC_ENV).map(([name, value]) => `${name}=${value}`);
    expect(firstLine).toBe(
      `#!/usr/bin/env -S ${settings.join(' ')} node ${SHEBANG_NODE_FLAGS.join(' ')}`,
    );
    // Linux before 5.1 reads no more of a #! line than 127 bytes.
    expect(Buffer.byteLength(firstLine!)).toBeLessThanOrEqual(127);
    const { stdout } = await run(BIN, ['--help']);
    expect(stdout).toContain('serve');
  });

  it('gets ArrayBuffer.prototype.transfer from the flags npm start passes, on any Node', async () => {
    const { stdout } = await run(process.execPath, [
      ...SERVER_NODE_FLAGS,
      '-p',
      'typeof ArrayBuffer.prototype.transfer',
    ]);
    expect(stdout.trim()).toBe('function');
    expect(transferFlag('20.19.0')).toEqual(['--harmony-rab-gsab-transfer']);
    expect(transferFlag('22.12.0')).toEqual([]);
  });

  it('documents every command and option in --help', async () => {
    const { stdout } = await run('node', [BIN, '--help']);
    for (const command of [
      'serve',
      'users',
      'config',
      'db',
      'hash-password',
      'backup',
      'restore',
    ]) {
      expect(stdout).toContain(command);
    }
    const serve = (await run('node', [BIN, 'serve', '--help'])).stdout;
    for (const flag of [
      '--port',
      '--base-url',
      '--auth-method',
      '--rate-limit-max',
      '--web-dist',
    ]) {
      expect(serve).toContain(flag);
    }
    const set = (await run('node', [BIN, 'config', 'set', '--help'])).stdout;
    expect(set).toContain('--min-password-length');
  });

  it('exits non-zero with a one-line message on failure', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-cli-bin-'));
    const database = await testDatabaseFor(dir);
    try {
      await expect(
        run('node', [BIN, 'users', 'rm', 'nobody', ...storeFlags(dir, database)], {
          env: { ...process.env },
        }),
      ).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/cabinet: no user "nobody"\n/),
      });
    } finally {
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
