// Public links and file requests a recipient makes inside a grant with `share` access
// (docs/teams.md): served through the grant's view, confined to it, ended with the grant.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { encodePath } from './helpers/tus.ts';
import { type Access, EDIT, SHARE, VIEW, callAs, putFile, shareWithUser } from './helpers/teams.ts';

let server: TestServer;

const call = (user: TestUser, method: string, url: string, body?: unknown) =>
  callAs(server, user, method, url, body);

const put = (relative: string, content = 'x') => putFile(server, relative, content);

const shareWith = (owner: TestUser, item: string, to: TestUser, access: Access) =>
  shareWithUser(server, owner, item, to, access);

const link = (user: TestUser, virtual: string, body: Record<string, unknown> = {}) =>
  call(user, 'POST', `/api/share${encodePath(virtual)}`, { expires: '0', ...body });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('links made inside a grant', () => {
  it("serve the owner's real folder, confined to it and to what the owner may see; end with the grant", async () => {
    await put('users/lou/proj/sub/a.txt', 'a');
    await put('users/lou/proj/sub/private/p.txt', 'p');
    await put('users/lou/proj/other.txt', 'o');
    await put('users/lou/proj/sub/not-for-max.txt', 'n');
    const lou = await server.createUser({
      scope: '/users/lou',
      rules: [{ allow: false, path: '/proj/sub/private', regex: false, regexp: { raw: '' } }],
    });
    await mkdir(path.join(server.root, 'users/max'), { recursive: true });
    // The maker's own rules judge their paths of the grant, through the link too.
    const max = await server.createUser({
      scope: '/users/max',
      rules: [
        {
          allow: false,
          path: '/Shared with me/proj/sub/not-for-max.txt',
          regex: false,
          regexp: { raw: '' },
        },
      ],
    });
    const share = await shareWith(lou, '/proj', max, SHARE);
    const made = await link(max, '/Shared with me/proj/sub');
    expect(made.status).toBe(200);
    const { hash } = (await made.json()) as { hash: string };
    const page = await server.fetch(`/api/public/share/${hash}`);
    expect(page.status).toBe(200);
    const listed = (await page.json()) as { items: { name: string }[] };
    expect(listed.items.map((item) => item.name)).toEqual(['a.txt']);
    expect(await (await server.fetch(`/api/public/dl/${hash}/a.txt`)).text()).toBe('a');
    expect((await server.fetch(`/api/public/dl/${hash}/private/p.txt`)).status).toBe(403);
    expect((await server.fetch(`/api/public/dl/${hash}/not-for-max.txt`)).status).toBe(403);
    expect((await server.fetch(`/api/public/dl/${hash}/..%2Fother.txt`)).status).not.toBe(200);
    const tar = await server.fetch(`/api/public/dl/${hash}/?algo=tar`);
    expect(tar.status).toBe(200);
    const packed = Buffer.from(await tar.arrayBuffer()).toString('latin1');
    expect(packed).toContain('a.txt');
    expect(packed).not.toContain('not-for-max');
    expect(packed).not.toContain('p.txt');
    // A link to a file of the grant works too.
    const file = (await (await link(max, '/Shared with me/proj/other.txt')).json()) as {
      hash: string;
    };
    expect(await (await server.fetch(`/api/public/dl/${file.hash}`)).text()).toBe('o');
    // Revoked: both links stop.
    expect((await call(lou, 'DELETE', `/api/people-shares/${share.id}`)).status).toBe(200);
    expect((await server.fetch(`/api/public/share/${hash}`)).status).toBe(404);
    expect((await server.fetch(`/api/public/dl/${file.hash}`)).status).toBe(404);
  });

  it('are refused without the share access, and stop when it is taken away', async () => {
    await put('users/ned/docs/d.txt', 'd');
    const ned = await server.createUser({ scope: '/users/ned' });
    await mkdir(path.join(server.root, 'users/ola'), { recursive: true });
    const ola = await server.createUser({ scope: '/users/ola' });
    const share = await shareWith(ned, '/docs', ola, SHARE);
    const made = await link(ola, '/Shared with me/docs/d.txt');
    expect(made.status).toBe(200);
    const { hash } = (await made.json()) as { hash: string };
    expect(await (await server.fetch(`/api/public/dl/${hash}`)).text()).toBe('d');
    // A file request needs create as well.
    expect((await link(ola, '/Shared with me/docs', { request: true })).status).toBe(403);
    const changed = await call(ned, 'PUT', `/api/people-shares/${share.id}`, {
      grantees: [{ kind: 'user', id: ola.user.id }],
      access: VIEW,
    });
    expect(changed.status).toBe(200);
    expect((await server.fetch(`/api/public/dl/${hash}`)).status).toBe(404);
    expect((await link(ola, '/Shared with me/docs/d.txt')).status).toBe(403);
    // "Shared with me" itself is no grant's.
    expect((await link(ola, '/Shared with me')).status).toBe(403);
  });

  it('a file request in a team folder with create and share lands in its real folder', async () => {
    await mkdir(path.join(server.root, 'teams/drop'), { recursive: true });
    await mkdir(path.join(server.root, 'users/pat'), { recursive: true });
    const pat = await server.createUser({ scope: '/users/pat' });
    const res = await call(server.admin, 'POST', '/api/team-folders', {
      name: 'Drop',
      path: '/teams/drop',
      grantees: [{ kind: 'user', id: pat.user.id }],
      access: { ...SHARE, create: true },
    });
    expect(res.status).toBe(201);
    const made = await link(pat, '/Drop', { request: true });
    expect(made.status).toBe(200);
    const { hash } = (await made.json()) as { hash: string };
    const sent = await server.fetch(`/api/public/upload/${hash}/given.txt`, {
      method: 'POST',
      body: 'given',
    });
    expect(sent.status).toBe(200);
    expect(await readFile(path.join(server.root, 'teams/drop/given.txt'), 'utf8')).toBe('given');
  });
  it('follow their item when it is renamed or moved inside the grant, and end when it leaves it', async () => {
    await put('users/quin/proj/sub/a.txt', 'qa');
    await put('users/quin/proj/b.txt', 'qb');
    await mkdir(path.join(server.root, 'users/quin/elsewhere'), { recursive: true });
    const quin = await server.createUser({ scope: '/users/quin' });
    await mkdir(path.join(server.root, 'users/ros'), { recursive: true });
    const ros = await server.createUser({ scope: '/users/ros' });
    await shareWith(quin, '/proj', ros, { ...EDIT, share: true });
    const folder = (await (await link(ros, '/Shared with me/proj/sub')).json()) as { hash: string };
    const file = (await (await link(ros, '/Shared with me/proj/b.txt')).json()) as { hash: string };
    const move = (user: TestUser, from: string, to: string) =>
      call(
        user,
        'PATCH',
        `/api/resources${encodePath(from)}?action=rename&destination=${encodeURIComponent(to)}`,
      );
    const pathOf = async (hash: string) => {
      const res = await call(ros, 'GET', '/api/shares');
      const list = (await res.json()) as { hash: string; path: string }[];
      return list.find((share) => share.hash === hash)?.path;
    };
    // Renamed by the owner: the recipient's link follows, under the recipient's path.
    expect((await move(quin, '/proj/sub', '/proj/renamed')).status).toBe(200);
    expect(await (await server.fetch(`/api/public/dl/${folder.hash}/a.txt`)).text()).toBe('qa');
    expect(await pathOf(folder.hash)).toBe('/Shared with me/proj/renamed');
    // Moved by the recipient, inside the grant.
    expect(
      (await move(ros, '/Shared with me/proj/b.txt', '/Shared with me/proj/renamed/b.txt')).status,
    ).toBe(200);
    expect(await (await server.fetch(`/api/public/dl/${file.hash}`)).text()).toBe('qb');
    expect(await pathOf(file.hash)).toBe('/Shared with me/proj/renamed/b.txt');
    // The shared folder itself renamed by its owner: the share and the links inside follow.
    expect((await move(quin, '/proj', '/project')).status).toBe(200);
    expect(await pathOf(folder.hash)).toBe('/Shared with me/project/renamed');
    expect(await (await server.fetch(`/api/public/dl/${file.hash}`)).text()).toBe('qb');
    // Moved out of the shared folder by the owner: the recipient can no longer reach it.
    expect((await move(quin, '/project/renamed/b.txt', '/elsewhere/b.txt')).status).toBe(200);
    expect((await server.fetch(`/api/public/dl/${file.hash}`)).status).toBe(404);
    expect(await pathOf(file.hash)).toBeUndefined();
    expect(await (await server.fetch(`/api/public/dl/${folder.hash}/a.txt`)).text()).toBe('qa');
  });
});
