import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from './helpers/raw-http.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { issueDownloadToken } from '../src/services/share/download-token.ts';

let server: TestServer;
let alice: TestUser;

const SECRET = 'outside-secret-content';

async function put(relative: string, content = 'x'): Promise<void> {
  const file = path.join(server.root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

async function share(user: TestUser, sharePath: string, body: unknown = {}): Promise<string> {
  const response = await server.fetch(`/api/share${sharePath}`, {
    method: 'POST',
    token: user.token,
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { hash: string }).hash;
}

const pub = (rawPath: string, headers: Record<string, string> = {}) =>
  rawRequest(server.url, 'GET', rawPath, { headers });

/** How far the server's clock runs ahead of the wall clock: links expire by it. */
let clockAhead = 0;

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.now() + clockAhead });
  await put('outside/secret.txt', SECRET);
  await put('users/alice/shared/a.txt', 'alpha');
  await put('users/alice/shared/sub/b.txt', 'beta');
  await put('users/alice/shared/.hidden', 'dot');
  await put('users/alice/shared/private.key', 'key');
  await put('users/alice/shared-sibling/s.txt', 'sibling');
  await put('users/alice/single.txt', 'single file');
  await symlink(
    path.join(server.root, 'outside'),
    path.join(server.root, 'users/alice/shared/out'),
  );
  await symlink('../shared-sibling/s.txt', path.join(server.root, 'users/alice/shared/sib'));
  alice = await server.createUser({
    scope: '/users/alice',
    hideDotfiles: true,
    rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.key$' } }],
  });
});
afterAll(() => server.close());

describe('a public folder link', () => {
  it('lists the folder re-rooted at itself, named after it, without hidden or denied items', async () => {
    const hash = await share(alice, '/shared/');
    const response = await pub(`/api/public/share/${hash}`);
    expect(response.status).toBe(200);
    const body = JSON.parse(response.body) as {
      name: string;
      path: string;
      items: { name: string; path: string }[];
      sorting: unknown;
      token?: string;
    };
    expect(body.name).toBe('shared');
    expect(body.path).toBe('/');
    expect(body.token).toBeUndefined();
    expect(body.sorting).toEqual({ by: 'name', asc: false });
    expect(body.items.map((item) => item.name).sort()).toEqual(['a.txt', 'sub']);
    expect(body.items.find((item) => item.name === 'sub')?.path).toBe('/sub');
    const sub = JSON.parse((await pub(`/api/public/share/${hash}/sub`)).body) as {
      name: string;
      items: { name: string }[];
    };
    expect(sub.name).toBe('shared');
    expect(sub.items.map((item) => item.name)).toEqual(['b.txt']);
  });

  it.each([
    ['/..%2Fshared-sibling%2Fs.txt'],
    ['/%2e%2e/shared-sibling/s.txt'],
    ['/%252e%252e/shared-sibling/s.txt'],
    ['/..%5cshared-sibling%5cs.txt'],
    ['/out/secret.txt'],
    ['/out'],
    ['/sib'],
    ['/.hidden'],
    ['/private.key'],
    ['/sub/../../single.txt'],
  ])('never serves %s from outside the folder or against a rule', async (sub) => {
    const hash = await share(alice, '/shared');
    for (const route of ['share', 'dl']) {
      const response = await pub(`/api/public/${route}/${hash}${sub}`);
      expect([301, 403, 404]).toContain(response.status);
      expect(response.body).not.toContain(SECRET);
      expect(response.body).not.toContain('sibling');
      expect(response.body).not.toContain('single file');
      if (response.status === 301) {
        // Path cleaning may climb past the hash: the cleaned URL names no link then.
        const followed = await pub(String(response.headers.location));
        expect(followed.body).not.toContain(SECRET);
        expect(followed.body).not.toContain('sibling');
        expect(followed.body).not.toContain('single file');
      }
    }
  });

  it('downloads a file inside and the folder as an archive', async () => {
    const hash = await share(alice, '/shared');
    const file = await pub(`/api/public/dl/${hash}/sub/b.txt`);
    expect(file.status).toBe(200);
    expect(file.body).toBe('beta');
    expect(file.headers['content-disposition']).toContain('b.txt');
    const zip = await server.fetch(`/api/public/dl/${hash}/?algo=zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-disposition')).toContain('shared.zip');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('private.key'))).toBe(false);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
    const tar = await server.fetch(
      `/api/public/dl/${hash}/?algo=tar&files=${encodeURIComponent('/sub')}`,
    );
    expect(tar.status).toBe(200);
    expect(Buffer.from(await tar.arrayBuffer()).includes(Buffer.from('beta'))).toBe(true);
    expect((await server.fetch(`/api/public/dl/${hash}/?algo=rar`)).status).toBe(400);
  });
});

describe('a public file link', () => {
  it('describes the file with an empty path and downloads it whatever sub-path follows', async () => {
    const hash = await share(alice, '/single.txt');
    const info = JSON.parse((await pub(`/api/public/share/${hash}`)).body) as Record<
      string,
      unknown
    >;
    expect(info).toMatchObject({ name: 'single.txt', path: '', isDir: false, type: 'text' });
    expect((await pub(`/api/public/dl/${hash}`)).body).toBe('single file');
    expect((await pub(`/api/public/dl/${hash}%2Fsingle.txt`)).body).toBe('single file');
    expect((await pub(`/api/public/dl/${hash}/../outside/secret.txt`)).body).not.toContain(SECRET);
    const inline = await pub(`/api/public/dl/${hash}?inline=true`);
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
  });

  it('answers 404 for unknown links', async () => {
    expect((await pub('/api/public/share/doesnotexist')).status).toBe(404);
    expect((await pub('/api/public/dl/doesnotexist')).status).toBe(404);
    expect((await pub('/api/public/share/')).status).toBe(404);
  });
});

describe('a link dies', () => {
  it('when it expires (a link of 1 hour answers 404 once the clock passed it)', async () => {
    const hash = await share(alice, '/single.txt', { expires: '1', unit: 'hours' });
    expect((await pub(`/api/public/share/${hash}`)).status).toBe(200);
    clockAhead = 3600 * 1000 + 1000;
    try {
      expect((await pub(`/api/public/dl/${hash}`)).status).toBe(404);
      expect((await pub(`/api/public/share/${hash}`)).status).toBe(404);
    } finally {
      clockAhead = 0;
    }
  });

  it('when the owner loses share or download permission, and comes back with it', async () => {
    const owner = await server.createUser({ scope: '/users/alice' });
    const hash = await share(owner, '/single.txt');
    for (const perm of ['share', 'download'] as const) {
      await server.ctx.store.users.update({
        ...owner.user,
        perm: { ...owner.user.perm, [perm]: false },
      });
      expect((await pub(`/api/public/share/${hash}`)).status).toBe(403);
      expect((await pub(`/api/public/dl/${hash}`)).body).not.toContain('single file');
    }
    await server.ctx.store.users.update(owner.user);
    expect((await pub(`/api/public/dl/${hash}`)).body).toBe('single file');
  });

  it('when the owner is deleted', async () => {
    const owner = await server.createUser({ scope: '/users/alice' });
    const hash = await share(owner, '/single.txt');
    await server.ctx.store.users.remove(owner.user.id);
    expect((await pub(`/api/public/share/${hash}`)).status).toBe(404);
  });

  it('when an owner rule denies the item later', async () => {
    const owner = await server.createUser({ scope: '/users/alice' });
    const hash = await share(owner, '/shared/a.txt');
    await server.ctx.store.users.update({
      ...owner.user,
      rules: [{ regex: false, allow: false, path: '/shared/a.txt', regexp: null }],
    });
    expect((await pub(`/api/public/dl/${hash}`)).status).toBe(403);
  });

  it('after its download limit, counting only downloads that start at the first byte', async () => {
    const hash = await share(alice, '/single.txt', { downloadLimit: 2 });
    expect((await pub(`/api/public/dl/${hash}`)).status).toBe(200);
    const resumed = await pub(`/api/public/dl/${hash}`, { range: 'bytes=3-' });
    expect(resumed.status).toBe(206);
    expect((await pub(`/api/public/dl/${hash}`)).status).toBe(200);
    // Used up answers 410 Gone, so the page can say so (docs/sharing.md).
    expect((await pub(`/api/public/dl/${hash}`)).status).toBe(410);
    expect((await pub(`/api/public/share/${hash}`)).status).toBe(410);
    const listed = (await (await server.fetch('/api/shares', { token: alice.token })).json()) as {
      hash: string;
      downloads: number;
      downloadLimit: number;
    }[];
    expect(listed.find((s) => s.hash === hash)).toMatchObject({ downloads: 2, downloadLimit: 2 });
  });
});

describe('a password link', () => {
  it('answers 401 without or with a wrong password, and a token with the right one', async () => {
    const hash = await share(alice, '/shared', { password: 'pässword with spaces' });
    expect((await pub(`/api/public/share/${hash}`)).status).toBe(401);
    expect((await pub(`/api/public/dl/${hash}/a.txt`)).status).toBe(401);
    const wrong = await pub(`/api/public/share/${hash}`, { 'X-SHARE-PASSWORD': 'nope' });
    expect(wrong.status).toBe(401);
    const right = await pub(`/api/public/share/${hash}`, {
      'X-SHARE-PASSWORD': encodeURIComponent('pässword with spaces'),
    });
    expect(right.status).toBe(200);
    const body = JSON.parse(right.body) as { token: string; items: { token?: string }[] };
    expect(body.token).toMatch(/^\d+\.[A-Za-z0-9_-]+$/);
    expect(body.items.every((item) => item.token === undefined)).toBe(true);
    expect(right.body).not.toMatch(/argon2/);
    const file = await pub(`/api/public/dl/${hash}/a.txt?token=${body.token}`);
    expect(file.body).toBe('alpha');
    expect((await pub(`/api/public/dl/${hash}/a.txt?auth=${body.token}`)).body).toBe('alpha');
    const otherHash = await share(alice, '/shared', { password: 'pässword with spaces' });
    expect((await pub(`/api/public/dl/${otherHash}/a.txt?token=${body.token}`)).status).toBe(401);
  });

  it('refuses an expired download token', async () => {
    const hash = await share(alice, '/single.txt', { password: 'secret' });
    const record = (await server.ctx.store.shares.get(hash))!;
    const old = issueDownloadToken(
      server.ctx.signingKey,
      hash,
      record.passwordHash,
      Date.now() - 3 * 3600 * 1000,
    );
    expect((await pub(`/api/public/dl/${hash}?token=${old}`)).status).toBe(401);
    const fresh = issueDownloadToken(server.ctx.signingKey, hash, record.passwordHash, Date.now());
    expect((await pub(`/api/public/dl/${hash}?token=${fresh}`)).status).toBe(200);
    expect((await pub(`/api/public/dl/${hash}?token=${fresh.slice(0, -2)}xx`)).status).toBe(401);
  });

  it('limits wrong guesses per link and address with 429', async () => {
    const hash = await share(alice, '/single.txt', { password: 'secret' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await pub(`/api/public/share/${hash}`, { 'X-SHARE-PASSWORD': `guess${i}` })).status,
      );
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Even the right password waits: the limit is not a hint.
    expect((await pub(`/api/public/share/${hash}`, { 'X-SHARE-PASSWORD': 'secret' })).status).toBe(
      429,
    );
    const other = await share(alice, '/single.txt', { password: 'secret' });
    expect((await pub(`/api/public/share/${other}`, { 'X-SHARE-PASSWORD': 'secret' })).status).toBe(
      200,
    );
  });
});
