import { generate } from 'otplib';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppPassword } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { basic, createAppPassword, dav } from './helpers/dav.ts';

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** A user with a scope folder of their own holding `docs/a.txt` and `secret/s.txt`. */
async function userWithFiles(
  overrides: Parameters<TestServer['createUser']>[0] = {},
): Promise<TestUser & { auth: string; scopeDir: string }> {
  const name = `dav${++counter}`;
  const scopeDir = path.join(server.root, name);
  await mkdir(path.join(scopeDir, 'docs'), { recursive: true });
  await mkdir(path.join(scopeDir, 'secret'), { recursive: true });
  await writeFile(path.join(scopeDir, 'docs', 'a.txt'), 'hello');
  await writeFile(path.join(scopeDir, 'secret', 's.txt'), 'hidden');
  const user = await server.createUser({ username: name, scope: `/${name}`, ...overrides });
  const { password } = await createAppPassword(server, user.token, { name: 'test' });
  return { ...user, auth: basic(name, password), scopeDir };
}

const propfind = (auth: string, target: string, depth: string) =>
  dav(server, 'PROPFIND', target, auth, { headers: { depth } });

describe('WebDAV at /dav/', () => {
  it('asks for Basic credentials and announces class 1 and 2', async () => {
    const anonymous = await fetch(`${server.url}/dav/`, { method: 'OPTIONS' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="Cabinet"/);
    const user = await userWithFiles();
    const res = await dav(server, 'OPTIONS', '/', user.auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('dav')).toBe('1, 2');
    const wrong = await dav(server, 'OPTIONS', '/', basic(user.user.username, 'nope'));
    expect(wrong.status).toBe(401);
  });

  it('lists a folder at depth 1 and refuses depth infinity with 403', async () => {
    const user = await userWithFiles();
    const res = await propfind(user.auth, '/docs/', '1');
    expect(res.status).toBe(207);
    const body = await res.text();
    expect(body).toContain('<D:href>/dav/docs/</D:href>');
    expect(body).toContain('<D:href>/dav/docs/a.txt</D:href>');
    expect(body).toContain('<D:getcontentlength>5</D:getcontentlength>');
    const infinite = await propfind(user.auth, '/', 'infinity');
    expect(infinite.status).toBe(403);
    expect(await infinite.text()).toContain('propfind-finite-depth');
  });

  it('writes, reads with ranges, copies, moves and deletes', async () => {
    const user = await userWithFiles();
    const put = await dav(server, 'PUT', '/docs/new.txt', user.auth, { body: 'abcdef' });
    expect(put.status).toBe(201);
    expect(await readFile(path.join(user.scopeDir, 'docs', 'new.txt'), 'utf8')).toBe('abcdef');
    const range = await dav(server, 'GET', '/docs/new.txt', user.auth, {
      headers: { range: 'bytes=2-3' },
    });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe('cd');
    const noParent = await dav(server, 'PUT', '/missing/x.txt', user.auth, { body: 'x' });
    expect(noParent.status).toBe(409);
    const mkcolBody = await dav(server, 'MKCOL', '/withbody', user.auth, { body: '<x/>' });
    expect(mkcolBody.status).toBe(415);
    expect((await dav(server, 'MKCOL', '/docs', user.auth)).status).toBe(405);
    const copy = await dav(server, 'COPY', '/docs/new.txt', user.auth, {
      headers: { destination: `${server.url}/dav/docs/copy.txt` },
    });
    expect(copy.status).toBe(201);
    const refused = await dav(server, 'COPY', '/docs/new.txt', user.auth, {
      headers: { destination: '/dav/docs/copy.txt', overwrite: 'F' },
    });
    expect(refused.status).toBe(412);
    const move = await dav(server, 'MOVE', '/docs/copy.txt', user.auth, {
      headers: { destination: '/dav/moved.txt' },
    });
    expect(move.status).toBe(201);
    expect(await readFile(path.join(user.scopeDir, 'moved.txt'), 'utf8')).toBe('abcdef');
    expect((await dav(server, 'DELETE', '/moved.txt', user.auth)).status).toBe(204);
    expect((await dav(server, 'GET', '/moved.txt', user.auth)).status).toBe(404);
  });

  it('needs the lock token to change a locked file', async () => {
    const user = await userWithFiles();
    const lock = await dav(server, 'LOCK', '/docs/a.txt', user.auth, {
      body:
        '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
        '<D:locktype><D:write/></D:locktype></D:lockinfo>',
    });
    expect(lock.status).toBe(200);
    const token = lock.headers.get('lock-token');
    expect(token).toMatch(/^<opaquelocktoken:/);
    expect((await dav(server, 'PUT', '/docs/a.txt', user.auth, { body: 'x' })).status).toBe(423);
    expect((await dav(server, 'DELETE', '/docs/a.txt', user.auth)).status).toBe(423);
    const withToken = await dav(server, 'PUT', '/docs/a.txt', user.auth, {
      body: 'changed',
      headers: { if: `(${token})` },
    });
    expect(withToken.status).toBe(204);
    const unlock = await dav(server, 'UNLOCK', '/docs/a.txt', user.auth, {
      headers: { 'lock-token': token! },
    });
    expect(unlock.status).toBe(204);
    expect((await dav(server, 'PUT', '/docs/a.txt', user.auth, { body: 'y' })).status).toBe(204);
  });

  it('hides what the rules deny: absent from listings and 404', async () => {
    const user = await userWithFiles({
      rules: [{ regex: false, allow: false, path: '/secret', regexp: null }],
    });
    const listing = await (await propfind(user.auth, '/', '1')).text();
    expect(listing).toContain('/dav/docs/');
    expect(listing).not.toContain('secret');
    expect((await dav(server, 'GET', '/secret/s.txt', user.auth)).status).toBe(404);
    expect((await propfind(user.auth, '/secret/', '0')).status).toBe(404);
    const put = await dav(server, 'PUT', '/secret/new.txt', user.auth, { body: 'x' });
    expect(put.status).toBe(404);
  });

  it('applies the permissions: no create permission means PUT 403', async () => {
    const user = await userWithFiles({ perm: { create: false } });
    const res = await dav(server, 'PUT', '/docs/new.txt', user.auth, { body: 'x' });
    expect(res.status).toBe(403);
    expect((await dav(server, 'MKCOL', '/folder', user.auth)).status).toBe(403);
  });
});

describe('app passwords', () => {
  it('read-only: reads work, every write is 403, on WebDAV and on the API', async () => {
    const user = await userWithFiles();
    const { password } = await createAppPassword(server, user.token, {
      name: 'ro',
      readOnly: true,
    });
    const auth = basic(user.user.username, password);
    expect((await dav(server, 'GET', '/docs/a.txt', auth)).status).toBe(200);
    expect((await dav(server, 'PUT', '/docs/a.txt', auth, { body: 'x' })).status).toBe(403);
    expect((await dav(server, 'DELETE', '/docs/a.txt', auth)).status).toBe(403);
    expect((await dav(server, 'MKCOL', '/new', auth)).status).toBe(403);
    const api = await fetch(`${server.url}/api/resources/docs/a.txt`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${password}` },
    });
    expect(api.status).toBe(403);
    expect(await readFile(path.join(user.scopeDir, 'docs', 'a.txt'), 'utf8')).toBe('hello');
  });

  it('folder-limited: the folder is the whole view', async () => {
    const user = await userWithFiles();
    const { password, folder } = await createAppPassword(server, user.token, {
      name: 'docs only',
      folder: '/docs',
    });
    expect(folder).toBe('/docs');
    const auth = basic(user.user.username, password);
    const listing = await (await propfind(auth, '/', '1')).text();
    expect(listing).toContain('/dav/a.txt');
    expect(listing).not.toContain('secret');
    expect((await dav(server, 'GET', '/secret/s.txt', auth)).status).toBe(404);
    // Encoded so the client keeps the dot segments (fetch would resolve a plain `..` itself); the
    // server's clean-path redirect sends them out of /dav/ altogether, never into the secret.
    for (const sneaky of ['/..%2fsecret/s.txt', '/a.txt/..%2f..%2fsecret/s.txt']) {
      const res = await fetch(`${server.url}/dav${sneaky}`, {
        headers: { authorization: auth },
        redirect: 'manual',
      });
      expect(res.status, sneaky).not.toBe(200);
      expect(res.headers.get('location') ?? '').not.toMatch(/^\/dav\//);
      expect(await res.text()).not.toContain('hidden');
    }
    const api = await fetch(`${server.url}/api/resources/`, {
      headers: { authorization: `Bearer ${password}` },
    });
    expect(api.status).toBe(200);
    expect(JSON.stringify(await api.json())).not.toContain('secret');
  });

  it('works as a Bearer token on the API, never for /api/login, and not after revocation', async () => {
    const user = await userWithFiles();
    const created = await createAppPassword(server, user.token, { name: 'script' });
    const bearer = { authorization: `Bearer ${created.password}` };
    expect((await fetch(`${server.url}/api/resources/docs/`, { headers: bearer })).status).toBe(
      200,
    );
    const login = await server.fetch('/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: user.user.username, password: created.password }),
    });
    expect(login.status).toBe(403);
    // An app password cannot mint or list app passwords.
    const mint = await fetch(`${server.url}/api/app-passwords`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ name: 'more' }),
    });
    expect(mint.status).toBe(403);
    const listed = (await (
      await server.fetch('/api/app-passwords', { token: user.token })
    ).json()) as AppPassword[];
    const mine = listed.find((p) => p.id === created.id);
    expect(mine?.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed)).not.toContain(created.password);
    const revoke = await server.fetch(`/api/app-passwords/${created.id}`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(revoke.status).toBe(200);
    expect((await fetch(`${server.url}/api/resources/docs/`, { headers: bearer })).status).toBe(
      401,
    );
    const davAuth = basic(user.user.username, created.password);
    expect((await dav(server, 'PROPFIND', '/', davAuth, { headers: { depth: '0' } })).status).toBe(
      401,
    );
  });

  it('admins list and revoke anyone’s; users only their own', async () => {
    const alice = await userWithFiles();
    const bob = await userWithFiles();
    const created = await createAppPassword(server, alice.token, { name: 'alice phone' });
    const asAdmin = await server.fetch(`/api/app-passwords?user=${alice.user.id}`, {
      token: server.admin.token,
    });
    expect(asAdmin.status).toBe(200);
    expect(((await asAdmin.json()) as AppPassword[]).map((p) => p.name)).toContain('alice phone');
    const asBob = await server.fetch(`/api/app-passwords?user=${alice.user.id}`, {
      token: bob.token,
    });
    expect(asBob.status).toBe(403);
    const bobRevokes = await server.fetch(`/api/app-passwords/${created.id}`, {
      method: 'DELETE',
      token: bob.token,
    });
    expect(bobRevokes.status).toBe(404);
    const adminRevokes = await server.fetch(`/api/app-passwords/${created.id}`, {
      method: 'DELETE',
      token: server.admin.token,
    });
    expect(adminRevokes.status).toBe(200);
  });

  it('refuses a name that is empty and a folder that is not one', async () => {
    const user = await userWithFiles();
    const post = (body: unknown) =>
      server.fetch('/api/app-passwords', {
        method: 'POST',
        token: user.token,
        body: JSON.stringify(body),
      });
    expect((await post({ name: '  ' })).status).toBe(400);
    expect((await post({ name: 'x', folder: '/docs/a.txt' })).status).toBe(400);
    expect((await post({ name: 'x', folder: '/nowhere' })).status).toBe(404);
  });

  it('the account password works on WebDAV until the admin turns it off', async () => {
    const user = await userWithFiles();
    const auth = basic(user.user.username, user.password);
    expect((await dav(server, 'PROPFIND', '/', auth, { headers: { depth: '0' } })).status).toBe(
      207,
    );
    await server.updateSettings({ davAccountPassword: false });
    try {
      const refused = await dav(server, 'PROPFIND', '/', auth, { headers: { depth: '0' } });
      expect(refused.status).toBe(401);
      expect(
        (await dav(server, 'PROPFIND', '/', user.auth, { headers: { depth: '0' } })).status,
      ).toBe(207);
    } finally {
      await server.updateSettings({ davAccountPassword: true });
    }
  });
});

describe('WebDAV and two-factor sign-in', () => {
  it('refuses the bare account password of a user with two-factor, and takes app passwords', async () => {
    const server = await startTestServer();
    try {
      const user = await server.createUser({ password: 'correct horse 42' });
      const auth = basic(user.user.username, 'correct horse 42');
      const propfind = (authorization: string) =>
        dav(server, 'PROPFIND', '/', authorization, { headers: { depth: '0' } });
      expect((await propfind(auth)).status).toBe(207);
      const post = (path: string, body: unknown) =>
        server.fetch(path, {
          method: 'POST',
          token: user.token,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const { secret } = (await (await post('/api/two-factor/setup', {})).json()) as {
        secret: string;
      };
      const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) });
      expect((await post('/api/two-factor/enable', { code })).status).toBe(200);
      expect((await propfind(auth)).status).toBe(401);
      const created = await post('/api/app-passwords', { name: 'laptop' });
      const { password } = (await created.json()) as { password: string };
      expect((await propfind(basic(user.user.username, password))).status).toBe(207);
    } finally {
      await server.close();
    }
  });
});

describe('WebDAV sign-in throttling', () => {
  it('answers 429 once an address failed too often', async () => {
    const limited = await startTestServer({ config: { rateLimitMax: 3, rateLimitWindow: 600 } });
    try {
      const auth = basic(limited.admin.user.username, 'wrong-password');
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await dav(limited, 'OPTIONS', '/', auth)).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
