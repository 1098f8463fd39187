import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TrashItem } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { filesUnder } from './helpers/resources.ts';
import { runJobNow } from './helpers/run-job-now.ts';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;
const files = filesUnder(() => server.root);
const DAY = 24 * 60 * 60 * 1000;

const del = (user: TestUser, p: string) =>
  server.fetch(`/api/resources${p}`, { method: 'DELETE', token: user.token });

async function trashOf(user: TestUser, query = ''): Promise<TrashItem[]> {
  const response = await server.fetch(`/api/trash${query}`, { token: user.token });
  expect(response.status).toBe(200);
  return (await response.json()) as TrashItem[];
}

async function itemAt(user: TestUser, p: string): Promise<TrashItem> {
  const item = (await trashOf(user)).find((entry) => entry.path === p);
  expect(item, `trash item of ${p}`).toBeDefined();
  return item!;
}

const restore = (user: TestUser, id: string, body?: unknown) =>
  server.fetch(`/api/trash/${id}/restore`, {
    method: 'POST',
    token: user.token,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });

const setTrash = (settings: object) =>
  server.fetch('/api/trash/settings', {
    method: 'PUT',
    token: server.admin.token,
    body: JSON.stringify({ enabled: true, retentionDays: 30, maxBytesPerUser: 0, ...settings }),
    headers: { 'content-type': 'application/json' },
  });

/** Runs the scheduler's purge job now, as the recurring job would when due. */
const runPurge = () => runJobNow(server.runtime.coordination.scheduler, 'trash.purge');

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.createUser({ scope: '/users/alice' });
  bob = await server.createUser({ scope: '/users/bob' });
});
afterAll(() => server.close());
beforeEach(async () => {
  expect((await setTrash({})).status).toBe(200);
  server.runtime.services.trash.clock = Date.now;
});

describe('delete → trash → restore', () => {
  it('moves a deleted file to the trash and restores it to its place', async () => {
    await files.put('users/alice/docs/report.txt', 'quarterly');
    const response = await del(alice, '/docs/report.txt');
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    expect(files.exists('users/alice/docs/report.txt')).toBe(false);
    expect(
      (await server.fetch('/api/resources/docs/report.txt', { token: alice.token })).status,
    ).toBe(404);

    const item = await itemAt(alice, '/docs/report.txt');
    expect(item).toMatchObject({
      name: 'report.txt',
      isDir: false,
      size: 9,
      username: alice.user.username,
    });
    expect(item.deletedBy).toBe(alice.user.username);

    const raw = await server.fetch(`/api/trash/${item.id}/raw?auth=${alice.token}`);
    expect(raw.status).toBe(200);
    expect(await raw.text()).toBe('quarterly');

    const restored = await restore(alice, item.id);
    expect(restored.status).toBe(200);
    expect(await restored.json()).toEqual({ path: '/docs/report.txt' });
    expect(files.read('users/alice/docs/report.txt')).toBe('quarterly');
    expect((await trashOf(alice)).some((entry) => entry.id === item.id)).toBe(false);
    expect(await readdir(path.join(server.dataDir, 'trash', String(alice.user.id)))).toEqual([]);
  });

  it('keeps a folder whole and sums its size', async () => {
    await files.put('users/alice/album/a.jpg', 'aaaa');
    await files.put('users/alice/album/sub/b.jpg', 'bb');
    expect((await del(alice, '/album')).status).toBe(204);
    const item = await itemAt(alice, '/album');
    expect(item).toMatchObject({ isDir: true, size: 6 });
    expect((await server.fetch(`/api/trash/${item.id}/raw`, { token: alice.token })).status).toBe(
      404,
    );
    expect((await restore(alice, item.id)).status).toBe(200);
    expect(files.read('users/alice/album/sub/b.jpg')).toBe('bb');
  });

  it('re-creates a parent folder that was deleted meanwhile', async () => {
    await files.put('users/alice/gone/deep/note.txt', 'n');
    expect((await del(alice, '/gone/deep/note.txt')).status).toBe(204);
    const item = await itemAt(alice, '/gone/deep/note.txt');
    expect((await del(alice, '/gone')).status).toBe(204);
    expect((await restore(alice, item.id)).status).toBe(200);
    expect(files.read('users/alice/gone/deep/note.txt')).toBe('n');
  });

  it('restores to the original path after the parent was renamed', async () => {
    await files.put('users/alice/old/f.txt', 'f');
    expect((await del(alice, '/old/f.txt')).status).toBe(204);
    const item = await itemAt(alice, '/old/f.txt');
    const moved = await server.fetch(
      `/api/resources/old?action=rename&destination=${encodeURIComponent('/new')}`,
      {
        method: 'PATCH',
        token: alice.token,
      },
    );
    expect(moved.status).toBe(200);
    expect((await restore(alice, item.id)).status).toBe(200);
    expect(files.read('users/alice/old/f.txt')).toBe('f');
    expect(files.exists('users/alice/new')).toBe(true);
  });
});

describe('a clash on restore', () => {
  it('answers 409 restore_conflict, then replaces or keeps both', async () => {
    await files.put('users/alice/clash.txt', 'first');
    expect((await del(alice, '/clash.txt')).status).toBe(204);
    const first = await itemAt(alice, '/clash.txt');
    await files.put('users/alice/clash.txt', 'second');

    const refused = await restore(alice, first.id);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ code: 'restore_conflict' });
    expect(files.read('users/alice/clash.txt')).toBe('second');

    const kept = await restore(alice, first.id, { onConflict: 'keep-both' });
    expect(kept.status).toBe(200);
    expect(await kept.json()).toEqual({ path: '/clash(1).txt' });
    expect(files.read('users/alice/clash(1).txt')).toBe('first');
    expect(files.read('users/alice/clash.txt')).toBe('second');

    expect((await del(alice, '/clash(1).txt')).status).toBe(204);
    const again = await itemAt(alice, '/clash(1).txt');
    await files.put('users/alice/clash(1).txt', 'third');
    const replaced = await restore(alice, again.id, { onConflict: 'replace' });
    expect(replaced.status).toBe(200);
    expect(files.read('users/alice/clash(1).txt')).toBe('first');
    // The replaced item went to the trash in turn.
    expect((await trashOf(alice)).some((entry) => entry.path === '/clash(1).txt')).toBe(true);
  });

  it('refuses an unknown choice', async () => {
    await files.put('users/alice/bad-choice.txt');
    expect((await del(alice, '/bad-choice.txt')).status).toBe(204);
    const item = await itemAt(alice, '/bad-choice.txt');
    expect((await restore(alice, item.id, { onConflict: 'merge' })).status).toBe(400);
  });
});

describe('purging', () => {
  it('purges items past the retention period when the scheduler runs (clock injected)', async () => {
    const trash = server.runtime.services.trash;
    const start = Date.now();
    trash.clock = () => start;
    await files.put('users/bob/old.txt', 'old');
    expect((await del(bob, '/old.txt')).status).toBe(204);
    trash.clock = () => start + 2 * DAY;
    await files.put('users/bob/young.txt', 'young');
    expect((await del(bob, '/young.txt')).status).toBe(204);
    expect((await setTrash({ retentionDays: 3 })).status).toBe(200);

    trash.clock = () => start + 3 * DAY - 1;
    await runPurge();
    expect((await trashOf(bob)).map((item) => item.name).sort()).toEqual(['old.txt', 'young.txt']);

    trash.clock = () => start + 3 * DAY + 1;
    await runPurge();
    expect((await trashOf(bob)).map((item) => item.name)).toEqual(['young.txt']);
    trash.clock = () => start + 5 * DAY + 1;
    await runPurge();
    expect(await trashOf(bob)).toEqual([]);
  });

  it('drops the oldest items over the byte cap', async () => {
    const trash = server.runtime.services.trash;
    let now = Date.now();
    for (const name of ['a', 'b', 'c']) {
      trash.clock = () => now;
      await files.put(`users/bob/cap-${name}.bin`, '0123456789');
      expect((await del(bob, `/cap-${name}.bin`)).status).toBe(204);
      now += 1000;
    }
    expect((await setTrash({ maxBytesPerUser: 25 })).status).toBe(200);
    await runPurge();
    expect((await trashOf(bob)).map((item) => item.name).sort()).toEqual([
      'cap-b.bin',
      'cap-c.bin',
    ]);
    // A delete over the cap purges at once, never the item just deleted.
    trash.clock = () => now;
    await files.put('users/bob/cap-d.bin', '0123456789');
    expect((await del(bob, '/cap-d.bin')).status).toBe(204);
    expect((await trashOf(bob)).map((item) => item.name).sort()).toEqual([
      'cap-c.bin',
      'cap-d.bin',
    ]);
    expect((await server.fetch('/api/trash', { method: 'DELETE', token: bob.token })).status).toBe(
      200,
    );
    expect(await trashOf(bob)).toEqual([]);
  });
});

describe('shares', () => {
  it('a share of a trashed item answers as gone and works again after a restore', async () => {
    await files.put('users/alice/shared.txt', 'public');
    const created = await server.fetch('/api/share/shared.txt', {
      method: 'POST',
      token: alice.token,
      body: '{}',
    });
    const { hash } = (await created.json()) as { hash: string };
    expect((await server.fetch(`/api/public/dl/${hash}`)).status).toBe(200);

    expect((await del(alice, '/shared.txt')).status).toBe(204);
    expect((await server.fetch(`/api/public/share/${hash}`)).status).toBe(404);
    expect((await server.fetch(`/api/public/dl/${hash}`)).status).toBe(404);
    // Something new at the same path is not served by the old link.
    await files.put('users/alice/shared.txt', 'impostor');
    expect((await server.fetch(`/api/public/dl/${hash}`)).status).toBe(404);

    const item = await itemAt(alice, '/shared.txt');
    const kept = await restore(alice, item.id, { onConflict: 'keep-both' });
    expect(await kept.json()).toEqual({ path: '/shared(1).txt' });
    const download = await server.fetch(`/api/public/dl/${hash}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('public');
  });
});

describe('permissions', () => {
  it('another user cannot list, download, restore or delete my items', async () => {
    await files.put('users/alice/private.txt', 'mine');
    expect((await del(alice, '/private.txt')).status).toBe(204);
    const item = await itemAt(alice, '/private.txt');
    expect((await trashOf(bob)).some((entry) => entry.id === item.id)).toBe(false);
    expect(
      (await server.fetch(`/api/trash?user=${alice.user.id}`, { token: bob.token })).status,
    ).toBe(403);
    expect((await server.fetch('/api/trash?all=1', { token: bob.token })).status).toBe(403);
    expect((await server.fetch(`/api/trash/${item.id}/raw`, { token: bob.token })).status).toBe(
      404,
    );
    expect((await restore(bob, item.id)).status).toBe(404);
    expect(
      (await server.fetch(`/api/trash/${item.id}`, { method: 'DELETE', token: bob.token })).status,
    ).toBe(404);
    expect(
      (
        await server.fetch('/api/trash/settings', {
          method: 'PUT',
          token: bob.token,
          body: '{}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(403);
    // Administrators see it and may delete it for good.
    const all = await trashOf(server.admin, '?all=1');
    expect(all.some((entry) => entry.id === item.id)).toBe(true);
    const one = await trashOf(server.admin, `?user=${alice.user.id}`);
    expect(one.every((entry) => entry.userID === alice.user.id)).toBe(true);
    expect(
      (await server.fetch(`/api/trash/${item.id}`, { method: 'DELETE', token: server.admin.token }))
        .status,
    ).toBe(204);
    expect(await trashOf(alice)).not.toContainEqual(expect.objectContaining({ id: item.id }));
    expect((await server.fetch('/api/trash', { token: '' })).status).toBe(401);
  });

  it('a user without delete permission cannot delete, and restore needs create', async () => {
    const reader = await server.createUser({
      scope: '/users/reader',
      perm: { delete: false, create: true },
    });
    await files.put('users/reader/keep.txt');
    expect((await del(reader, '/keep.txt')).status).toBe(403);
    expect(files.exists('users/reader/keep.txt')).toBe(true);

    const noCreate = await server.createUser({
      scope: '/users/nocreate',
      perm: { delete: true, create: false },
    });
    await files.put('users/nocreate/x.txt');
    expect((await del(noCreate, '/x.txt')).status).toBe(204);
    const item = await itemAt(noCreate, '/x.txt');
    expect((await restore(noCreate, item.id)).status).toBe(403);
  });

  it('refuses a restore into a path the rules block', async () => {
    const ruled = await server.createUser({ scope: '/users/ruled' });
    await files.put('users/ruled/later-blocked/f.txt', 'f');
    expect((await del(ruled, '/later-blocked')).status).toBe(204);
    const item = await itemAt(ruled, '/later-blocked');
    // The rules change after the delete (rules apply to paths inside the user's scope):
    await server.updateSettings({
      rules: [{ regex: false, allow: false, path: '/later-blocked', regexp: null }],
    });
    try {
      expect((await restore(ruled, item.id)).status).toBe(403);
      expect(files.exists('users/ruled/later-blocked')).toBe(false);
      expect((await trashOf(ruled)).some((entry) => entry.id === item.id)).toBe(true);
    } finally {
      await server.updateSettings({ rules: [] });
    }
  });
});

describe('trash off', () => {
  it('deletes at once, as filebrowser does', async () => {
    expect((await setTrash({ enabled: false })).status).toBe(200);
    await files.put('users/bob/now.txt');
    const response = await del(bob, '/now.txt');
    expect(response.status).toBe(204);
    expect(files.exists('users/bob/now.txt')).toBe(false);
    expect((await trashOf(bob)).some((entry) => entry.name === 'now.txt')).toBe(false);
    expect((await del(bob, '/now.txt')).status).toBe(404);
  });

  it('refuses invalid settings', async () => {
    expect((await setTrash({ retentionDays: 0 })).status).toBe(400);
    const read = await server.fetch('/api/trash/settings', { token: alice.token });
    expect(await read.json()).toEqual({ enabled: true, retentionDays: 30, maxBytesPerUser: 0 });
  });
});
