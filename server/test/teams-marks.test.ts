// Items inside a shared folder carry the grant's `shared` mark (docs/teams.md); the user's own
// items never do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeopleShare, Resource, TeamFolder } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { encodePath } from './helpers/tus.ts';
import { VIEW, callAs, putFile } from './helpers/teams.ts';

let server: TestServer;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

const put = (relative: string, content = 'x') => putFile(server, relative, content);

async function get(user: TestUser, virtual: string, query = ''): Promise<Response> {
  const res = await call(user, 'GET', `/api/resources${encodePath(virtual)}${query}`);
  expect(res.status).toBe(200);
  return res;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('the shared mark inside grants', () => {
  it('every item of a team folder and of a share carries its grant; own items carry none', async () => {
    await put('teams/m/a.txt', 'a');
    await put('teams/m/sub/b.txt', 'b');
    await put('users/mo/own/c.txt', 'c');
    await put('users/mo/proj/d.txt', 'd');
    await put('users/nia/mine.txt', 'n');
    const mo = await server.createUser({ scope: '/users/mo' });
    const nia = await server.createUser({ scope: '/users/nia' });
    const team = (await (
      await call(server.admin, 'POST', '/api/team-folders', {
        name: 'Marked',
        path: '/teams/m',
        grantees: [{ kind: 'user', id: nia.user.id }],
        access: VIEW,
      })
    ).json()) as TeamFolder;
    const share = (await (
      await call(mo, 'POST', '/api/people-shares', {
        path: '/proj',
        grantees: [{ kind: 'user', id: nia.user.id }],
        access: VIEW,
      })
    ).json()) as PeopleShare;

    const inTeam = (await (await get(nia, '/Marked')).json()) as Resource;
    expect(inTeam.items!.map((item) => [item.name, item.shared]).sort()).toEqual([
      ['a.txt', { kind: 'team', id: team.id, access: VIEW }],
      ['sub', { kind: 'team', id: team.id, access: VIEW }],
    ]);
    const deeper = (await (await get(nia, '/Marked/sub')).json()) as Resource;
    expect(deeper.items![0]!.shared).toMatchObject({ kind: 'team', id: team.id });
    const inShare = (await (await get(nia, '/Shared with me/proj')).json()) as Resource;
    expect(inShare.items![0]).toMatchObject({
      name: 'd.txt',
      shared: { kind: 'people', id: share.id, owner: mo.user.username },
    });
    // A single item's reply carries it too.
    const file = (await (await get(nia, '/Marked/sub/b.txt')).json()) as Resource;
    expect(file.shared).toMatchObject({ kind: 'team', id: team.id });
    // The compact form says it once, in its head, for every entry that follows.
    const compact = await get(nia, '/Marked/sub', '?format=compact');
    const head = JSON.parse((await compact.text()).split('\n')[0]!) as Resource;
    expect(head.shared).toMatchObject({ kind: 'team', id: team.id });
    // Nothing of the user's own is marked; the owner's own listing of the shared folder neither.
    const top = (await (await get(nia, '/')).json()) as Resource;
    expect(top.items!.find((item) => item.name === 'mine.txt')!.shared).toBeUndefined();
    const owners = (await (await get(mo, '/proj')).json()) as Resource;
    expect(owners.items![0]!.shared).toBeUndefined();
    expect(((await (await get(mo, '/own/c.txt')).json()) as Resource).shared).toBeUndefined();
  });
});

describe('search and archives of the top of a view', () => {
  it('cover each grant through its own view, nothing beside it, nothing its owner hides', async () => {
    await put('teams/top/needle-team.txt', 't');
    await put('teams/needle-beside.txt', 'b');
    await put('users/tia/share/needle-shared.txt', 's');
    await put('users/tia/share/private/needle-secret.txt', 'p');
    await put('users/tia/needle-unshared.txt', 'u');
    await put('users/uli/needle-own.txt', 'o');
    const tia = await server.createUser({
      scope: '/users/tia',
      rules: [{ allow: false, path: '/share/private', regex: false, regexp: { raw: '' } }],
    });
    const uli = await server.createUser({ scope: '/users/uli' });
    expect(
      (
        await call(server.admin, 'POST', '/api/team-folders', {
          name: 'Top',
          path: '/teams/top',
          grantees: [{ kind: 'user', id: uli.user.id }],
          access: VIEW,
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await call(tia, 'POST', '/api/people-shares', {
          path: '/share',
          grantees: [{ kind: 'user', id: uli.user.id }],
          access: VIEW,
        })
      ).status,
    ).toBe(201);
    const res = await call(uli, 'GET', '/api/search/?query=needle');
    expect(res.status).toBe(200);
    const found = (await res.text())
      .split('\n')
      .filter((row) => row.trim() !== '')
      .map((row) => (JSON.parse(row) as { path: string }).path)
      .sort();
    expect(found).toEqual([
      'Shared with me/share/needle-shared.txt',
      'Top/needle-team.txt',
      'needle-own.txt',
    ]);
    const archive = await call(uli, 'GET', '/api/raw/?algo=tar');
    expect(archive.status).toBe(200);
    const bytes = Buffer.from(await archive.arrayBuffer()).toString('latin1');
    expect(bytes).toContain('needle-own.txt');
    expect(bytes).toContain('Top/needle-team.txt');
    expect(bytes).toContain('Shared with me/share/needle-shared.txt');
    for (const hidden of ['needle-beside', 'needle-secret', 'needle-unshared'])
      expect(bytes).not.toContain(hidden);
  });
});
