import { mkdir, readFile, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeopleShare, Resource, SharedWithMe, TeamFolder } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { basic, dav } from './helpers/dav.ts';
import { createUpload, encodePath, patchChunk } from './helpers/tus.ts';
import { openReady } from './helpers/event-stream.ts';
import { EDIT, VIEW, callAs, putFile } from './helpers/teams.ts';

let server: TestServer;
let admin: TestUser;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

const put = (relative: string, content = 'x') => putFile(server, relative, content);

async function listing(user: TestUser, virtual: string): Promise<Resource> {
  const res = await call(user, 'GET', `/api/resources${encodePath(virtual)}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Resource;
}

async function names(user: TestUser, virtual: string): Promise<string[]> {
  return ((await listing(user, virtual)).items ?? []).map((item) => item.name).sort();
}

async function teamFolder(body: {
  name: string;
  path: string;
  grantees: { kind: 'user' | 'group'; id: number }[];
  access: typeof VIEW;
  quota?: number;
}): Promise<TeamFolder> {
  const res = await call(admin, 'POST', '/api/team-folders', body);
  expect(res.status).toBe(201);
  return (await res.json()) as TeamFolder;
}

beforeAll(async () => {
  server = await startTestServer();
  admin = server.admin;
});
afterAll(() => server.close());

describe('team folders in a grantee view', () => {
  it('show at the top with their mark; a clash with own content is renamed, never hidden', async () => {
    await put('teams/design/brief.txt', 'brief');
    await put('users/ann/Design/mine.txt', 'mine');
    const ann = await server.createUser({ scope: '/users/ann' });
    const folder = await teamFolder({
      name: 'Design',
      path: '/teams/design',
      grantees: [{ kind: 'user', id: ann.user.id }],
      access: VIEW,
    });
    const top = await listing(ann, '/');
    const shown = (top.items ?? []).map((item) => item.name).sort();
    expect(shown).toEqual(['Design', 'Design (team)']);
    const team = top.items!.find((item) => item.name === 'Design (team)')!;
    expect(team).toMatchObject({ isDir: true, path: '/Design (team)' });
    expect(team.shared).toMatchObject({ kind: 'team', id: folder.id, access: VIEW });
    expect(await names(ann, '/Design')).toEqual(['mine.txt']);
    expect(await names(ann, '/Design (team)')).toEqual(['brief.txt']);
    const file = await call(ann, 'GET', `/api/raw${encodePath('/Design (team)/brief.txt')}`);
    expect(await file.text()).toBe('brief');
    // The listing of the folder itself carries the mark.
    expect((await listing(ann, '/Design (team)')).shared).toMatchObject({ kind: 'team' });
    const mine = await call(ann, 'GET', '/api/shared-with-me');
    expect((await mine.json()) as SharedWithMe[]).toEqual([
      expect.objectContaining({ kind: 'team', id: folder.id, path: '/Design (team)', isDir: true }),
    ]);
  });

  it('keep one of their own that differs only in case, on a disk that tells case apart', async () => {
    expect(server.ctx.files.caseInsensitive).toBe(false);
    await put('teams/plans/team.txt', 'team');
    await put('users/cas/plans/own.txt', 'own');
    const cas = await server.createUser({ scope: '/users/cas' });
    await teamFolder({
      name: 'Plans',
      path: '/teams/plans',
      grantees: [{ kind: 'user', id: cas.user.id }],
      access: VIEW,
    });
    expect(((await listing(cas, '/')).items ?? []).map((item) => item.name).sort()).toEqual([
      'Plans',
      'plans',
    ]);
    expect(await names(cas, '/plans')).toEqual(['own.txt']);
    expect(await names(cas, '/Plans')).toEqual(['team.txt']);
  });

  it('view only: every write route refuses (403), the files stay as they were', async () => {
    await put('teams/view/keep.txt', 'keep');
    const vic = await server.createUser({ scope: '/users/vic', password: 'vic-password-long-1' });
    await teamFolder({
      name: 'Docs',
      path: '/teams/view',
      grantees: [{ kind: 'user', id: vic.user.id }],
      access: VIEW,
    });
    const at = (p: string) => `/api/resources${encodePath(p)}`;
    expect((await call(vic, 'POST', at('/Docs/new.txt'), 'new')).status).toBe(403);
    expect((await call(vic, 'PUT', at('/Docs/keep.txt'), 'changed')).status).toBe(403);
    expect((await call(vic, 'POST', at('/Docs/sub/'))).status).toBe(403);
    expect((await call(vic, 'DELETE', at('/Docs/keep.txt'))).status).toBe(403);
    expect(
      (
        await call(
          vic,
          'PATCH',
          `${at('/Docs/keep.txt')}?action=rename&destination=${encodeURIComponent('/Docs/moved.txt')}`,
        )
      ).status,
    ).toBe(403);
    // The virtual folder itself cannot be deleted or renamed.
    expect((await call(vic, 'DELETE', at('/Docs'))).status).toBe(403);
    const auth = basic(vic.user.username, 'vic-password-long-1');
    const davPut = await dav(server, 'PUT', '/Docs/dav.txt', auth, { body: 'dav' });
    expect(davPut.status).toBe(403);
    const tus = await createUpload(server, vic.token, '/Docs/tus.bin', 3);
    if (tus.status === 201) {
      const patched = await patchChunk(server, vic.token, '/Docs/tus.bin', 0, Buffer.from('abc'));
      expect(patched.status).toBe(403);
    } else {
      expect(tus.status).toBe(403);
    }
    expect(await readFile(path.join(server.root, 'teams/view/keep.txt'), 'utf8')).toBe('keep');
    await expect(stat(path.join(server.root, 'teams/view/new.txt'))).rejects.toThrow();
    await expect(stat(path.join(server.root, 'teams/view/tus.bin'))).rejects.toThrow();
    await expect(stat(path.join(server.root, 'teams/view/dav.txt'))).rejects.toThrow();
    // Reading works.
    const res = await dav(server, 'GET', '/Docs/keep.txt', auth);
    expect(await res.text()).toBe('keep');
  });

  it('edit: the stock client calls land in the real folder', async () => {
    await put('teams/edit/a.txt', 'a');
    const eve = await server.createUser({ scope: '/users/eve', password: 'eve-password-long-1' });
    await teamFolder({
      name: 'Work',
      path: '/teams/edit',
      grantees: [{ kind: 'user', id: eve.user.id }],
      access: EDIT,
    });
    const at = (p: string) => `/api/resources${encodePath(p)}`;
    expect((await call(eve, 'POST', at('/Work/b.txt'), 'bee')).status).toBe(200);
    expect(await readFile(path.join(server.root, 'teams/edit/b.txt'), 'utf8')).toBe('bee');
    expect((await call(eve, 'PUT', at('/Work/a.txt'), 'A!')).status).toBe(200);
    expect(await readFile(path.join(server.root, 'teams/edit/a.txt'), 'utf8')).toBe('A!');
    expect((await call(eve, 'POST', at('/Work/sub/'))).status).toBe(200);
    const renamed = await call(
      eve,
      'PATCH',
      `${at('/Work/b.txt')}?action=rename&destination=${encodeURIComponent('/Work/sub/b2.txt')}`,
    );
    expect(renamed.status).toBe(200);
    expect(await readFile(path.join(server.root, 'teams/edit/sub/b2.txt'), 'utf8')).toBe('bee');
    const tus = await createUpload(server, eve.token, '/Work/up.bin', 3);
    expect(tus.status).toBe(201);
    const patched = await patchChunk(server, eve.token, '/Work/up.bin', 0, Buffer.from('xyz'));
    expect(patched.status).toBe(204);
    expect(await readFile(path.join(server.root, 'teams/edit/up.bin'), 'utf8')).toBe('xyz');
    const auth = basic(eve.user.username, 'eve-password-long-1');
    expect((await dav(server, 'PUT', '/Work/dav.txt', auth, { body: 'dav' })).status).toBe(201);
    expect(await readFile(path.join(server.root, 'teams/edit/dav.txt'), 'utf8')).toBe('dav');
    const raw = await call(eve, 'GET', `/api/raw${encodePath('/Work/sub/b2.txt')}`);
    expect(await raw.text()).toBe('bee');
    expect((await call(eve, 'DELETE', at('/Work/sub/b2.txt'))).ok).toBe(true);
    await expect(stat(path.join(server.root, 'teams/edit/sub/b2.txt'))).rejects.toThrow();
    // Copying the user's own file in works; nothing lands in the user's own scope.
    await put('users/eve/own.txt', 'own');
    const copied = await call(
      eve,
      'PATCH',
      `${at('/own.txt')}?action=copy&destination=${encodeURIComponent('/Work/own.txt')}`,
    );
    expect(copied.status).toBe(200);
    expect(await readFile(path.join(server.root, 'teams/edit/own.txt'), 'utf8')).toBe('own');
    await expect(stat(path.join(server.root, 'users/eve/Work'))).rejects.toThrow();
  });

  it('a link inside the folder pointing out of it is refused', async () => {
    await put('teams/linked/in.txt', 'in');
    await put('secret/s.txt', 'secret');
    await symlink('../../secret', path.join(server.root, 'teams/linked/out'));
    const lou = await server.createUser({ scope: '/' });
    await teamFolder({
      name: 'Linked',
      path: '/teams/linked',
      grantees: [{ kind: 'user', id: lou.user.id }],
      access: EDIT,
    });
    // The user's own scope holds /secret, yet through the grant the link stays outside it.
    expect(await names(lou, '/Linked')).toEqual(['in.txt']);
    const res = await call(lou, 'GET', `/api/raw${encodePath('/Linked/out/s.txt')}`);
    expect(res.status).toBe(403);
    const write = await call(
      lou,
      'POST',
      `/api/resources${encodePath('/Linked/out/new.txt')}`,
      'x',
    );
    expect(write.status).toBe(403);
  });

  it('revoking, removing a member and deleting a group hold from the next request', async () => {
    await put('teams/revoke/r.txt', 'r');
    await mkdir(path.join(server.root, 'users/rik'), { recursive: true });
    const rik = await server.createUser({ scope: '/users/rik' });
    const group = (await (
      await call(admin, 'POST', '/api/groups', { name: 'Riks', members: [rik.user.id] })
    ).json()) as { id: number };
    const folder = await teamFolder({
      name: 'Rev',
      path: '/teams/revoke',
      grantees: [{ kind: 'group', id: group.id }],
      access: VIEW,
    });
    expect(await names(rik, '/')).toContain('Rev');
    const events = await openReady(server.url, { token: rik.token });
    await call(admin, 'PUT', `/api/groups/${group.id}`, { name: 'Riks', members: [] });
    await events.next((event) => event.type === 'shared');
    expect(await names(rik, '/')).not.toContain('Rev');
    expect((await call(rik, 'GET', `/api/raw${encodePath('/Rev/r.txt')}`)).status).toBe(404);
    await call(admin, 'PUT', `/api/groups/${group.id}`, { name: 'Riks', members: [rik.user.id] });
    expect(await names(rik, '/')).toContain('Rev');
    await call(admin, 'DELETE', `/api/groups/${group.id}`);
    expect(await names(rik, '/')).not.toContain('Rev');
    await call(admin, 'PUT', `/api/team-folders/${folder.id}`, {
      name: 'Rev',
      path: '/teams/revoke',
      grantees: [{ kind: 'user', id: rik.user.id }],
      access: VIEW,
    });
    expect(await names(rik, '/')).toContain('Rev');
    await call(admin, 'DELETE', `/api/team-folders/${folder.id}`);
    expect(await names(rik, '/')).not.toContain('Rev');
    events.close();
  });
});

describe('search and archives in a team folder', () => {
  it('find and pack what the folder holds, nothing beside it', async () => {
    await put('teams/find/needle-in.txt', 'in');
    await put('teams/needle-beside.txt', 'beside');
    await put('users/sam/needle-own.txt', 'own');
    const sam = await server.createUser({ scope: '/users/sam' });
    await teamFolder({
      name: 'Find',
      path: '/teams/find',
      grantees: [{ kind: 'user', id: sam.user.id }],
      access: VIEW,
    });
    const res = await call(sam, 'GET', `/api/search${encodePath('/Find')}/?query=needle`);
    expect(res.status).toBe(200);
    const found = (await res.text())
      .split('\n')
      .filter((row) => row.trim() !== '')
      .map((row) => (JSON.parse(row) as { path: string }).path);
    expect(found).toEqual(['needle-in.txt']);
    const archive = await call(sam, 'GET', `/api/raw${encodePath('/Find')}/?algo=tar`);
    expect(archive.status).toBe(200);
    const bytes = Buffer.from(await archive.arrayBuffer()).toString('latin1');
    expect(bytes).toContain('needle-in.txt');
    expect(bytes).not.toContain('needle-beside');
    expect(bytes).not.toContain('needle-own');
  });
});

describe('quota and trash in a team folder', () => {
  it('its own quota refuses bytes past it; a delete goes to the trash and can be restored', async () => {
    await put('teams/quota/ten.txt', '0123456789');
    const tia = await server.createUser({ scope: '/users/tia' });
    await teamFolder({
      name: 'Small',
      path: '/teams/quota',
      grantees: [{ kind: 'user', id: tia.user.id }],
      access: EDIT,
      quota: 16,
    });
    const at = (p: string) => `/api/resources${encodePath(p)}`;
    expect((await call(tia, 'POST', at('/Small/five.txt'), '12345')).status).toBe(200);
    const over = await call(tia, 'POST', at('/Small/more.txt'), '1234567890');
    expect(over.status).toBe(507);
    await expect(stat(path.join(server.root, 'teams/quota/more.txt'))).rejects.toThrow();
    // Deleting frees it, into the trash of the one who deleted it; restoring brings it back.
    expect((await call(tia, 'DELETE', at('/Small/ten.txt'))).ok).toBe(true);
    await expect(stat(path.join(server.root, 'teams/quota/ten.txt'))).rejects.toThrow();
    const trash = (await (await call(tia, 'GET', '/api/trash')).json()) as {
      id: string;
      path: string;
    }[];
    const item = trash.find((entry) => entry.path === '/Small/ten.txt')!;
    expect(item).toBeDefined();
    const restored = await call(tia, 'POST', `/api/trash/${item.id}/restore`, {});
    expect(restored.ok).toBe(true);
    expect(await readFile(path.join(server.root, 'teams/quota/ten.txt'), 'utf8')).toBe(
      '0123456789',
    );
  });
});

describe('shares with people', () => {
  it('appear under "Shared with me", can be left, follow renames and end with deletion', async () => {
    await put('users/olga/reports/q1.txt', 'q1');
    await put('users/olga/notes.txt', 'notes');
    const olga = await server.createUser({ scope: '/users/olga' });
    await mkdir(path.join(server.root, 'users/pia'), { recursive: true });
    const pia = await server.createUser({ scope: '/users/pia' });
    const created = await call(olga, 'POST', '/api/people-shares', {
      path: '/reports',
      grantees: [{ kind: 'user', id: pia.user.id }],
      access: VIEW,
    });
    expect(created.status).toBe(201);
    const share = (await created.json()) as PeopleShare;
    expect(share).toMatchObject({ path: '/reports', isDir: true, owner: olga.user.username });
    expect(await names(pia, '/')).toEqual(['Shared with me']);
    const top = await listing(pia, '/');
    expect(top.items![0]!.shared).toEqual({ kind: 'shared-with-me' });
    expect(await names(pia, '/Shared with me')).toEqual(['reports']);
    expect(await names(pia, '/Shared with me/reports')).toEqual(['q1.txt']);
    const who = await call(
      olga,
      'GET',
      `/api/people-shares?path=${encodeURIComponent('/reports')}`,
    );
    expect(((await who.json()) as PeopleShare[])[0]!.grantees).toEqual([
      { kind: 'user', id: pia.user.id, name: pia.user.username },
    ]);
    // View only: the recipient cannot write; the owner's other files are out of reach.
    const write = await call(
      pia,
      'POST',
      `/api/resources${encodePath('/Shared with me/reports/x')}`,
      'x',
    );
    expect(write.status).toBe(403);
    const sibling = await call(
      pia,
      'GET',
      `/api/raw${encodePath('/Shared with me/reports/../notes.txt')}`,
    );
    expect(sibling.status).toBe(404);
    // The owner renames the folder: the share follows.
    const moved = await call(
      olga,
      'PATCH',
      `/api/resources/reports?action=rename&destination=${encodeURIComponent('/reports-2025')}`,
    );
    expect(moved.status).toBe(200);
    expect(await names(pia, '/Shared with me')).toEqual(['reports-2025']);
    const mine = (await (await call(pia, 'GET', '/api/shared-with-me')).json()) as SharedWithMe[];
    expect(mine).toEqual([
      expect.objectContaining({
        kind: 'people',
        id: share.id,
        path: '/Shared with me/reports-2025',
      }),
    ]);
    // Leaving hides it; the owner's list no longer names the recipient.
    expect((await call(pia, 'POST', `/api/shared-with-me/people/${share.id}/leave`)).status).toBe(
      200,
    );
    expect(await names(pia, '/')).toEqual([]);
    const after = (await (await call(olga, 'GET', '/api/people-shares')).json()) as PeopleShare[];
    expect(after[0]!.grantees).toEqual([]);
    // Shared again, then deleted by the owner: it ends.
    const again = (await (
      await call(olga, 'POST', '/api/people-shares', {
        path: '/notes.txt',
        grantees: [{ kind: 'user', id: pia.user.id }],
        access: { ...VIEW, modify: true },
      })
    ).json()) as PeopleShare;
    expect(await names(pia, '/Shared with me')).toEqual(['notes.txt']);
    const file = await call(pia, 'GET', `/api/raw${encodePath('/Shared with me/notes.txt')}`);
    expect(await file.text()).toBe('notes');
    const saved = await call(
      pia,
      'PUT',
      `/api/resources${encodePath('/Shared with me/notes.txt')}`,
      'N',
    );
    expect(saved.status).toBe(200);
    expect(await readFile(path.join(server.root, 'users/olga/notes.txt'), 'utf8')).toBe('N');
    expect((await call(olga, 'DELETE', '/api/resources/notes.txt')).ok).toBe(true);
    expect(await names(pia, '/')).toEqual([]);
    expect((await call(olga, 'GET', '/api/people-shares')).ok).toBe(true);
    expect(
      ((await (await call(olga, 'GET', '/api/people-shares')).json()) as PeopleShare[]).map(
        (s) => s.id,
      ),
    ).not.toContain(again.id);
  });

  it('what the owner may not see is not shared; revoke holds from the next request', async () => {
    await put('users/quin/proj/open.txt', 'open');
    await put('users/quin/proj/private/p.txt', 'p');
    const quin = await server.createUser({
      scope: '/users/quin',
      rules: [{ allow: false, path: '/proj/private', regex: false, regexp: { raw: '' } }],
    });
    await mkdir(path.join(server.root, 'users/ray'), { recursive: true });
    const ray = await server.createUser({ scope: '/users/ray' });
    const share = (await (
      await call(quin, 'POST', '/api/people-shares', {
        path: '/proj',
        grantees: [{ kind: 'user', id: ray.user.id }],
        access: VIEW,
      })
    ).json()) as PeopleShare;
    expect(await names(ray, '/Shared with me/proj')).toEqual(['open.txt']);
    const hidden = await call(
      ray,
      'GET',
      `/api/raw${encodePath('/Shared with me/proj/private/p.txt')}`,
    );
    expect(hidden.status).toBe(403);
    expect((await call(ray, 'DELETE', `/api/people-shares/${share.id}`)).status).toBe(403);
    expect((await call(quin, 'DELETE', `/api/people-shares/${share.id}`)).status).toBe(200);
    const gone = await call(ray, 'GET', `/api/raw${encodePath('/Shared with me/proj/open.txt')}`);
    expect(gone.status).toBe(404);
  });
});
