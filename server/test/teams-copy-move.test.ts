import { mkdir, readdir, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileJob, NewFileJob } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { eventually } from './helpers/eventually.ts';
import { type Access, EDIT, VIEW, callAs, putFile, shareWithUser } from './helpers/teams.ts';

let server: TestServer;
let admin: TestUser;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

const put = (relative: string, content = 'x') => putFile(server, relative, content);

const real = (relative: string) => path.join(server.root, relative);
const text = (relative: string) => readFile(real(relative), 'utf8');
const missing = (relative: string) => expect(stat(real(relative))).rejects.toThrow();

/** Runs a copy or move job to its end; returns it (done or failed). */
async function job(user: TestUser, body: NewFileJob): Promise<FileJob> {
  const res = await call(user, 'POST', '/api/jobs', body);
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  return eventually(
    async () => (await (await call(user, 'GET', `/api/jobs/${id}`)).json()) as FileJob,
    (found) => found.state === 'done' || found.state === 'failed',
  );
}

async function teamFolder(name: string, folder: string, to: TestUser, access = EDIT, quota = 0) {
  const res = await call(admin, 'POST', '/api/team-folders', {
    name,
    path: folder,
    grantees: [{ kind: 'user', id: to.user.id }],
    access,
    quota,
  });
  expect(res.status).toBe(201);
}

const shareWith = (owner: TestUser, item: string, to: TestUser, access: Access = EDIT) =>
  shareWithUser(server, owner, item, to, access);

async function user(scope: string, extra: { quota?: number } = {}): Promise<TestUser> {
  await mkdir(real(scope), { recursive: true });
  return server.createUser({ scope: `/${scope}`, ...extra });
}

beforeAll(async () => {
  server = await startTestServer();
  admin = server.admin;
});
afterAll(() => server.close());

describe('folders between one’s own files and a grant', () => {
  it('copy and move own folders into an editable team folder, and back out', async () => {
    const amy = await user('users/amy');
    await put('users/amy/album/one.txt', '1');
    await put('users/amy/album/deep/two.txt', '22');
    await put('users/amy/trip/t.txt', 't');
    await mkdir(real('teams/photos'), { recursive: true });
    await teamFolder('Photos', '/teams/photos', amy);
    const copied = await job(amy, {
      kind: 'copy',
      items: [{ from: '/album', to: '/Photos/album' }],
    });
    expect(copied).toMatchObject({ state: 'done', error: null, filesDone: 2 });
    expect(await text('teams/photos/album/deep/two.txt')).toBe('22');
    expect(await text('users/amy/album/one.txt')).toBe('1');
    const moved = await job(amy, { kind: 'move', items: [{ from: '/trip', to: '/Photos/trip' }] });
    expect(moved).toMatchObject({ state: 'done', error: null });
    expect(await text('teams/photos/trip/t.txt')).toBe('t');
    await missing('users/amy/trip');
    // And back out into her own files, through the request route too.
    const back = await call(
      amy,
      'PATCH',
      `/api/resources/Photos/trip?action=rename&destination=${encodeURIComponent('/trip-back')}`,
    );
    expect(back.status).toBe(200);
    expect(await text('users/amy/trip-back/t.txt')).toBe('t');
    await missing('teams/photos/trip');
  });

  it('a view-only grant: folders copy out, but nothing copies or moves in or out of it by moving', async () => {
    const ben = await user('users/ben');
    await put('users/ben/mine/m.txt', 'm');
    await put('teams/ro/set/s.txt', 's');
    await teamFolder('ReadOnly', '/teams/ro', ben, VIEW);
    const out = await job(ben, { kind: 'copy', items: [{ from: '/ReadOnly/set', to: '/set' }] });
    expect(out.state).toBe('done');
    expect(await text('users/ben/set/s.txt')).toBe('s');
    const into = await job(ben, { kind: 'copy', items: [{ from: '/mine', to: '/ReadOnly/mine' }] });
    expect(into).toMatchObject({ state: 'failed', error: { status: 403 } });
    await missing('teams/ro/mine');
    const moveOut = await job(ben, {
      kind: 'move',
      items: [{ from: '/ReadOnly/set', to: '/set-2' }],
    });
    expect(moveOut).toMatchObject({ state: 'failed', error: { status: 403 } });
    expect(await text('teams/ro/set/s.txt')).toBe('s');
    await missing('users/ben/set-2');
  });

  it("the owner's rule-hidden names and links leading out never reach a copy", async () => {
    await put('users/own/proj/open.txt', 'open');
    await put('users/own/proj/private/p.txt', 'p');
    await put('users/own/proj2/open.txt', 'open');
    await put('outside/secret.txt', 'secret');
    await symlink(real('outside'), real('users/own/proj2/out'));
    const own = await server.createUser({
      scope: '/users/own',
      rules: [{ allow: false, path: '/proj/private', regex: false, regexp: { raw: '' } }],
    });
    const cat = await user('users/cat');
    await shareWith(own, '/proj', cat);
    await shareWith(own, '/proj2', cat);
    const hidden = await job(cat, {
      kind: 'copy',
      items: [{ from: '/Shared with me/proj', to: '/proj' }],
    });
    expect(hidden).toMatchObject({ state: 'failed', error: { status: 403 } });
    await missing('users/cat/proj/private');
    const linked = await job(cat, {
      kind: 'copy',
      items: [{ from: '/Shared with me/proj2', to: '/proj2' }],
    });
    expect(linked.state).toBe('done');
    expect((await readdir(real('users/cat/proj2'))).sort()).toEqual(['open.txt']);
  });
});

describe('folders between two grants', () => {
  it("move from a team folder into a share with people lands in the owner's real folder", async () => {
    const dan = await user('users/dan');
    await put('teams/src/batch/b.txt', 'b');
    await put('users/dora/inbox/keep.txt', 'k');
    const dora = await server.createUser({ scope: '/users/dora' });
    await teamFolder('Source', '/teams/src', dan);
    await shareWith(dora, '/inbox', dan);
    const moved = await job(dan, {
      kind: 'move',
      items: [{ from: '/Source/batch', to: '/Shared with me/inbox/batch' }],
    });
    expect(moved).toMatchObject({ state: 'done', error: null });
    expect(await text('users/dora/inbox/batch/b.txt')).toBe('b');
    await missing('teams/src/batch');
  });

  it("the destination's quota refuses a folder that does not fit; the original stays whole", async () => {
    const eli = await user('users/eli');
    await put('users/eli/big/a.bin', '0123456789');
    await put('users/eli/big/b.bin', '0123456789');
    await mkdir(real('teams/tiny'), { recursive: true });
    await teamFolder('Tiny', '/teams/tiny', eli, EDIT, 16);
    const refused = await job(eli, { kind: 'move', items: [{ from: '/big', to: '/Tiny/big' }] });
    expect(refused).toMatchObject({ state: 'failed', error: { status: 507 } });
    await missing('teams/tiny/big');
    expect(await text('users/eli/big/a.bin')).toBe('0123456789');
    expect(await text('users/eli/big/b.bin')).toBe('0123456789');
    // A share's owner's quota holds what lands in their folder.
    const fay = await server.createUser({ scope: '/users/fay', quota: 15 });
    await put('users/fay/drop/.keep', '');
    await shareWith(fay, '/drop', eli);
    expect((await call(fay, 'GET', '/api/quota')).status).toBe(200);
    const over = await job(eli, {
      kind: 'copy',
      items: [{ from: '/big', to: '/Shared with me/drop/big' }],
    });
    expect(over).toMatchObject({ state: 'failed', error: { status: 507 } });
    await missing('users/fay/drop/big');
  });
});
