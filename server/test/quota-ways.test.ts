// Quotas on every way bytes land in a scope (issue 38, part 2): WebDAV COPY and MOVE (an
// overwrite and a move across scopes), API copies and moves into another user's folder, trash
// restores, tus uploads with a deferred length and site builds. File requests are in
// file-request.test.ts, POST/PUT/tus/copy refusals of one's own quota in quota.test.ts.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuotaUsage, SiteBuild, TrashItem } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { basic, createAppPassword, dav } from './helpers/dav.ts';
import { filesUnder } from './helpers/resources.ts';
import { TUS } from './helpers/tus.ts';

let server: TestServer;
let adminDav: string;
const { put, exists } = filesUnder(() => server.root);

const KIB = 1024;
const REFUSAL = /^507 Insufficient Storage \(This would exceed your quota: .+ of .+ used\)\n$/;

beforeAll(async () => {
  server = await startTestServer();
  const password = await createAppPassword(server, server.admin.token, { name: 'quota ways' });
  adminDav = basic(server.admin.user.username, password.password);
});
afterAll(() => server.close());

/** A user whose scope is a fresh folder holding `initial` bytes, with a quota of `quota`. */
async function userWithQuota(name: string, quota: number, initial = 0): Promise<TestUser> {
  if (initial > 0) await put(`${name}/start.bin`, Buffer.alloc(initial, 1));
  else await put(`${name}/.keep`, '');
  const user = await server.createUser({ username: name, scope: `/${name}`, quota });
  await usageOf(user); // Counted from now on, as once its user signed in.
  return user;
}

async function usageOf(user: TestUser): Promise<QuotaUsage> {
  const res = await server.fetch('/api/quota', { token: user.token });
  expect(res.status).toBe(200);
  return (await res.json()) as QuotaUsage;
}

async function davFor(user: TestUser): Promise<string> {
  const created = await createAppPassword(server, user.token, { name: 'dav' });
  return basic(user.user.username, created.password);
}

const destination = (p: string) => ({ destination: `${server.url}/dav${p}` });

async function expectRefused(res: Response): Promise<void> {
  expect(res.status).toBe(507);
  expect(await res.text()).toMatch(REFUSAL);
}

describe('WebDAV COPY and MOVE', () => {
  it('refuses an overwriting COPY that does not fit, keeping the destination whole', async () => {
    const u = await userWithQuota('davcopy', 5 * KIB);
    await put('davcopy/big.bin', Buffer.alloc(2 * KIB, 2));
    await put('davcopy/small.bin', 'the original');
    const auth = await davFor(u);
    // With the trash on the replaced file still counts, so the copy needs its whole 2 KiB.
    await put('davcopy/more.bin', Buffer.alloc(KIB, 3));
    await server.runtime.services.quota.reconcile();
    const copy = await dav(server, 'COPY', '/big.bin', auth, {
      headers: { ...destination('/small.bin'), overwrite: 'T' },
    });
    await expectRefused(copy);
    expect(await readFile(path.join(server.root, 'davcopy/small.bin'), 'utf8')).toBe(
      'the original',
    );
    const trash = (await (
      await server.fetch('/api/trash', { token: u.token })
    ).json()) as TrashItem[];
    expect(trash).toEqual([]);
    // A copy that fits replaces the file as before.
    const fits = await dav(server, 'COPY', '/more.bin', auth, {
      headers: { ...destination('/small.bin'), overwrite: 'T' },
    });
    expect(fits.status).toBe(204);
    expect((await readFile(path.join(server.root, 'davcopy/small.bin'))).length).toBe(KIB);
  });

  it('refuses a COPY or MOVE into another user’s full folder, and moves inside a full scope', async () => {
    const owner = await userWithQuota('davowner', 4 * KIB, 3 * KIB);
    await put('outside/three.bin', Buffer.alloc(3 * KIB, 4));
    const copy = await dav(server, 'COPY', '/outside/three.bin', adminDav, {
      headers: destination('/davowner/three.bin'),
    });
    await expectRefused(copy);
    expect(exists('davowner/three.bin')).toBe(false);
    const move = await dav(server, 'MOVE', '/outside/three.bin', adminDav, {
      headers: destination('/davowner/three.bin'),
    });
    await expectRefused(move);
    expect(exists('outside/three.bin')).toBe(true);
    expect(exists('davowner/three.bin')).toBe(false);
    expect(await usageOf(owner)).toEqual({ used: 3 * KIB, quota: 4 * KIB });
    // Bytes that stay in the scope take no room: the owner may move within a full folder.
    const auth = await davFor(owner);
    const inside = await dav(server, 'MOVE', '/start.bin', auth, {
      headers: destination('/renamed.bin'),
    });
    expect(inside.status).toBe(201);
    // What fits lands, and counts for the owner.
    await put('outside/half.bin', Buffer.alloc(KIB / 2));
    const small = await dav(server, 'MOVE', '/outside/half.bin', adminDav, {
      headers: destination('/davowner/half.bin'),
    });
    expect(small.status).toBe(201);
    expect(await usageOf(owner)).toEqual({ used: 3.5 * KIB, quota: 4 * KIB });
  });

  it('still answers 412 and 403 before any quota is judged', async () => {
    const u = await userWithQuota('davbad', KIB);
    await put('davbad/a.bin', Buffer.alloc(10));
    await put('davbad/b.bin', Buffer.alloc(10));
    const auth = await davFor(u);
    const kept = await dav(server, 'COPY', '/a.bin', auth, {
      headers: { ...destination('/b.bin'), overwrite: 'F' },
    });
    expect(kept.status).toBe(412);
    const readOnly = await createAppPassword(server, u.token, { name: 'ro', readOnly: true });
    const refused = await dav(server, 'COPY', '/a.bin', basic('davbad', readOnly.password), {
      headers: destination('/c.bin'),
    });
    expect(refused.status).toBe(403);
    expect(exists('davbad/c.bin')).toBe(false);
  });
});

describe('the files API across scopes', () => {
  it('refuses an administrator’s copy or move into a user’s full folder', async () => {
    const owner = await userWithQuota('apiowner', 2 * KIB, KIB);
    await put('elsewhere/two.bin', Buffer.alloc(2 * KIB));
    const transfer = (action: string) =>
      server.fetch(
        `/api/resources/elsewhere/two.bin?action=${action}&destination=${encodeURIComponent('/apiowner/two.bin')}`,
        { method: 'PATCH', token: server.admin.token },
      );
    await expectRefused(await transfer('copy'));
    await expectRefused(await transfer('rename'));
    expect(exists('elsewhere/two.bin')).toBe(true);
    expect(exists('apiowner/two.bin')).toBe(false);
    // An upload by the administrator into the user's folder is judged by the user's quota too.
    const upload = await server.fetch('/api/resources/apiowner/up.bin', {
      method: 'POST',
      token: server.admin.token,
      body: Buffer.alloc(2 * KIB),
    });
    await expectRefused(upload);
    expect(exists('apiowner/up.bin')).toBe(false);
    // Without a Content-Length too: cut off once it passes the user's room, nothing kept.
    const chunks = [Buffer.alloc(KIB, 1), Buffer.alloc(KIB, 2)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await server.fetch('/api/resources/apiowner/streamed.bin', {
      method: 'POST',
      token: server.admin.token,
      body,
      duplex: 'half',
    } as RequestInit & { token: string });
    await expectRefused(streamed);
    expect(await readdir(path.join(server.root, 'apiowner'))).toEqual(['start.bin']);
    expect(await usageOf(owner)).toEqual({ used: KIB, quota: 2 * KIB });
  });
});

describe('trash restores', () => {
  it('refuse an item that no longer fits the scope it comes back to, and keep it trashed', async () => {
    const owner = await userWithQuota('restored', 4 * KIB);
    await put('restored/doc.bin', Buffer.alloc(3 * KIB, 5));
    await server.runtime.services.quota.reconcile();
    // The administrator deletes it: it leaves the owner's scope (and usage) for the admin's trash.
    const deleted = await server.fetch('/api/resources/restored/doc.bin', {
      method: 'DELETE',
      token: server.admin.token,
    });
    expect(deleted.status).toBe(204);
    expect((await usageOf(owner)).used).toBe(0);
    const upload = await server.fetch('/api/resources/new.bin', {
      method: 'POST',
      token: owner.token,
      body: Buffer.alloc(3 * KIB),
    });
    expect(upload.status).toBe(200);
    const items = (await (
      await server.fetch('/api/trash', { token: server.admin.token })
    ).json()) as TrashItem[];
    const item = items.find((i) => i.path === '/restored/doc.bin')!;
    const restore = () =>
      server.fetch(`/api/trash/${item.id}/restore`, {
        method: 'POST',
        token: server.admin.token,
      });
    await expectRefused(await restore());
    expect(exists('restored/doc.bin')).toBe(false);
    const still = (await (
      await server.fetch('/api/trash', { token: server.admin.token })
    ).json()) as TrashItem[];
    expect(still.map((i) => i.id)).toContain(item.id);
    // Room made (the owner's file deleted and their trash emptied): the restore lands and counts.
    await server.fetch('/api/resources/new.bin', { method: 'DELETE', token: owner.token });
    await server.fetch('/api/trash', { method: 'DELETE', token: owner.token });
    expect((await restore()).status).toBe(200);
    expect(exists('restored/doc.bin')).toBe(true);
    expect(await usageOf(owner)).toEqual({ used: 3 * KIB, quota: 4 * KIB });
  });

  it('of one’s own item are never refused: the trash already counted it', async () => {
    const u = await userWithQuota('ownrestore', 4 * KIB, 3 * KIB);
    await server.fetch('/api/resources/start.bin', { method: 'DELETE', token: u.token });
    expect((await usageOf(u)).used).toBe(3 * KIB);
    const items = (await (
      await server.fetch('/api/trash', { token: u.token })
    ).json()) as TrashItem[];
    const res = await server.fetch(`/api/trash/${items[0]!.id}/restore`, {
      method: 'POST',
      token: u.token,
    });
    expect(res.status).toBe(200);
    expect(await usageOf(u)).toEqual({ used: 3 * KIB, quota: 4 * KIB });
  });
});

describe('tus', () => {
  it('refuses a deferred length (every upload is judged by its length at creation)', async () => {
    const u = await userWithQuota('deferred', KIB);
    const res = await server.fetch('/api/tus/later.bin', {
      method: 'POST',
      token: u.token,
      headers: { ...TUS, 'Upload-Defer-Length': '1' },
    });
    expect(res.status).toBe(400);
    expect(await readdir(path.join(server.root, 'deferred'))).toEqual(['.keep']);
  });
});

describe('site builds', () => {
  it('fail without touching the old output when the new one does not fit', async () => {
    await put('siter/blog/.keep', '');
    const owner = await server.createUser({
      username: 'siter',
      scope: '/siter',
      perm: { create: true, modify: true },
    });
    const created = await server.fetch('/api/sites', {
      method: 'POST',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'quotablog', folder: '/siter/blog', starter: true }),
    });
    expect(created.status).toBe(201);
    const build = async () => {
      const res = await server.fetch('/api/sites/quotablog/build', {
        method: 'POST',
        token: owner.token,
      });
      expect(res.status).toBe(200);
      return (await res.json()) as SiteBuild;
    };
    expect((await build()).ok).toBe(true);
    const output = path.join(server.root, 'siter/blog/public');
    const before = await readdir(output, { recursive: true });
    expect(before.length).toBeGreaterThan(0);
    // Now the scope is full to the byte: the next output (a new post makes it bigger) cannot land.
    await server.ctx.store.users.update({ ...owner.user, quota: 1 });
    await put('siter/blog/content/posts/more.md', '---\ntitle: More\n---\nMore words.\n');
    await server.runtime.services.quota.reconcile();
    const refused = await build();
    expect(refused.ok).toBe(false);
    expect(refused.log).toMatch(/This would exceed your quota/);
    expect(await readdir(output, { recursive: true })).toEqual(before);
    const leftovers = (await readdir(path.join(server.root, 'siter/blog'))).filter(
      (name) => !['public', 'content', 'archetypes', 'layouts', 'static', '.keep'].includes(name),
    );
    expect(leftovers.filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
