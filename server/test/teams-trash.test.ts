import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrashItem } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { encodePath } from './helpers/tus.ts';
import { type Access, EDIT, VIEW, callAs, putFile, shareWithUser } from './helpers/teams.ts';

let server: TestServer;
let admin: TestUser;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

const put = (relative: string, content = 'x') => putFile(server, relative, content);

async function trashOf(user: TestUser, query = ''): Promise<TrashItem[]> {
  const res = await call(user, 'GET', `/api/trash${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as TrashItem[];
}

async function usageOf(user: TestUser): Promise<{ used: number; quota: number }> {
  const res = await call(user, 'GET', '/api/quota');
  expect(res.status).toBe(200);
  return (await res.json()) as { used: number; quota: number };
}

const shareWith = (owner: TestUser, item: string, to: TestUser, access: Access) =>
  shareWithUser(server, owner, item, to, access);

const del = (user: TestUser, virtual: string) =>
  call(user, 'DELETE', `/api/resources${encodePath(virtual)}`);

beforeAll(async () => {
  server = await startTestServer();
  admin = server.admin;
});
afterAll(() => server.close());

describe('deletes inside a share with people', () => {
  it("go to the owner's trash, are listed for the deleter too and restore back into the grant", async () => {
    await put('users/owa/proj/a.txt', 'aaaa');
    await put('users/owa/proj/sub/b.txt', 'bb');
    const owa = await server.createUser({ scope: '/users/owa', quota: 1_000_000 });
    await mkdir(path.join(server.root, 'users/rob'), { recursive: true });
    const rob = await server.createUser({ scope: '/users/rob', quota: 1_000_000 });
    await shareWith(owa, '/proj', rob, EDIT);
    const before = await usageOf(owa);
    expect((await del(rob, '/Shared with me/proj/a.txt')).ok).toBe(true);
    await expect(stat(path.join(server.root, 'users/owa/proj/a.txt'))).rejects.toThrow();
    // The owner sees it under their own path, deleted by the recipient.
    const owners = await trashOf(owa);
    expect(owners).toEqual([
      expect.objectContaining({
        name: 'a.txt',
        path: '/proj/a.txt',
        userID: owa.user.id,
        deletedBy: rob.user.username,
        size: 4,
      }),
    ]);
    // The deleter sees the same item under its path in their view.
    const robs = await trashOf(rob);
    expect(robs).toEqual([
      expect.objectContaining({ id: owners[0]!.id, path: '/Shared with me/proj/a.txt' }),
    ]);
    // The trashed bytes are the owner's, like bytes written there; never the deleter's.
    expect(await usageOf(owa)).toEqual(before);
    expect((await usageOf(rob)).used).toBe(0);
    // The deleter may not delete it for good: it is the owner's.
    expect((await call(rob, 'DELETE', `/api/trash/${owners[0]!.id}`)).status).toBe(403);
    // Restored by the deleter: back into the grant, the owner's real folder.
    const restored = await call(rob, 'POST', `/api/trash/${owners[0]!.id}/restore`, {});
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({ path: '/Shared with me/proj/a.txt' });
    expect(await readFile(path.join(server.root, 'users/owa/proj/a.txt'), 'utf8')).toBe('aaaa');
    expect(await trashOf(owa)).toEqual([]);
    expect(await trashOf(rob)).toEqual([]);
    expect(await usageOf(owa)).toEqual(before);
    // A folder deleted by the recipient is restored by the owner at the owner's path.
    expect((await del(rob, '/Shared with me/proj/sub')).ok).toBe(true);
    const folder = (await trashOf(owa))[0]!;
    expect(folder).toMatchObject({ path: '/proj/sub', isDir: true });
    expect((await call(owa, 'POST', `/api/trash/${folder.id}/restore`, {})).status).toBe(200);
    expect(await readFile(path.join(server.root, 'users/owa/proj/sub/b.txt'), 'utf8')).toBe('bb');
  });

  it('access is judged at restore time: view-only refuses, a revoked grant hides it', async () => {
    await put('users/ola/docs/c.txt', 'c');
    const ola = await server.createUser({ scope: '/users/ola' });
    await mkdir(path.join(server.root, 'users/sam'), { recursive: true });
    const sam = await server.createUser({ scope: '/users/sam' });
    const share = await shareWith(ola, '/docs', sam, EDIT);
    expect((await del(sam, '/Shared with me/docs/c.txt')).ok).toBe(true);
    const [item] = await trashOf(sam);
    expect(item).toMatchObject({ path: '/Shared with me/docs/c.txt' });
    // Now view only: still listed (the folder is still theirs to see), the restore is refused.
    const changed = await call(ola, 'PUT', `/api/people-shares/${share.id}`, {
      grantees: [{ kind: 'user', id: sam.user.id }],
      access: VIEW,
    });
    expect(changed.status).toBe(200);
    expect((await trashOf(sam)).map((entry) => entry.id)).toEqual([item!.id]);
    expect((await call(sam, 'POST', `/api/trash/${item!.id}/restore`, {})).status).toBe(403);
    await expect(stat(path.join(server.root, 'users/ola/docs/c.txt'))).rejects.toThrow();
    // Revoked: gone from the deleter's trash, 404 to them; the owner still has it.
    expect((await call(ola, 'DELETE', `/api/people-shares/${share.id}`)).status).toBe(200);
    expect(await trashOf(sam)).toEqual([]);
    expect((await call(sam, 'POST', `/api/trash/${item!.id}/restore`, {})).status).toBe(404);
    expect((await call(sam, 'GET', `/api/trash/${item!.id}/raw`)).status).toBe(404);
    expect((await trashOf(ola)).map((entry) => entry.id)).toEqual([item!.id]);
  });

  it("names the owner's rules hide never reach the deleter's trash", async () => {
    await put('users/oda/work/later-secret.txt', 's');
    const oda = await server.createUser({ scope: '/users/oda' });
    await mkdir(path.join(server.root, 'users/tom'), { recursive: true });
    const tom = await server.createUser({ scope: '/users/tom' });
    await shareWith(oda, '/work', tom, EDIT);
    expect((await del(tom, '/Shared with me/work/later-secret.txt')).ok).toBe(true);
    expect(await trashOf(tom)).toHaveLength(1);
    // The owner's rules now hide the name: the deleter no longer sees or restores it.
    const record = (await server.ctx.store.users.byId(oda.user.id))!;
    await server.ctx.store.users.update({
      ...record,
      rules: [{ allow: false, path: '/work/later-secret.txt', regex: false, regexp: { raw: '' } }],
    });
    expect(await trashOf(tom)).toEqual([]);
    const id = (await trashOf(oda))[0]!.id;
    expect((await call(tom, 'POST', `/api/trash/${id}/restore`, {})).status).toBe(404);
  });

  it('a view-only grant refuses the delete; nothing reaches any trash', async () => {
    await put('users/ona/keep/k.txt', 'k');
    const ona = await server.createUser({ scope: '/users/ona' });
    await mkdir(path.join(server.root, 'users/uma'), { recursive: true });
    const uma = await server.createUser({ scope: '/users/uma' });
    await shareWith(ona, '/keep', uma, VIEW);
    expect((await del(uma, '/Shared with me/keep/k.txt')).status).toBe(403);
    expect(await readFile(path.join(server.root, 'users/ona/keep/k.txt'), 'utf8')).toBe('k');
    expect(await trashOf(uma)).toEqual([]);
    expect(await trashOf(ona)).toEqual([]);
  });
});

describe('deletes inside a team folder', () => {
  it("go to the root's trash: listed for the deleter and administrators, restorable by both", async () => {
    await put('teams/tt/one.txt', '1');
    await put('teams/tt/two.txt', '22');
    const val = await server.createUser({ scope: '/users/val', quota: 1_000_000 });
    await mkdir(path.join(server.root, 'users/val'), { recursive: true });
    const res = await call(admin, 'POST', '/api/team-folders', {
      name: 'Team',
      path: '/teams/tt',
      grantees: [{ kind: 'user', id: val.user.id }],
      access: EDIT,
    });
    expect(res.status).toBe(201);
    expect((await del(val, '/Team/one.txt')).ok).toBe(true);
    expect((await del(val, '/Team/two.txt')).ok).toBe(true);
    const vals = await trashOf(val);
    expect(vals.map((item) => item.path).sort()).toEqual(['/Team/one.txt', '/Team/two.txt']);
    expect(vals.every((item) => item.userID === 0 && item.deletedBy === val.user.username)).toBe(
      true,
    );
    // Not the deleter's bytes.
    expect((await usageOf(val)).used).toBe(0);
    // Administrators see it in everyone's trash under its root path and restore it there.
    const all = await trashOf(admin, '?all=1');
    const two = all.find((item) => item.path === '/teams/tt/two.txt')!;
    expect(two).toMatchObject({ userID: 0 });
    expect((await call(admin, 'POST', `/api/trash/${two.id}/restore`, {})).status).toBe(200);
    expect(await readFile(path.join(server.root, 'teams/tt/two.txt'), 'utf8')).toBe('22');
    // The deleter restores theirs through the team folder.
    const one = (await trashOf(val))[0]!;
    const back = await call(val, 'POST', `/api/trash/${one.id}/restore`, {});
    expect(await back.json()).toMatchObject({ path: '/Team/one.txt' });
    expect(await readFile(path.join(server.root, 'teams/tt/one.txt'), 'utf8')).toBe('1');
  });
});
