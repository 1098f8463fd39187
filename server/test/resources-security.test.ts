import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Resource } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTempName } from '../src/fs/temp-files.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

const OUTSIDE_SECRET = 'TOP-SECRET-OUTSIDE';
const BOB_SECRET = 'BOB-SECRET';

let server: TestServer;
let alice: TestUser;
let home: string;
let outside: string;

async function put(file: string, content = 'x') {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}
const inHome = (relative: string) => path.join(home, relative);

beforeAll(async () => {
  server = await startTestServer();
  outside = path.join(path.dirname(server.root), 'outside');
  home = path.join(server.root, 'users', 'alice');
  await put(path.join(outside, 'secret.txt'), OUTSIDE_SECRET);
  await put(path.join(server.root, 'users', 'bob', 'bob.txt'), BOB_SECRET);
  await put(inHome('public.txt'), 'public');
  await put(inHome('private/s.txt'), 'private');
  await put(inHome('uploads/u.txt'), 'u');
  await put(inHome('uploads_backup/b.txt'), 'backup');
  await put(inHome('.env'), 'dot');
  await put(inHome('x.key'), 'key');
  await put(inHome('dir/a.txt'), 'a');
  await put(inHome('dir/sub/secret.key'), 'k');
  await symlink(outside, inHome('out'));
  await symlink(path.join(outside, 'secret.txt'), inHome('outfile'));
  await symlink(path.join(outside, 'none'), inHome('dangling-out'));
  await symlink('../bob', inHome('parent-link'));
  await symlink('public.txt', inHome('in-link'));
  await symlink('private/s.txt', inHome('priv-link'));
  await server.updateSettings({
    rules: [
      { regex: false, allow: false, path: '/uploads', regexp: null },
      { regex: true, allow: false, path: '', regexp: { raw: '\\.key$' } },
    ],
  });
  alice = await server.createUser({
    scope: '/users/alice',
    hideDotfiles: true,
    rules: [{ regex: false, allow: false, path: '/private', regexp: null }],
  });
});
afterAll(() => server.close());

const get = (rawPath: string) => rawRequest(server.url, 'GET', rawPath, { token: alice.token });

describe('hostile paths never leak anything outside the scope', () => {
  it.each([
    ['/api/resources/../bob/bob.txt', [301]],
    ['/api/resources/..%2f..%2fbob%2fbob.txt', [301]],
    ['/api/resources/%2e%2e/%2e%2e/bob/bob.txt', [301]],
    ['/api/resources/%2E%2E%2F%2E%2E%2Fusers%2Fbob', [301]],
    ['/api/resources/%252e%252e/%252e%252e/bob/bob.txt', [404]],
    ['/api/resources/%252e%252e%252fbob', [404]],
    ['/api/resources//users/bob/bob.txt', [301]],
    // A backslash is part of a name: this is one name starting with a dot (hidden from alice).
    ['/api/resources/..%5c..%5cbob%5cbob.txt', [403]],
    ['/api/resources/%5c..%5c..%5cusers%5cbob', [404]],
    ['/api/resources/public.txt%00.png', [400]],
    ['/api/resources/%00', [400]],
    ['/api/resources/out', [403]],
    ['/api/resources/out/secret.txt', [403]],
    ['/api/resources/outfile', [403]],
    ['/api/resources/dangling-out', [403]],
    ['/api/resources/parent-link/bob.txt', [403]],
    ['/api/resources/parent-link', [403]],
    ['/api/resources/private', [403]],
    ['/api/resources/private/s.txt', [403]],
    ['/api/resources/private/', [403]],
    ['/api/resources/priv-link', [403]],
    ['/api/resources/uploads/u.txt', [403]],
    ['/api/resources/.env', [403]],
    ['/api/resources/x.key', [403]],
    ['/api/resources/recursive/out', [403]],
    ['/api/usage/private', [403]],
    ['/api/usage/parent-link', [403]],
    ['/api/resources/dir/sub/secret.key?checksum=md5', [403]],
  ])('GET %s answers %j', async (rawPath, statuses) => {
    const res = await get(rawPath);
    expect(statuses).toContain(res.status);
    expect(res.body).not.toContain(OUTSIDE_SECRET);
    expect(res.body).not.toContain(BOB_SECRET);
    if (res.status === 301) {
      // The cleaned location is still an ordinary path of this server, never a file outside.
      const location = res.headers.location!;
      expect(location.startsWith('/')).toBe(true);
      const followed = await get(location);
      expect(followed.body).not.toContain(BOB_SECRET);
    }
  });

  it('treats rule paths on segment boundaries: /uploads_backup stays reachable', async () => {
    const res = await get('/api/resources/uploads_backup/b.txt');
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as Resource).content).toBe('backup');
  });

  it('does not fold case on this case-sensitive file system (a case variant is another name)', async () => {
    expect(server.ctx.files.caseInsensitive).toBe(false);
    expect((await get('/api/resources/PRIVATE/s.txt')).status).toBe(404);
  });

  it('reads through an in-scope link', async () => {
    const res = await get('/api/resources/in-link');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ isSymlink: true, content: 'public' });
  });

  it('omits blocked, hidden and escaping entries from listings and does not count them', async () => {
    const body = JSON.parse((await get('/api/resources/')).body) as Resource;
    expect(body.items!.map((i) => i.name).sort()).toEqual(
      ['dir', 'in-link', 'public.txt', 'uploads_backup'].sort(),
    );
    expect(body.numDirs).toBe(2);
    expect(body.numFiles).toBe(2);
    const dir = JSON.parse((await get('/api/resources/dir/sub')).body) as Resource;
    expect(dir.items).toEqual([]);
    expect(dir.numFiles).toBe(0);
  });

  it('prunes blocked subtrees from the recursive listing', async () => {
    const items = JSON.parse((await get('/api/resources/recursive/')).body) as Array<{
      path: string;
    }>;
    const paths = items.map((i) => i.path);
    expect(paths).toContain('/dir/a.txt');
    for (const hidden of [
      '/private',
      '/uploads',
      '/.env',
      '/x.key',
      '/dir/sub/secret.key',
      '/out',
    ]) {
      expect(paths).not.toContain(hidden);
    }
    expect(paths.some((p) => p.startsWith('/private/') || p.startsWith('/parent-link'))).toBe(
      false,
    );
  });
});

describe('hostile writes change nothing outside the scope or under a rule', () => {
  const send = (method: string, rawPath: string, body?: string) =>
    rawRequest(server.url, method, rawPath, { token: alice.token, body });

  it.each([
    ['POST', '/api/resources/out/new.txt', 403],
    ['POST', '/api/resources/dangling-out', 403],
    ['POST', '/api/resources/parent-link/new.txt', 403],
    ['POST', '/api/resources/parent-link/newdir/', 403],
    ['POST', '/api/resources/outfile?override=true', 403],
    ['POST', '/api/resources/private/new.txt', 403],
    ['POST', '/api/resources/uploads/new.txt', 403],
    ['POST', '/api/resources/dir/new.key', 403],
    ['POST', '/api/resources/.hidden-new', 403],
    ['POST', '/api/resources/a%00b', 400],
    ['PUT', '/api/resources/outfile', 403],
    ['PUT', '/api/resources/private/s.txt', 403],
    ['DELETE', '/api/resources/out', 403],
    ['DELETE', '/api/resources/outfile', 403],
    ['DELETE', '/api/resources/parent-link/bob.txt', 403],
    ['DELETE', '/api/resources/private', 403],
    ['DELETE', '/api/resources/dir', 403],
    ['DELETE', '/api/resources/.env', 403],
    ['PATCH', '/api/resources/outfile?action=copy&destination=%252Fstolen.txt', 403],
    ['PATCH', '/api/resources/public.txt?action=copy&destination=%252Fout%252Fx', 403],
    ['PATCH', '/api/resources/public.txt?action=rename&destination=%252Fprivate%252Fp.txt', 403],
    ['PATCH', '/api/resources/public.txt?action=copy&destination=%252Fparent-link%252Fx', 403],
    ['PATCH', '/api/resources/priv-link?action=copy&destination=%252Fcopy.txt', 403],
    ['PATCH', '/api/resources/dir?action=rename&destination=%252Fdir2', 403],
    ['PATCH', '/api/resources/dir?action=copy&destination=%252Fdir3', 403],
    ['PATCH', '/api/resources/public.txt?action=copy&destination=%252F.hidden', 403],
    ['PATCH', '/api/resources/public.txt?action=copy&destination=%252Fnew.key', 403],
  ])('%s %s answers %i', async (method, rawPath, status) => {
    const res = await send(
      method,
      rawPath,
      method === 'POST' || method === 'PUT' ? 'EVIL' : undefined,
    );
    expect(res.status).toBe(status);
    expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(OUTSIDE_SECRET);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readdirSync(path.join(server.root, 'users', 'bob'))).toEqual(['bob.txt']);
    expect(readFileSync(inHome('private/s.txt'), 'utf8')).toBe('private');
    expect(readFileSync(inHome('dir/sub/secret.key'), 'utf8')).toBe('k');
    for (const absent of [
      'stolen.txt',
      'dir2',
      'dir3',
      'copy.txt',
      '.hidden',
      '.hidden-new',
      'new.key',
    ]) {
      expect(existsSync(inHome(absent))).toBe(false);
    }
    expect(existsSync(inHome('dir/a.txt'))).toBe(true);
    expect(existsSync(inHome('out'))).toBe(true);
  });

  it('confines a double-decoded ../ destination to the scope', async () => {
    const res = await send(
      'PATCH',
      '/api/resources/public.txt?action=copy&destination=..%252F..%252Fbob%252Fpwned.txt',
    );
    expect(res.status).toBe(200);
    expect(readdirSync(path.join(server.root, 'users', 'bob'))).toEqual(['bob.txt']);
    expect(readFileSync(inHome('bob/pwned.txt'), 'utf8')).toBe('public');
    const literal = await send(
      'PATCH',
      '/api/resources/public.txt?action=copy&destination=%25252e%25252e%252Fliteral.txt',
    );
    expect(literal.status).toBe(200);
    expect(existsSync(inHome('%2e%2e/literal.txt'))).toBe(true);
  });
});

describe('interrupted uploads', () => {
  /** Starts an upload, sends part of the declared body, then drops the connection. */
  /** Whether the server has a temp file open in `dir` (it writes an upload there before renaming). */
  const writingIn = (dir: string) => existsSync(dir) && readdirSync(dir).some(isTempName);

  /** Sends part of an upload to `rawPath` and goes away once the server is writing it in `dir`. */
  async function abortedUpload(rawPath: string, dir: string): Promise<void> {
    const url = new URL(server.url);
    await new Promise<void>((resolve) => {
      const request = http.request({
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: rawPath,
        headers: { 'X-Auth': alice.token, 'Content-Length': String(4 * 1024 * 1024) },
      });
      request.on('error', () => resolve());
      request.write(Buffer.alloc(256 * 1024, 0x41), () => {
        void (async () => {
          while (!writingIn(dir)) await new Promise((r) => setTimeout(r, 10));
          request.destroy();
          resolve();
        })();
      });
    });
  }

  /** Waits until the server has cleaned up after the dropped request (only the test's budget ends it). */
  async function settled(dir: string) {
    while (writingIn(dir)) await new Promise((resolve) => setTimeout(resolve, 25));
  }

  it('leaves the original file intact and no temp file when the client goes away', async () => {
    await abortedUpload('/api/resources/public.txt?override=true', home);
    await settled(home);
    expect(readFileSync(inHome('public.txt'), 'utf8')).toBe('public');
    expect(readdirSync(home).filter(isTempName)).toEqual([]);
    const listing = JSON.parse((await get('/api/resources/')).body) as Resource;
    expect(listing.items!.some((i) => isTempName(i.name))).toBe(false);
  });

  it('creates nothing when a new upload is interrupted', async () => {
    await abortedUpload('/api/resources/dir/partial.bin', inHome('dir'));
    await settled(inHome('dir'));
    expect(existsSync(inHome('dir/partial.bin'))).toBe(false);
    expect(readdirSync(inHome('dir')).filter(isTempName)).toEqual([]);
    const ok = await rawRequest(server.url, 'GET', '/api/resources/dir', { token: alice.token });
    expect(ok.status).toBe(200);
  });
});
