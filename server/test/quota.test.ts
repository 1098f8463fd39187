// Storage quotas: refusals (507) of uploads, tus uploads, saves and copies over the quota, the
// usage kept without walking the tree, the reconcile job, and who may set a quota.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuotaUsage, Settings, User } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { filesUnder } from './helpers/resources.ts';
import { OFFSET_CT, TUS, createUpload, eventually, patchChunk } from './helpers/tus.ts';
import { STRONG, createAsAdmin, newUser, send } from './helpers/users.ts';

let server: TestServer;
const { put, read, exists } = filesUnder(() => server.root);

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const KIB = 1024;

/** A user whose scope is a fresh folder holding `initial` bytes, with a quota of `quota`. */
async function userWithQuota(name: string, quota: number, initial = 0): Promise<TestUser> {
  if (initial > 0) await put(`${name}/start.bin`, Buffer.alloc(initial, 1));
  else await put(`${name}/.keep`, '');
  return server.createUser({ username: name, scope: `/${name}`, quota });
}

async function usageOf(user: TestUser): Promise<QuotaUsage> {
  const res = await server.fetch('/api/quota', { token: user.token });
  expect(res.status).toBe(200);
  return (await res.json()) as QuotaUsage;
}

const upload = (user: TestUser, p: string, body: Buffer | string, query = '') =>
  server.fetch(`/api/resources${p}${query}`, { method: 'POST', body, token: user.token });

/** The 507 reply names the quota and the usage in words. */
async function expectRefused(res: Response, used: string, quota: string): Promise<void> {
  expect(res.status).toBe(507);
  expect(await res.text()).toBe(
    `507 Insufficient Storage (This would exceed your quota: ${used} of ${quota} used)\n`,
  );
}

describe('GET /api/quota', () => {
  it('answers zeros for a user without a quota', async () => {
    const free = await server.createUser({ username: 'free', scope: '/free' });
    await put('free/big.bin', Buffer.alloc(5000));
    expect(await usageOf(free)).toEqual({ used: 0, quota: 0 });
  });

  it('answers the bytes under the scope and the quota', async () => {
    const u = await userWithQuota('counted', 10 * KIB, 3000);
    await put('counted/sub/more.bin', Buffer.alloc(500));
    expect(await usageOf(u)).toEqual({ used: 3500, quota: 10 * KIB });
  });

  it('needs a session', async () => {
    expect((await server.fetch('/api/quota')).status).toBe(401);
  });

  it('leaves the wire /api/usage (disk usage of a folder) as filebrowser clients know it', async () => {
    const res = await server.fetch('/api/usage/', { token: server.admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(['total', 'used']);
  });
});

describe('refusals with 507', () => {
  it('refuses a POST upload over the quota and keeps nothing; one under it works', async () => {
    const u = await userWithQuota('poster', 4 * KIB, 3 * KIB);
    await expectRefused(await upload(u, '/big.bin', Buffer.alloc(2 * KIB)), '3 KiB', '4 KiB');
    expect(exists('poster/big.bin')).toBe(false);
    const ok = await upload(u, '/small.bin', Buffer.alloc(KIB));
    expect(ok.status).toBe(200);
    expect(await usageOf(u)).toEqual({ used: 4 * KIB, quota: 4 * KIB });
    // Full: not one more byte, but replacing a file with a smaller one frees room.
    await expectRefused(await upload(u, '/one.bin', 'x'), '4 KiB', '4 KiB');
    const smaller = await upload(u, '/small.bin', 'tiny', '?override=true');
    expect(smaller.status).toBe(200);
    expect((await usageOf(u)).used).toBe(3 * KIB + 4);
  });

  it('refuses a streamed body without Content-Length once it passes the quota', async () => {
    const u = await userWithQuota('streamer', 2 * KIB);
    const chunks = [Buffer.alloc(KIB, 1), Buffer.alloc(KIB, 2), Buffer.alloc(KIB, 3)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const res = await server.fetch('/api/resources/stream.bin', {
      method: 'POST',
      body,
      token: u.token,
      duplex: 'half',
    } as RequestInit & { token: string });
    await expectRefused(res, '0 B', '2 KiB');
    expect(exists('streamer/stream.bin')).toBe(false);
    expect((await usageOf(u)).used).toBe(0);
  });

  it('refuses an editor save that grows a file past the quota; a save that fits works', async () => {
    const u = await userWithQuota('saver', 2 * KIB);
    expect((await upload(u, '/note.txt', 'a'.repeat(1000))).status).toBe(200);
    const save = (body: string) =>
      server.fetch('/api/resources/note.txt', { method: 'PUT', body, token: u.token });
    await expectRefused(await save('b'.repeat(3000)), '1000 B', '2 KiB');
    expect(read('saver/note.txt')).toBe('a'.repeat(1000));
    expect((await save('c'.repeat(2000))).status).toBe(200);
    expect(await usageOf(u)).toEqual({ used: 2000, quota: 2 * KIB });
  });

  it('refuses a copy whose total size does not fit before copying anything', async () => {
    const u = await userWithQuota('copier', 10 * KIB);
    await put('copier/tree/a.bin', Buffer.alloc(2 * KIB));
    await put('copier/tree/deep/b.bin', Buffer.alloc(2 * KIB));
    expect((await usageOf(u)).used).toBe(4 * KIB);
    const copy = (from: string, to: string) =>
      server.fetch(`/api/resources${from}?action=copy&destination=${encodeURIComponent(to)}`, {
        method: 'PATCH',
        token: u.token,
      });
    expect((await copy('/tree', '/tree2')).status).toBe(200);
    expect((await usageOf(u)).used).toBe(8 * KIB);
    await expectRefused(await copy('/tree', '/tree3'), '8 KiB', '10 KiB');
    expect(exists('copier/tree3')).toBe(false);
    // A file copy that fits still works.
    expect((await copy('/tree/a.bin', '/a-copy.bin')).status).toBe(200);
    expect((await usageOf(u)).used).toBe(10 * KIB);
  });

  it('refuses a tus upload at creation, and a PATCH once the upload no longer fits', async () => {
    const u = await userWithQuota('tusser', 4 * KIB, KIB);
    const over = await createUpload(server, u.token, '/over.bin', 4 * KIB);
    await expectRefused(over, '1 KiB', '4 KiB');
    expect(exists('tusser/over.bin')).toBe(false);

    const created = await createUpload(server, u.token, '/fits.bin', 2 * KIB);
    expect(created.status).toBe(201);
    const first = await patchChunk(server, u.token, '/fits.bin', 0, Buffer.alloc(KIB, 7));
    expect(first.status).toBe(204);
    // Another file takes the room the rest of the upload needed.
    expect((await upload(u, '/other.bin', Buffer.alloc(2 * KIB))).status).toBe(200);
    const second = await patchChunk(server, u.token, '/fits.bin', KIB, Buffer.alloc(KIB, 8));
    await expectRefused(second, '3 KiB', '4 KiB');
    expect(exists('tusser/fits.bin')).toBe(false);

    // After a delete the upload fits again, completes and is counted once it lands.
    const removed = await server.fetch('/api/resources/other.bin', {
      method: 'DELETE',
      token: u.token,
    });
    expect(removed.status).toBe(204);
    // A trashed file still counts (docs/quotas.md): emptying the trash makes the room.
    const emptied = await server.fetch('/api/trash', { method: 'DELETE', token: u.token });
    expect(await emptied.json()).toEqual({ removed: 1 });
    const last = await patchChunk(server, u.token, '/fits.bin', KIB, Buffer.alloc(KIB, 8));
    expect(last.status).toBe(204);
    expect(exists('tusser/fits.bin')).toBe(true);
    expect(await usageOf(u)).toEqual({ used: 3 * KIB, quota: 4 * KIB });
  });

  it('checks tus headers it relies on as before (no quota logic for other users)', async () => {
    const res = await createUpload(server, server.admin.token, '/admin-tus.bin', 10, {
      ...TUS,
    });
    expect(res.status).toBe(201);
    const patched = await server.fetch('/api/tus/admin-tus.bin', {
      method: 'PATCH',
      token: server.admin.token,
      headers: { ...TUS, 'Upload-Offset': '0', 'Content-Type': OFFSET_CT },
      body: 'x'.repeat(10),
    });
    expect(patched.status).toBe(204);
  });
});

describe('usage accounting', () => {
  it('follows uploads and deletes without walking the tree, and the reconcile job fixes drift', async () => {
    const u = await userWithQuota('acct', 100 * KIB, 2 * KIB);
    expect((await usageOf(u)).used).toBe(2 * KIB);
    // A change made outside Cabinet is not seen by the incremental count…
    await writeFile(path.join(server.root, 'acct', 'outside.bin'), Buffer.alloc(5 * KIB));
    expect((await upload(u, '/in.bin', Buffer.alloc(3 * KIB))).status).toBe(200);
    expect((await usageOf(u)).used).toBe(5 * KIB);
    const del = await server.fetch('/api/resources/start.bin', {
      method: 'DELETE',
      token: u.token,
    });
    expect(del.status).toBe(204);
    // In the trash the file still counts toward the quota (docs/quotas.md).
    expect((await usageOf(u)).used).toBe(5 * KIB);
    await put('acct/dir/x.bin', Buffer.alloc(KIB));
    await put('acct/dir/y.bin', Buffer.alloc(KIB));
    // (dir was made outside Cabinet: the trash measures it, 2 KiB, when it goes in)
    const delDir = await server.fetch('/api/resources/dir', { method: 'DELETE', token: u.token });
    expect(delDir.status).toBe(204);
    expect((await usageOf(u)).used).toBe(5 * KIB);
    // Emptying the trash frees what its items measured: 2 KiB and 2 KiB.
    const emptied = await server.fetch('/api/trash', { method: 'DELETE', token: u.token });
    expect(await emptied.json()).toEqual({ removed: 2 });
    expect((await usageOf(u)).used).toBe(KIB);

    // …until the reconcile job, run by the scheduler, recounts the scope.
    const { scheduler } = server.runtime.coordination;
    expect((await scheduler.list('quota.reconcile')).length).toBeGreaterThan(0);
    await scheduler.schedule('quota.reconcile', Date.now() - 1, null, { key: 'quota-test-run' });
    // The running scheduler may claim the due job first; either way it runs once, then is gone.
    await scheduler.runDue();
    await eventually(
      async () =>
        !(await scheduler.list('quota.reconcile')).some((j) => j.key === 'quota-test-run'),
      10_000,
      'the reconcile run',
    );
    expect((await usageOf(u)).used).toBe(8 * KIB);
  });

  it('counts a write in a shared folder for every user whose scope holds it', async () => {
    const outer = await userWithQuota('team', 100 * KIB);
    await put('team/inner/.keep', '');
    const inner = await server.createUser({
      username: 'inner',
      scope: '/team/inner',
      quota: 50 * KIB,
    });
    expect((await usageOf(outer)).used).toBe(0);
    expect((await usageOf(inner)).used).toBe(0);
    expect((await upload(inner, '/f.bin', Buffer.alloc(2 * KIB))).status).toBe(200);
    expect((await usageOf(inner)).used).toBe(2 * KIB);
    expect((await usageOf(outer)).used).toBe(2 * KIB);
    // A move out of the inner folder leaves the outer user's usage alone, not the inner one's.
    const moved = await server.fetch(
      `/api/resources/inner/f.bin?action=rename&destination=${encodeURIComponent('/moved.bin')}`,
      { method: 'PATCH', token: outer.token },
    );
    expect(moved.status).toBe(200);
    expect((await usageOf(inner)).used).toBe(0);
    expect((await usageOf(outer)).used).toBe(2 * KIB);
  });

  it('the reconcile forgets scopes no quota needs any more', async () => {
    const u = await userWithQuota('dropped', 10 * KIB, KIB);
    expect((await usageOf(u)).used).toBe(KIB);
    await server.ctx.store.users.update({ ...u.user, quota: 0 });
    await server.runtime.services.quota.reconcile();
    expect(await server.ctx.store.quotaUsage.used('dropped')).toBeUndefined();
  });
});

describe('setting quotas', () => {
  const putUser = (token: string, id: number, which: string[], data: Partial<User>, pw?: string) =>
    send(server, 'PUT', `/api/users/${id}`, token, {
      what: 'user',
      which,
      ...(pw !== undefined && { current_password: pw }),
      data: { id, ...data },
    });

  it('lets an admin set a quota, which the user then reads and is held to', async () => {
    const u = await server.createUser({ username: 'limited', scope: '/limited' });
    await put('limited/a.bin', Buffer.alloc(KIB));
    const res = await putUser(server.admin.token, u.user.id, ['quota'], { quota: 1500 });
    expect(res.status).toBe(200);
    expect((await server.ctx.store.users.byId(u.user.id))!.quota).toBe(1500);
    const read = (await (
      await server.fetch(`/api/users/${u.user.id}`, { token: server.admin.token })
    ).json()) as User;
    expect(read.quota).toBe(1500);
    expect(await usageOf(u)).toEqual({ used: KIB, quota: 1500 });
    await expectRefused(await upload(u, '/b.bin', Buffer.alloc(KIB)), '1 KiB', '1.5 KiB');
  });

  it('refuses a non-admin changing their own quota', async () => {
    const u = await server.createUser({ username: 'sneaky', scope: '/sneaky', quota: 100 });
    const res = await putUser(u.token, u.user.id, ['quota'], { quota: 0 }, u.password);
    expect(res.status).toBe(403);
    expect((await server.ctx.store.users.byId(u.user.id))!.quota).toBe(100);
  });

  it('refuses a quota that is not a whole number of bytes', async () => {
    const u = await server.createUser({ username: 'badquota', scope: '/badquota' });
    for (const quota of [-1, 1.5, '10 GB']) {
      const res = await send(server, 'PUT', `/api/users/${u.user.id}`, server.admin.token, {
        what: 'user',
        which: ['quota'],
        data: { id: u.user.id, quota },
      });
      expect(res.status).toBe(400);
    }
  });

  it('keeps the quota when a filebrowser client replaces a user without the field', async () => {
    const u = await server.createUser({ username: 'legacy', scope: '/legacy', quota: 777 });
    const { quota: _q, ...wire } = (await (
      await server.fetch(`/api/users/${u.user.id}`, { token: server.admin.token })
    ).json()) as User;
    const res = await putUser(
      server.admin.token,
      u.user.id,
      ['all'],
      { ...wire, locale: 'fr', password: '' },
      server.admin.password,
    );
    expect(res.status).toBe(200);
    const after = (await server.ctx.store.users.byId(u.user.id))!;
    expect(after).toMatchObject({ locale: 'fr', quota: 777 });
  });

  it('gives new users the default quota, kept when a settings PUT omits it', async () => {
    const settings = (await (
      await server.fetch('/api/settings', { token: server.admin.token })
    ).json()) as Settings;
    expect(settings.defaults.quota).toBe(0);
    const withQuota = { ...settings, defaults: { ...settings.defaults, quota: 5000 } };
    const set = await send(server, 'PUT', '/api/settings', server.admin.token, withQuota);
    expect(set.status).toBe(200);
    const { quota: _q, ...legacyDefaults } = withQuota.defaults;
    const legacy = await send(server, 'PUT', '/api/settings', server.admin.token, {
      ...withQuota,
      defaults: legacyDefaults,
    });
    expect(legacy.status).toBe(200);
    expect((await server.ctx.settings.get()).defaults.quota).toBe(5000);
    const created = await createAsAdmin(server, newUser({ username: 'defaulted' }));
    expect(created.status).toBe(201);
    expect((await server.ctx.store.users.byUsername('defaulted'))!.quota).toBe(5000);
    const explicit = await createAsAdmin(
      server,
      newUser({ username: 'explicit', password: STRONG, quota: 0 }),
    );
    expect(explicit.status).toBe(201);
    expect((await server.ctx.store.users.byUsername('explicit'))!.quota).toBe(0);
    await send(server, 'PUT', '/api/settings', server.admin.token, settings);
  });
});
