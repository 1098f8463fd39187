import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Group, TeamFolder } from '@cabinet/protocol';
import {
  ADMIN_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/test-server.ts';
import { EDIT, callAs } from './helpers/teams.ts';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

beforeAll(async () => {
  server = await startTestServer();
  await mkdir(path.join(server.root, 'teams/design'), { recursive: true });
  await writeFile(path.join(server.root, 'teams/design/brief.txt'), 'brief');
  await symlink('design', path.join(server.root, 'teams/design-link'));
  alice = await server.createUser({ scope: '/users/alice' });
  bob = await server.createUser({ scope: '/users/bob' });
});
afterAll(() => server.close());

describe('groups', () => {
  it('are created, listed, renamed and deleted by administrators only', async () => {
    expect((await call(alice, 'GET', '/api/groups')).status).toBe(403);
    expect((await call(alice, 'POST', '/api/groups', { name: 'x', members: [] })).status).toBe(403);
    const created = await call(server.admin, 'POST', '/api/groups', {
      name: 'Design',
      members: [bob.user.id, alice.user.id],
    });
    expect(created.status).toBe(201);
    const group = (await created.json()) as Group;
    expect(group).toMatchObject({
      name: 'Design',
      members: [alice.user.id, bob.user.id].sort((a, b) => a - b),
      source: 'local',
    });
    const clash = await call(server.admin, 'POST', '/api/groups', { name: 'design', members: [] });
    expect(clash.status).toBe(409);
    const badMember = await call(server.admin, 'POST', '/api/groups', {
      name: 'Other',
      members: [999999],
    });
    expect(badMember.status).toBe(400);
    expect((await call(alice, 'PUT', `/api/groups/${group.id}`, group)).status).toBe(403);
    const renamed = await call(server.admin, 'PUT', `/api/groups/${group.id}`, {
      name: 'Designers',
      members: [bob.user.id],
    });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: 'Designers', members: [bob.user.id] });
    const listed = (await (await call(server.admin, 'GET', '/api/groups')).json()) as Group[];
    expect(listed.map((g) => g.name)).toContain('Designers');
    // The user object carries its groups; the user's groups can be replaced.
    const bobJson = (await (
      await call(server.admin, 'GET', `/api/users/${bob.user.id}`)
    ).json()) as {
      groups: number[];
    };
    expect(bobJson.groups).toEqual([group.id]);
    expect(
      (await call(bob, 'PUT', `/api/users/${bob.user.id}/groups`, { groups: [] })).status,
    ).toBe(403);
    const set = await call(server.admin, 'PUT', `/api/users/${alice.user.id}/groups`, {
      groups: [group.id],
    });
    expect(await set.json()).toEqual([group.id]);
    expect(
      await (await call(server.admin, 'GET', `/api/users/${alice.user.id}/groups`)).json(),
    ).toEqual([group.id]);
    expect((await call(alice, 'DELETE', `/api/groups/${group.id}`)).status).toBe(403);
    expect((await call(server.admin, 'DELETE', `/api/groups/${group.id}`)).status).toBe(200);
    expect((await call(server.admin, 'DELETE', `/api/groups/${group.id}`)).status).toBe(404);
    expect(
      await (await call(server.admin, 'GET', `/api/users/${alice.user.id}/groups`)).json(),
    ).toEqual([]);
  });
});

describe('team folders', () => {
  it('are granted by administrators only, at a real folder of the root', async () => {
    const body = {
      name: 'Design',
      path: '/teams/design-link',
      grantees: [{ kind: 'user', id: alice.user.id }],
      access: EDIT,
    };
    expect((await call(alice, 'POST', '/api/team-folders', body)).status).toBe(403);
    expect((await call(alice, 'GET', '/api/team-folders')).status).toBe(403);
    const missing = await call(server.admin, 'POST', '/api/team-folders', {
      ...body,
      path: '/teams/nope',
    });
    expect(missing.status).toBe(400);
    const badName = await call(server.admin, 'POST', '/api/team-folders', { ...body, name: 'a/b' });
    expect(badName.status).toBe(400);
    const created = await call(server.admin, 'POST', '/api/team-folders', body);
    expect(created.status).toBe(201);
    const folder = (await created.json()) as TeamFolder;
    // Stored where it really is, not by the link's spelling.
    expect(folder).toMatchObject({ name: 'Design', path: '/teams/design', quota: 0 });
    expect(folder.grantees).toEqual([
      { kind: 'user', id: alice.user.id, name: alice.user.username },
    ]);
    const changed = await call(server.admin, 'PUT', `/api/team-folders/${folder.id}`, {
      ...body,
      name: 'Design team',
      quota: 1000,
    });
    expect(await changed.json()).toMatchObject({ name: 'Design team', quota: 1000 });
    expect((await call(alice, 'DELETE', `/api/team-folders/${folder.id}`)).status).toBe(403);
    expect((await call(server.admin, 'DELETE', `/api/team-folders/${folder.id}`)).status).toBe(200);
    expect(await (await call(server.admin, 'GET', '/api/team-folders')).json()).toEqual([]);
  });
});

describe('deleting a user', () => {
  it('takes them out of their groups and ends their shares with people', async () => {
    const gone = await server.createUser({ scope: '/users/gone' });
    await mkdir(path.join(server.root, 'users/gone/stuff'), { recursive: true });
    const group = (await (
      await call(server.admin, 'POST', '/api/groups', { name: 'Leavers', members: [gone.user.id] })
    ).json()) as Group;
    const shared = await call(gone, 'POST', '/api/people-shares', {
      path: '/stuff',
      grantees: [{ kind: 'user', id: bob.user.id }],
      access: EDIT,
    });
    expect(shared.status).toBe(201);
    const deleted = await call(server.admin, 'DELETE', `/api/users/${gone.user.id}`, {
      current_password: ADMIN_PASSWORD,
    });
    expect(deleted.status).toBe(200);
    const groups = (await (await call(server.admin, 'GET', '/api/groups')).json()) as Group[];
    expect(groups.find((g) => g.id === group.id)!.members).toEqual([]);
    expect(await server.ctx.store.teams.peopleSharesOf(gone.user.id)).toEqual([]);
  });
});

describe('people type-ahead', () => {
  it('matches usernames and group names for users who may share, at most 20', async () => {
    await call(server.admin, 'POST', '/api/groups', { name: 'Marketing', members: [] });
    const matches = (await (
      await call(alice, 'GET', `/api/people?q=${encodeURIComponent(bob.user.username)}`)
    ).json()) as { kind: string; name: string }[];
    expect(matches).toContainEqual({ kind: 'user', id: bob.user.id, name: bob.user.username });
    const groups = (await (await call(alice, 'GET', '/api/people?q=mark')).json()) as unknown[];
    expect(groups).toContainEqual(expect.objectContaining({ kind: 'group', name: 'Marketing' }));
    const viewer = await server.createUser({ perm: { share: false } });
    expect((await call(viewer, 'GET', '/api/people?q=a')).status).toBe(403);
  });
});
