// The resources API, writing: create, save, copy, rename and delete.
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isTempName } from '../src/fs/temp-files.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { filesUnder, json } from './helpers/resources.ts';

let server: TestServer;
let root: string;
const { put, read, exists } = filesUnder(() => root);

beforeAll(async () => {
  server = await startTestServer();
  root = server.root;
});
afterAll(() => server.close());

describe('POST and PUT /api/resources', () => {
  let noCreate: TestUser;
  let noModify: TestUser;
  beforeAll(async () => {
    noCreate = await server.createUser({ perm: { create: false } });
    noModify = await server.createUser({ perm: { modify: false } });
  });

  const post = (p: string, body: string | undefined, token = server.admin.token, headers = {}) =>
    server.fetch(`/api/resources${p}`, { method: 'POST', body, token, headers });

  it('uploads a raw body, creating parents, with an ETag', async () => {
    const res = await post('/up/new/deep/hello.txt', 'hello world');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('200 OK\n');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(read('up/new/deep/hello.txt')).toBe('hello world');
  });

  it('never parses a body: a large JSON file is stored byte for byte', async () => {
    const big = JSON.stringify({ data: 'x'.repeat(3 * 1024 * 1024) });
    const res = await post('/up/big.json', big, server.admin.token, {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(200);
    expect(read('up/big.json')).toBe(big);
    const form = await post('/up/form.txt', 'a=1&b=2', server.admin.token, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(200);
    expect(read('up/form.txt')).toBe('a=1&b=2');
  });

  it('stores a body of many write batches byte for byte, replacing a file in place', async () => {
    // Several 1 MiB batches with writes in flight at once, and a tail that fills no batch.
    const body = randomBytes(5 * 1024 * 1024 + 12_345);
    await put('up/blob.bin', 'old');
    const res = await server.fetch('/api/resources/up/blob.bin?override=true', {
      method: 'POST',
      body,
      token: server.admin.token,
    });
    expect(res.status).toBe(200);
    expect(readFileSync(path.join(root, 'up/blob.bin')).equals(body)).toBe(true);
    expect(readdirSync(path.join(root, 'up')).filter(isTempName)).toEqual([]);
  });

  it('creates an empty file from an empty body and a folder from a trailing slash', async () => {
    expect((await post('/up/empty.txt', undefined)).status).toBe(200);
    expect(read('up/empty.txt')).toBe('');
    expect((await post('/up/folder/inner/', undefined)).status).toBe(200);
    const body = await json(
      await server.fetch('/api/resources/up/folder', { token: server.admin.token }),
    );
    expect(body.items!.map((i) => i.name)).toEqual(['inner']);
  });

  it('answers 409 for an existing name, and override needs modify', async () => {
    await put('up/exists.txt', 'original');
    expect((await post('/up/exists.txt', 'new')).status).toBe(409);
    expect((await post('/up/exists.txt?override=true', 'new', noModify.token)).status).toBe(403);
    expect(read('up/exists.txt')).toBe('original');
    expect((await post('/up/exists.txt?override=true', 'replaced')).status).toBe(200);
    expect(read('up/exists.txt')).toBe('replaced');
    expect((await post('/up/folder?override=true', 'x')).status).toBe(409);
  });

  it('needs the create permission', async () => {
    expect((await post('/up/nope.txt', 'x', noCreate.token)).status).toBe(403);
    expect((await post('/up/nope/', undefined, noCreate.token)).status).toBe(403);
    expect(exists('up/nope.txt')).toBe(false);
  });

  it('saves with PUT: modify needed, 405 for a trailing slash, 404 when missing', async () => {
    await put('up/save.txt', 'v1');
    const put1 = await server.fetch('/api/resources/up/save.txt', {
      method: 'PUT',
      body: 'v2',
      token: server.admin.token,
    });
    expect(put1.status).toBe(200);
    expect(put1.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(read('up/save.txt')).toBe('v2');
    const statuses = await Promise.all([
      server.fetch('/api/resources/up/save.txt', {
        method: 'PUT',
        body: 'x',
        token: noModify.token,
      }),
      server.fetch('/api/resources/up/save.txt/', {
        method: 'PUT',
        body: 'x',
        token: server.admin.token,
      }),
      server.fetch('/api/resources/up/missing.txt', {
        method: 'PUT',
        body: 'x',
        token: server.admin.token,
      }),
    ]);
    expect(statuses.map((r) => r.status)).toEqual([403, 405, 404]);
    expect(read('up/save.txt')).toBe('v2');
    expect(exists('up/missing.txt')).toBe(false);
  });

  it('leaves no temp files behind', () => {
    expect(readdirSync(path.join(root, 'up')).filter(isTempName)).toEqual([]);
  });
});

describe('PATCH /api/resources (copy and rename)', () => {
  let noRename: TestUser;
  let noCreate: TestUser;
  let noModify: TestUser;
  beforeAll(async () => {
    noRename = await server.createUser({ perm: { rename: false } });
    noCreate = await server.createUser({ perm: { create: false } });
    noModify = await server.createUser({ perm: { modify: false } });
  });
  beforeEach(async () => {
    await put('mv/src/a.txt', 'A');
    await put('mv/src/sub/b.txt', 'B');
    await put('mv/report.pdf', 'R');
  });

  /** The reference client encodes the destination twice. */
  const patch = (src: string, query: Record<string, string>, token = server.admin.token) => {
    const parts = Object.entries(query).map(([k, v]) =>
      k === 'destination'
        ? `destination=${encodeURIComponent(encodeURIComponent(v).replace(/%2F/g, '/'))}`
        : `${k}=${v}`,
    );
    const encoded = src.split('/').map(encodeURIComponent).join('/');
    return server.fetch(`/api/resources${encoded}?${parts.join('&')}`, { method: 'PATCH', token });
  };

  it('copies and renames with a double-encoded destination', async () => {
    const copy = await patch('/mv/src', { action: 'copy', destination: '/mv/copy of src #1' });
    expect(copy.status).toBe(200);
    expect(await copy.text()).toBe('200 OK\n');
    expect(read('mv/copy of src #1/sub/b.txt')).toBe('B');
    const move = await patch('/mv/copy of src #1', { action: 'rename', destination: '/mv/moved%' });
    expect(move.status).toBe(200);
    expect(exists('mv/copy of src #1')).toBe(false);
    expect(read('mv/moved%/a.txt')).toBe('A');
  });

  it('answers 409 on a clash, renames to name(N).ext with rename=true, replaces with override', async () => {
    await put('mv/taken.pdf', 'T');
    expect(
      (await patch('/mv/report.pdf', { action: 'copy', destination: '/mv/taken.pdf' })).status,
    ).toBe(409);
    await patch('/mv/report.pdf', { action: 'copy', destination: '/mv/taken.pdf', rename: 'true' });
    await patch('/mv/report.pdf', { action: 'copy', destination: '/mv/taken.pdf', rename: 'true' });
    expect(read('mv/taken(1).pdf')).toBe('R');
    expect(read('mv/taken(2).pdf')).toBe('R');
    expect(
      (
        await patch(
          '/mv/report.pdf',
          { action: 'rename', destination: '/mv/taken.pdf', override: 'true' },
          noModify.token,
        )
      ).status,
    ).toBe(403);
    expect(read('mv/taken.pdf')).toBe('T');
    await patch('/mv/report.pdf', {
      action: 'rename',
      destination: '/mv/taken.pdf',
      override: 'true',
    });
    expect(read('mv/taken.pdf')).toBe('R');
    expect(exists('mv/report.pdf')).toBe(false);
  });

  it.each([
    [
      { action: 'copy', destination: '/mv/src/sub/inside' },
      400,
      '400 Bad Request (source is parent)\n',
    ],
    [
      { action: 'rename', destination: '/mv/src/inner' },
      400,
      '400 Bad Request (source is parent)\n',
    ],
    [{ action: 'rename', destination: '/' }, 403, '403 Forbidden\n'],
    [{ action: 'delete', destination: '/mv/x' }, 400, '400 Bad Request (unsupported action)\n'],
    [{ action: 'copy', destination: '/mv/src/../../..' }, 403, '403 Forbidden\n'],
  ])('refuses %j with %i', async (query, status, text) => {
    const res = await patch('/mv/src', query);
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(text);
    expect(read('mv/src/a.txt')).toBe('A');
  });

  it('refuses to move the scope root', async () => {
    expect((await patch('/', { action: 'rename', destination: '/x' })).status).toBe(403);
  });

  it('needs create for copy and rename for move', async () => {
    expect(
      (await patch('/mv/src', { action: 'copy', destination: '/mv/c' }, noCreate.token)).status,
    ).toBe(403);
    expect(
      (await patch('/mv/src', { action: 'rename', destination: '/mv/c' }, noRename.token)).status,
    ).toBe(403);
    expect(exists('mv/c')).toBe(false);
    expect(
      (await patch('/mv/src', { action: 'rename', destination: '/mv/c' }, noCreate.token)).status,
    ).toBe(200);
  });

  it('answers 404 for a missing source', async () => {
    expect((await patch('/mv/none', { action: 'copy', destination: '/mv/x' })).status).toBe(404);
  });
});

describe('DELETE /api/resources', () => {
  let noDelete: TestUser;
  beforeAll(async () => {
    noDelete = await server.createUser({ perm: { delete: false } });
  });
  const del = (p: string, token = server.admin.token) =>
    server.fetch(`/api/resources${p}`, { method: 'DELETE', token });

  it('deletes files and folders with 204', async () => {
    await put('del/f.txt');
    await put('del/dir/inner.txt');
    const res = await del('/del/f.txt');
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await del('/del/dir')).status).toBe(204);
    expect(exists('del/dir')).toBe(false);
    expect((await del('/del/dir')).status).toBe(404);
  });

  it('refuses the root and users without delete', async () => {
    await put('del/keep.txt');
    expect((await del('/')).status).toBe(403);
    expect((await del('/del/keep.txt', noDelete.token)).status).toBe(403);
    expect(exists('del/keep.txt')).toBe(true);
  });

  it("removes the user's shares at or under the path, on folder boundaries", async () => {
    await put('docs/a.txt');
    await put('docs-old/b.txt');
    const db = server.ctx.store.db;
    const share = (hash: string, p: string, userId = server.admin.user.id) =>
      db
        .insertInto('shares')
        .values({ hash, path: p, user_id: userId, expire: 0, password_hash: '', token: '' })
        .execute();
    const other = await server.createUser();
    await share('s1', '/docs');
    await share('s2', '/docs/');
    await share('s3', '/docs/a.txt');
    await share('s4', '/docs-old');
    await share('s5', '/docs-old/b.txt');
    await share('s6', '/docs', other.user.id);
    expect((await del('/docs/')).status).toBe(204);
    const left = await db.selectFrom('shares').select('hash').orderBy('hash').execute();
    expect(left.map((r) => r.hash)).toEqual(['s4', 's5', 's6']);
  });
});
