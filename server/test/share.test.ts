import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let server: TestServer;
let alice: TestUser;
let bob: TestUser;

async function put(relative: string, content = 'x'): Promise<void> {
  const file = path.join(server.root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** POST /api/share/{path} as `user` with a JSON body; returns the response. */
function createLink(user: TestUser, sharePath: string, body: unknown = {}) {
  return server.fetch(`/api/share${sharePath}`, {
    method: 'POST',
    token: user.token,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function linkOf(user: TestUser, sharePath: string, body: unknown = {}) {
  const response = await createLink(user, sharePath, body);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown> & { hash: string; expire: number };
}

/** How far the server's clock runs ahead of the wall clock: links expire by it. */
let clockAhead = 0;

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.now() + clockAhead });
  await put('users/alice/report.pdf', 'pdf');
  await put('users/alice/docs/a.txt', 'a');
  await put('users/alice/docs-old/b.txt', 'b');
  await put('users/bob/bob.txt', 'bob');
  alice = await server.createUser({ scope: '/users/alice' });
  bob = await server.createUser({ scope: '/users/bob' });
});
afterAll(() => server.close());

describe('creating links', () => {
  it('answers the link without any secret, with expiry in the unit asked for', async () => {
    const before = Math.floor(Date.now() / 1000);
    const link = await linkOf(alice, '/report.pdf', {
      password: 'open sesame',
      expires: '2',
      unit: 'days',
    });
    expect(Object.keys(link).sort()).toEqual(
      [
        'downloadLimit',
        'downloads',
        'expire',
        'hasPassword',
        'hash',
        'isDir',
        'isRequest',
        'path',
        'userID',
        'username',
      ].sort(),
    );
    expect(link).toMatchObject({ path: '/report.pdf', userID: alice.user.id, hasPassword: true });
    expect(link.hash).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(link.expire).toBeGreaterThanOrEqual(before + 2 * 86400);
    expect(link.expire).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 2 * 86400);
    const listed = JSON.stringify(
      await (await server.fetch('/api/shares', { token: alice.token })).json(),
    );
    expect(listed).not.toMatch(/argon2|password_hash|token/);
  });

  it.each([
    ['seconds', 30],
    ['minutes', 30 * 60],
    ['hours', 30 * 3600],
    ['fortnights', 30 * 3600],
  ])('counts a duration in %s (unknown units are hours)', async (unit, seconds) => {
    const link = await linkOf(alice, '/report.pdf', { expires: '30', unit });
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs(link.expire - (now + seconds))).toBeLessThanOrEqual(2);
  });

  it('makes a permanent link for 0, an empty duration or {}', async () => {
    for (const body of [{}, { expires: '0', unit: 'days' }, { expires: '' }]) {
      expect((await linkOf(alice, '/docs/', body)).expire).toBe(0);
    }
  });

  it.each([
    ['an empty body', ''],
    ['a non-integer duration', { expires: 'soon' }],
    ['a negative duration', { expires: '-1' }],
    ['a duration past the maximum', { expires: '2147483648' }],
    ['a fractional download limit', { downloadLimit: 1.5 }],
    ['a body that is not JSON', '{nope'],
  ])('refuses %s with 400 and a reason', async (_name, body) => {
    const response = await createLink(alice, '/report.pdf', body);
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^400 Bad Request \(.+\)/);
  });

  it('answers 404 for a missing item and 403 without share or download permission', async () => {
    expect((await createLink(alice, '/nothing.txt')).status).toBe(404);
    const noShare = await server.createUser({ scope: '/users/alice', perm: { share: false } });
    const noDownload = await server.createUser({
      scope: '/users/alice',
      perm: { download: false },
    });
    for (const user of [noShare, noDownload]) {
      expect((await createLink(user, '/report.pdf')).status).toBe(403);
      expect((await server.fetch('/api/shares', { token: user.token })).status).toBe(403);
      expect((await server.fetch('/api/share/report.pdf', { token: user.token })).status).toBe(403);
    }
  });

  it('cannot share anything outside the scope, by encoded dots or by a symlink', async () => {
    await symlink('../bob', path.join(server.root, 'users/alice/to-bob'));
    const post = (raw: string) =>
      server.fetch(`/api/share${raw}`, { method: 'POST', token: alice.token, body: '{}' });
    expect((await post('/..%2Fbob%2Fbob.txt')).status).toBe(301); // cleaned, then in scope
    expect((await post('/%252e%252e/bob/bob.txt')).status).toBe(404);
    expect((await post('/to-bob/bob.txt')).status).toBe(403);
    expect((await post('/to-bob')).status).toBe(403);
    const listed = (await (await server.fetch('/api/shares', { token: alice.token })).json()) as {
      path: string;
    }[];
    expect(listed.some((share) => share.path.includes('bob'))).toBe(false);
  });
});

describe('listing and deleting links', () => {
  it('lists own links for users and every link, with owner, for admins', async () => {
    const mine = await linkOf(bob, '/bob.txt');
    const bobs = (await (await server.fetch('/api/shares', { token: bob.token })).json()) as {
      hash: string;
    }[];
    expect(bobs.map((s) => s.hash)).toEqual([mine.hash]);
    const all = (await (
      await server.fetch('/api/shares', { token: server.admin.token })
    ).json()) as {
      hash: string;
      username: string;
    }[];
    expect(all.find((s) => s.hash === mine.hash)?.username).toBe(bob.user.username);
    expect(all.some((s) => s.username === alice.user.username)).toBe(true);
  });

  it('lists the links of one path, and admins see them by the real item', async () => {
    const link = await linkOf(alice, '/docs-old');
    const own = (await (
      await server.fetch('/api/share/docs-old', { token: alice.token })
    ).json()) as {
      hash: string;
    }[];
    expect(own.map((s) => s.hash)).toEqual([link.hash]);
    const asAdmin = (await (
      await server.fetch('/api/share/users/alice/docs-old', { token: server.admin.token })
    ).json()) as { hash: string }[];
    expect(asAdmin.map((s) => s.hash)).toEqual([link.hash]);
    const asBob = await server.fetch('/api/share/docs-old', { token: bob.token });
    expect(asBob.status).toBe(404);
  });

  it('lets only the owner or an admin delete a link', async () => {
    const link = await linkOf(alice, '/report.pdf');
    const del = (user: TestUser, hash = link.hash) =>
      server.fetch(`/api/share/${hash}`, { method: 'DELETE', token: user.token });
    expect((await del(bob)).status).toBe(403);
    expect((await del(alice, 'unknown-hash')).status).toBe(404);
    expect((await del(alice)).status).toBe(200);
    expect((await del(alice)).status).toBe(404);
    const other = await linkOf(alice, '/report.pdf');
    expect((await del(server.admin, other.hash)).status).toBe(200);
  });

  it('drops expired links from the lists', async () => {
    const link = await linkOf(alice, '/report.pdf', { expires: '1', unit: 'hours' });
    const listed = async () =>
      (
        (await (await server.fetch('/api/shares', { token: alice.token })).json()) as {
          hash: string;
        }[]
      ).map((s) => s.hash);
    expect(await listed()).toContain(link.hash);
    clockAhead = 2 * 3600 * 1000;
    try {
      expect(await listed()).not.toContain(link.hash);
      expect(await server.ctx.store.shares.get(link.hash)).toBeUndefined();
      expect((await server.fetch(`/api/public/share/${link.hash}`)).status).toBe(404);
    } finally {
      clockAhead = 0;
    }
  });
});

describe('links follow their item', () => {
  const rename = (user: TestUser, from: string, to: string) =>
    server.fetch(
      `/api/resources${from}?action=rename&destination=${encodeURIComponent(encodeURIComponent(to))}`,
      { method: 'PATCH', token: user.token },
    );
  const publicStatus = async (hash: string) =>
    (await server.fetch(`/api/public/share/${hash}`)).status;

  it('keeps a link on a renamed file and on a file inside a moved folder', async () => {
    await put('users/alice/moving/inner.txt', 'inner');
    await put('users/alice/solo.txt', 'solo');
    const solo = await linkOf(alice, '/solo.txt');
    const inner = await linkOf(alice, '/moving/inner.txt');
    const folder = await linkOf(alice, '/moving/');
    expect((await rename(alice, '/solo.txt', '/renamed.txt')).status).toBe(200);
    expect((await rename(alice, '/moving', '/docs/moved')).status).toBe(200);
    const paths = new Map(
      (
        (await (await server.fetch('/api/shares', { token: alice.token })).json()) as {
          hash: string;
          path: string;
        }[]
      ).map((s) => [s.hash, s.path]),
    );
    expect(paths.get(solo.hash)).toBe('/renamed.txt');
    expect(paths.get(inner.hash)).toBe('/docs/moved/inner.txt');
    expect(paths.get(folder.hash)).toBe('/docs/moved/');
    const file = await server.fetch(`/api/public/dl/${inner.hash}`);
    expect(await file.text()).toBe('inner');
    expect(await publicStatus(solo.hash)).toBe(200);
  });

  it('deletes links of an item and of everything inside a deleted folder, not of its neighbours', async () => {
    await put('users/alice/gone/x.txt', 'x');
    await put('users/alice/gone-not/y.txt', 'y');
    const inside = await linkOf(alice, '/gone/x.txt');
    const neighbour = await linkOf(alice, '/gone-not/y.txt');
    const response = await server.fetch('/api/resources/gone', {
      method: 'DELETE',
      token: alice.token,
    });
    expect(response.status).toBe(204);
    await put('users/alice/gone/x.txt', 'a new file at the old path');
    expect(await publicStatus(inside.hash)).toBe(404);
    expect(await publicStatus(neighbour.hash)).toBe(200);
  });

  it("deletes a user's link when an admin deletes the item", async () => {
    await put('users/alice/admin-deletes.txt', 'x');
    const link = await linkOf(alice, '/admin-deletes.txt');
    const response = await server.fetch('/api/resources/users/alice/admin-deletes.txt', {
      method: 'DELETE',
      token: server.admin.token,
    });
    expect(response.status).toBe(204);
    await put('users/alice/admin-deletes.txt', 'new');
    expect(await publicStatus(link.hash)).toBe(404);
  });
});
