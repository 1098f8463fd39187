// "Who deleted this?" (issue 38, part 4): every way a user's file is removed or replaced is in
// the audit log with who, what (by path), how and from where: delete jobs (folders and several
// items), move and copy jobs that replace, the API's override, WebDAV COPY/MOVE with Overwrite,
// a trash restore that replaces, and items leaving the trash for good (by hand or by retention).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage, FileJob, NewFileJob, TrashItem } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { basic, createAppPassword, dav } from './helpers/dav.ts';
import { runJobNow } from './helpers/run-job-now.ts';
import { createUpload, patchChunk } from './helpers/tus.ts';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let carl: TestUser;

/** Requests arrive through a trusted proxy (loopback) that names the client in X-Forwarded-For. */
const from = (address: string) => ({ 'x-forwarded-for': address });
const home = (p = '') => path.join(server.root, 'users/carl', p);

async function put(p: string, content: string): Promise<void> {
  await mkdir(path.dirname(home(p)), { recursive: true });
  await writeFile(home(p), content);
}

async function entries(action: string, query = ''): Promise<AuditEntry[]> {
  const response = await server.fetch(`/api/audit?action=${action}&limit=500${query}`, {
    token: server.admin.token,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as AuditPage).entries;
}

async function startJob(body: NewFileJob, address: string): Promise<string> {
  const response = await server.fetch('/api/jobs', {
    method: 'POST',
    token: carl.token,
    headers: { 'content-type': 'application/json', ...from(address) },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(202);
  const { id } = (await response.json()) as { id: string };
  await expect
    .poll(async () => {
      const job = await server.fetch(`/api/jobs/${id}`, { token: carl.token });
      return ((await job.json()) as FileJob).state;
    })
    .toMatch(/^(done|failed)$/);
  return id;
}

async function trashOf(user: TestUser): Promise<TrashItem[]> {
  return (await (await server.fetch('/api/trash', { token: user.token })).json()) as TrashItem[];
}

beforeAll(async () => {
  server = await startTestServer({ config: { trustedProxies: ['127.0.0.1'] } });
  await mkdir(home(), { recursive: true });
  carl = await server.createUser({
    username: 'carl',
    scope: '/users/carl',
    perm: { create: true, modify: true, delete: true, rename: true },
  });
});
afterAll(() => server.close());

describe('delete jobs', () => {
  it('record every item a folder or several-item delete removes, by path, from where asked', async () => {
    await put('album/sub/photo.jpg', 'jpeg');
    await put('notes.txt', 'notes');
    const id = await startJob(
      {
        kind: 'delete',
        items: [{ from: '/album/sub' }, { from: '/album' }, { from: '/notes.txt' }],
      },
      '203.0.113.7',
    );
    const deletes = (await entries('file.delete')).filter((e) => e.details.job === id);
    expect(deletes.map((e) => e.target).sort()).toEqual(['/album', '/album/sub', '/notes.txt']);
    for (const entry of deletes) {
      expect(entry).toMatchObject({
        userID: carl.user.id,
        username: 'carl',
        address: '203.0.113.7',
        outcome: 'ok',
        details: { via: 'job', trash: true },
      });
    }
  });

  it('refuse a delete job without the delete permission: nothing removed, nothing recorded', async () => {
    await put('precious.txt', 'keep');
    const keeper = await server.createUser({ scope: '/users/carl', perm: { delete: false } });
    const before = (await entries('file.delete')).length;
    const refused = await server.fetch('/api/jobs', {
      method: 'POST',
      token: keeper.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'delete', items: [{ from: '/precious.txt' }] }),
    });
    expect(refused.status).toBe(403);
    expect(await readFile(home('precious.txt'), 'utf8')).toBe('keep');
    expect(await entries('file.delete')).toHaveLength(before);
  });
});

describe('replacements', () => {
  it('by a move or copy job told to replace', async () => {
    await put('draft.txt', 'new words');
    await put('final.txt', 'old words');
    await put('keep.txt', 'copied');
    await put('copy-target.txt', 'overwritten');
    const move = await startJob(
      { kind: 'move', onConflict: 'replace', items: [{ from: '/draft.txt', to: '/final.txt' }] },
      '203.0.113.9',
    );
    const copy = await startJob(
      {
        kind: 'copy',
        onConflict: 'replace',
        items: [{ from: '/keep.txt', to: '/copy-target.txt' }],
      },
      '203.0.113.9',
    );
    expect(await readFile(home('final.txt'), 'utf8')).toBe('new words');
    const replaced = await entries('file.replace');
    expect(replaced.find((e) => e.details.job === move)).toMatchObject({
      username: 'carl',
      target: '/final.txt',
      address: '203.0.113.9',
      outcome: 'ok',
      details: { via: 'job', from: '/draft.txt' },
    });
    expect(replaced.find((e) => e.details.job === copy)).toMatchObject({
      target: '/copy-target.txt',
      details: { via: 'job', from: '/keep.txt' },
    });
  });

  it("by the API's override on upload, copy and move; none without a file to replace", async () => {
    await put('report.txt', 'v1');
    await put('other.txt', 'other');
    const before = (await entries('file.replace')).length;
    const upload = await server.fetch('/api/resources/report.txt?override=true', {
      method: 'POST',
      token: carl.token,
      headers: from('198.51.100.1'),
      body: 'v2',
    });
    expect(upload.status).toBe(200);
    const transfer = (action: string, source: string, target: string) =>
      server.fetch(
        `/api/resources${source}?action=${action}&destination=${encodeURIComponent(target)}&override=true`,
        { method: 'PATCH', token: carl.token, headers: from('198.51.100.1') },
      );
    expect((await transfer('copy', '/report.txt', '/other.txt')).status).toBe(200);
    expect((await transfer('rename', '/other.txt', '/report.txt')).status).toBe(200);
    // Override asked, but nothing was there: not a replacement.
    expect((await transfer('copy', '/report.txt', '/fresh.txt')).status).toBe(200);
    const fresh = await server.fetch('/api/resources/brand-new.txt?override=true', {
      method: 'POST',
      token: carl.token,
      body: 'n',
    });
    expect(fresh.status).toBe(200);
    const all = await entries('file.replace');
    const replaced = all.slice(0, all.length - before);
    expect(replaced.map((e) => [e.target, e.details.how])).toEqual([
      ['/report.txt', 'move'],
      ['/other.txt', 'copy'],
      ['/report.txt', 'upload'],
    ]);
    for (const entry of replaced) {
      expect(entry).toMatchObject({
        username: 'carl',
        address: '198.51.100.1',
        outcome: 'ok',
        details: { via: 'api' },
      });
    }
    // Without the modify permission an override is refused, and nothing is replaced.
    const reader = await server.createUser({ scope: '/users/carl', perm: { modify: false } });
    const refused = await server.fetch('/api/resources/report.txt?override=true', {
      method: 'POST',
      token: reader.token,
      body: 'x',
    });
    expect(refused.status).toBe(403);
    expect(await entries('file.replace')).toHaveLength(before + 3);
  });

  it('by a tus upload with override=true, recorded by the request that lands it', async () => {
    await put('video.bin', 'old video');
    const created = await createUpload(
      server,
      carl.token,
      '/video.bin',
      4,
      from('198.51.100.2'),
      '?override=true',
    );
    expect(created.status).toBe(201);
    expect((await entries('file.replace'))[0]?.target).not.toBe('/video.bin');
    const first = await patchChunk(
      server,
      carl.token,
      '/video.bin',
      0,
      Buffer.from('ne'),
      from('198.51.100.2'),
    );
    expect(first.status).toBe(204);
    expect(await readFile(home('video.bin'), 'utf8')).toBe('old video');
    const last = await patchChunk(
      server,
      carl.token,
      '/video.bin',
      2,
      Buffer.from('w!'),
      from('198.51.100.3'),
    );
    expect(last.status).toBe(204);
    expect(await readFile(home('video.bin'), 'utf8')).toBe('new!');
    expect((await entries('file.replace'))[0]).toMatchObject({
      username: 'carl',
      target: '/video.bin',
      address: '198.51.100.3',
      outcome: 'ok',
      details: { via: 'tus' },
    });
  });

  it('by WebDAV COPY and MOVE with Overwrite: T', async () => {
    await put('dav/a.txt', 'a');
    await put('dav/b.txt', 'b');
    await put('dav/c.txt', 'c');
    const password = await createAppPassword(server, carl.token, { name: 'audit removals' });
    const auth = basic('carl', password.password);
    const headers = (to: string) => ({
      ...from('192.0.2.44'),
      destination: `${server.url}/dav${to}`,
      overwrite: 'T',
    });
    expect(
      (await dav(server, 'COPY', '/dav/a.txt', auth, { headers: headers('/dav/b.txt') })).status,
    ).toBe(204);
    expect(
      (await dav(server, 'MOVE', '/dav/c.txt', auth, { headers: headers('/dav/a.txt') })).status,
    ).toBe(204);
    // A new destination replaces nothing.
    expect(
      (await dav(server, 'COPY', '/dav/a.txt', auth, { headers: headers('/dav/new.txt') })).status,
    ).toBe(201);
    const [moved, copied] = (await entries('file.replace')).filter(
      (e) => e.details.via === 'webdav',
    );
    expect(moved).toMatchObject({
      username: 'carl',
      userID: carl.user.id,
      target: '/dav/a.txt',
      address: '192.0.2.44',
      outcome: 'ok',
      details: { method: 'MOVE', from: '/dav/c.txt' },
    });
    expect(copied).toMatchObject({
      target: '/dav/b.txt',
      details: { method: 'COPY', from: '/dav/a.txt' },
    });
  });

  it('by a trash restore that replaces what took the place', async () => {
    await put('restore-me.txt', 'first');
    await server.fetch('/api/resources/restore-me.txt', { method: 'DELETE', token: carl.token });
    await put('restore-me.txt', 'second');
    const item = (await trashOf(carl)).find((i) => i.path === '/restore-me.txt')!;
    const restored = await server.fetch(`/api/trash/${item.id}/restore`, {
      method: 'POST',
      token: carl.token,
      headers: { 'content-type': 'application/json', ...from('192.0.2.50') },
      body: JSON.stringify({ onConflict: 'replace' }),
    });
    expect(restored.status).toBe(200);
    expect(await readFile(home('restore-me.txt'), 'utf8')).toBe('first');
    expect((await entries('file.replace'))[0]).toMatchObject({
      username: 'carl',
      target: '/restore-me.txt',
      address: '192.0.2.50',
      details: { via: 'trash.restore', trash: true },
    });
  });
});

describe('the trash', () => {
  it('records items deleted for good by hand, by emptying, and by retention', async () => {
    for (const name of ['gone-one.txt', 'gone-two.txt', 'gone-old.txt']) {
      await put(name, name);
    }
    const trash = server.runtime.services.trash;
    const start = Date.now();
    trash.clock = () => start - 40 * DAY; // deleted long ago: past the 30 days' retention
    await server.fetch('/api/resources/gone-old.txt', { method: 'DELETE', token: carl.token });
    trash.clock = () => start;
    await server.fetch('/api/resources/gone-one.txt', { method: 'DELETE', token: carl.token });
    await server.fetch('/api/resources/gone-two.txt', { method: 'DELETE', token: carl.token });
    await runJobNow(server.runtime.coordination.scheduler, 'trash.purge');
    const one = (await trashOf(carl)).find((i) => i.path === '/gone-one.txt')!;
    const forGood = await server.fetch(`/api/trash/${one.id}`, {
      method: 'DELETE',
      token: carl.token,
      headers: from('192.0.2.60'),
    });
    expect(forGood.status).toBe(204);
    const emptied = await server.fetch('/api/trash', {
      method: 'DELETE',
      token: carl.token,
      headers: from('192.0.2.61'),
    });
    expect(emptied.status).toBe(200);
    trash.clock = Date.now;
    const gone = (await entries('file.delete')).filter((e) =>
      String(e.details.via).startsWith('trash.'),
    );
    const byPath = new Map(gone.map((e) => [e.target, e]));
    expect(byPath.get('/gone-old.txt')).toMatchObject({
      userID: 0,
      username: '',
      address: '',
      details: { via: 'trash.retention', owner: 'carl' },
    });
    expect(byPath.get('/gone-one.txt')).toMatchObject({
      username: 'carl',
      address: '192.0.2.60',
      details: { via: 'trash.delete', owner: 'carl' },
    });
    expect(byPath.get('/gone-two.txt')).toMatchObject({
      username: 'carl',
      address: '192.0.2.61',
      details: { via: 'trash.empty' },
    });
  });

  it('answers the action filter with 400 for an unknown action and 403 to a non-administrator', async () => {
    const bad = await server.fetch('/api/audit?action=file.vanish', { token: server.admin.token });
    expect(bad.status).toBe(400);
    const refused = await server.fetch('/api/audit?action=file.replace', { token: carl.token });
    expect(refused.status).toBe(403);
  });
});
