// Changes inside a grant reach its recipients' event streams under their own path for it
// (docs/teams.md), never anyone without access, never naming what either side's rules hide.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeopleShare } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { openReady, type StreamEvent } from './helpers/event-stream.ts';
import { encodePath } from './helpers/tus.ts';
import { EDIT, callAs } from './helpers/teams.ts';

const changedPath = (p: string) => (event: StreamEvent) =>
  event.type === 'changed' && (event.data as { path: string }).path === p;
const told = (events: StreamEvent[]) =>
  events.filter((e) => e.type === 'changed').map((e) => (e.data as { path: string }).path);

let server: TestServer;
let olga: TestUser;
let pia: TestUser;
let rik: TestUser;
let bob: TestUser;
let share: PeopleShare;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

const real = (relative: string) => path.join(server.root, relative);

beforeAll(async () => {
  server = await startTestServer();
  for (const folder of [
    'users/olga/proj/private',
    'users/pia',
    'users/rik',
    'users/bob',
    'teams/t',
  ])
    await mkdir(real(folder), { recursive: true });
  olga = await server.createUser({
    scope: '/users/olga',
    rules: [{ allow: false, path: '/proj/private', regex: false, regexp: { raw: '' } }],
  });
  pia = await server.createUser({
    scope: '/users/pia',
    hideDotfiles: true,
    rules: [
      { allow: false, path: '/Shared with me/proj/not-for-pia', regex: false, regexp: { raw: '' } },
    ],
  });
  rik = await server.createUser({ scope: '/users/rik' });
  bob = await server.createUser({ scope: '/users/bob' });
  const created = await call(olga, 'POST', '/api/people-shares', {
    path: '/proj',
    grantees: [{ kind: 'user', id: pia.user.id }],
    access: EDIT,
  });
  expect(created.status).toBe(201);
  share = (await created.json()) as PeopleShare;
  const team = await call(server.admin, 'POST', '/api/team-folders', {
    name: 'Team',
    path: '/teams/t',
    grantees: [{ kind: 'user', id: rik.user.id }],
    access: EDIT,
  });
  expect(team.status).toBe(201);
  // Folder watches are added while the index walks the tree.
  server.ctx.search.rebuild();
  await server.ctx.search.settled();
});
afterAll(() => server.close());

describe('live changes inside grants', () => {
  it('reach the recipient under their path for the share, whoever or whatever made them', async () => {
    const stream = await openReady(server.url, { token: pia.token });
    const res = await call(olga, 'POST', `/api/resources${encodePath('/proj/by-owner.txt')}`, 'o');
    expect(res.status).toBe(200);
    await stream.next(changedPath('/Shared with me/proj/by-owner.txt'));
    await writeFile(real('users/olga/proj/by-program.txt'), 'p');
    await stream.next(changedPath('/Shared with me/proj/by-program.txt'));
    stream.close();
  });

  it("never name what the owner's or the recipient's rules hide", async () => {
    const stream = await openReady(server.url, { token: pia.token });
    await writeFile(real('users/olga/proj/private/p.txt'), 'x');
    await writeFile(real('users/olga/proj/.dot'), 'x');
    await writeFile(real('users/olga/proj/not-for-pia'), 'x');
    await writeFile(real('users/olga/outside.txt'), 'x');
    // Written last: once it arrived, whatever came of the writes above came with or before it.
    await writeFile(real('users/olga/proj/visible.txt'), 'x');
    await stream.next(changedPath('/Shared with me/proj/visible.txt'));
    const paths = told(stream.events);
    expect(paths.some((p) => p.includes('private'))).toBe(false);
    expect(paths.some((p) => p.includes('.dot'))).toBe(false);
    expect(paths.some((p) => p.includes('not-for-pia'))).toBe(false);
    expect(paths.some((p) => p.includes('outside'))).toBe(false);
    stream.close();
  });

  it('reach team folder grantees, never a user without access, and stop at revocation', async () => {
    const rikStream = await openReady(server.url, { token: rik.token });
    const bobStream = await openReady(server.url, { token: bob.token });
    await writeFile(real('teams/t/plan.txt'), 'x');
    await rikStream.next(changedPath('/Team/plan.txt'));
    await writeFile(real('users/bob/mine.txt'), 'x');
    await bobStream.next(changedPath('/mine.txt'));
    expect(told(bobStream.events).some((p) => p.includes('plan'))).toBe(false);
    rikStream.close();
    bobStream.close();
    // Revoked: the next change inside no longer reaches the former recipient.
    expect((await call(olga, 'DELETE', `/api/people-shares/${share.id}`)).status).toBe(200);
    const stream = await openReady(server.url, { token: pia.token });
    await writeFile(real('users/olga/proj/after-revoke.txt'), 'x');
    await writeFile(real('users/pia/own.txt'), 'x');
    await stream.next(changedPath('/own.txt'));
    expect(told(stream.events).some((p) => p.includes('after-revoke'))).toBe(false);
    stream.close();
  });
});

describe('a shared item moved or deleted by its owner', () => {
  it('tells its recipient, whose open pages re-read it', async () => {
    await mkdir(real('users/olga/notes'), { recursive: true });
    const stream = await openReady(server.url, { token: pia.token });
    const heard = () => stream.events.filter((event) => event.type === 'shared').length;
    const sharedNames = async () => {
      const res = await call(pia, 'GET', `/api/resources${encodePath('/Shared with me')}`);
      if (res.status !== 200) return [];
      return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name);
    };
    const created = await call(olga, 'POST', '/api/people-shares', {
      path: '/notes',
      grantees: [{ kind: 'user', id: pia.user.id }],
      access: EDIT,
    });
    expect(created.status).toBe(201);
    await expect.poll(heard).toBe(1);

    const destination = encodeURIComponent('/notes-2026');
    const renamed = await call(
      olga,
      'PATCH',
      `/api/resources/notes?action=rename&destination=${destination}`,
    );
    expect(renamed.status).toBe(200);
    await expect.poll(heard).toBe(2);
    expect(await sharedNames()).toContain('notes-2026');

    const deleted = await call(olga, 'DELETE', '/api/resources/notes-2026');
    expect(deleted.status).toBe(204);
    await expect.poll(heard).toBe(3);
    expect(await sharedNames()).not.toContain('notes-2026');
    stream.close();
  });
});
