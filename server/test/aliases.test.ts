import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpackArchive } from './helpers/archive-tree.ts';
import { basic, createAppPassword, dav } from './helpers/dav.ts';
import { eventually } from './helpers/eventually.ts';
import { openReady, type StreamEvent } from './helpers/event-stream.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

/**
 * Symlinks that lead back into the user's own scope (issue 38, part 1): an alias reaches exactly
 * what the direct path reaches, on every route (docs/security.md, "Aliases").
 */

const SECRET = 'SECRET-CONTENT';

let server: TestServer;
let alice: TestUser;
let home: string;
let scratch: string;
let davAuth: string;

async function put(relative: string, content = 'x'): Promise<void> {
  const file = path.join(home, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

const get = (rawPath: string, token = alice.token) =>
  rawRequest(server.url, 'GET', rawPath, { token });

async function names(folder: string): Promise<string[]> {
  const response = await get(`/api/resources${folder}`);
  expect(response.status, folder).toBe(200);
  const body = JSON.parse(response.body) as { items: { name: string }[] };
  return body.items.map((item) => item.name).sort();
}

/** Every file path inside an unpacked folder, relative to it. */
async function filesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  }
  return found.sort();
}

beforeAll(async () => {
  server = await startTestServer();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'cabinet-aliases-'));
  home = path.join(server.root, 'users', 'alice');
  await put('secret/s.txt', SECRET);
  await put('secret/deep/d.txt', SECRET);
  await put('docs/a.txt', 'alpha');
  await put('docs/sub/b.txt', 'beta');
  await put('.hidden/h.txt', 'hidden');
  await symlink('.', path.join(home, 'loop'));
  await symlink('.hidden', path.join(home, 'pub'));
  // A chain: a -> b -> secret.
  await symlink('b', path.join(home, 'a'));
  await symlink('secret', path.join(home, 'b'));
  // An alias of a parent and of a sibling, inside a sub-folder.
  await symlink('..', path.join(home, 'docs', 'up'));
  await symlink('../secret', path.join(home, 'docs', 'sib'));
  await symlink('../secret/s.txt', path.join(home, 'docs', 'sibfile'));
  // Allowed aliases keep working.
  await symlink('docs', path.join(home, 'ok'));
  await symlink('docs/a.txt', path.join(home, 'okfile'));
  alice = await server.createUser({
    scope: '/users/alice',
    hideDotfiles: true,
    rules: [{ regex: false, allow: false, path: '/secret', regexp: null }],
  });
  const { password } = await createAppPassword(server, alice.token, { name: 'aliases' });
  davAuth = basic(alice.user.username, password);
});
afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

const DENIED_ALIASES = [
  '/loop/secret/s.txt',
  '/loop/loop/secret/deep/d.txt',
  '/a/s.txt',
  '/b/s.txt',
  '/docs/up/secret/s.txt',
  '/docs/sib/s.txt',
  '/docs/sibfile',
  '/ok/up/secret/s.txt',
];

describe('an alias reaches what the direct path reaches', () => {
  it.each(DENIED_ALIASES)('refuses %s through raw and resources, as /secret/s.txt', async (p) => {
    expect((await get('/api/raw/secret/s.txt')).status).toBe(403);
    const raw = await get(`/api/raw${p}`);
    expect(raw.status).toBe(403);
    expect(raw.body).not.toContain(SECRET);
    const resource = await get(`/api/resources${p}`);
    expect(resource.status).toBe(403);
    expect(resource.body).not.toContain(SECRET);
  });

  it('refuses the aliased denied folders themselves', async () => {
    for (const p of [
      '/loop/secret',
      '/loop/secret/',
      '/a',
      '/b/',
      '/docs/sib/',
      '/docs/up/secret',
    ]) {
      expect((await get(`/api/resources${p}`)).status, p).toBe(403);
    }
  });

  it('lists an alias of a folder exactly as the folder', async () => {
    const root = await names('/');
    expect(root).toEqual(['docs', 'loop', 'ok', 'okfile']);
    expect(await names('/loop/')).toEqual(root);
    expect(await names('/loop/loop/')).toEqual(root);
    expect(await names('/docs/up/')).toEqual(root);
    const docs = await names('/docs/');
    expect(docs).toEqual(['a.txt', 'sub', 'up']);
    expect(await names('/ok/')).toEqual(docs);
    expect(await names('/loop/docs/')).toEqual(docs);
  });

  it('keeps allowed aliases working', async () => {
    for (const p of ['/ok/a.txt', '/okfile', '/loop/docs/a.txt', '/docs/up/docs/a.txt']) {
      const response = await get(`/api/raw${p}`);
      expect(response.status, p).toBe(200);
      expect(response.body).toBe('alpha');
    }
  });

  it('judges hidden dotfiles where they are: pub -> .hidden is hidden like .hidden', async () => {
    expect((await get('/api/resources/.hidden/')).status).toBe(403);
    expect((await get('/api/resources/pub/')).status).toBe(403);
    expect((await get('/api/resources/pub')).status).toBe(403);
    expect((await get('/api/resources/loop/.hidden/')).status).toBe(403);
    // Whatever the direct path answers for a file inside, the alias answers the same.
    const direct = await get('/api/raw/.hidden/h.txt');
    const alias = await get('/api/raw/pub/h.txt');
    expect(alias.status).toBe(direct.status);
    expect(await names('/')).not.toContain('pub');
  });
});

describe('WebDAV through an alias', () => {
  it('answers GET and PROPFIND for an alias as for the real path', async () => {
    const direct = await dav(server, 'GET', '/secret/s.txt', davAuth);
    expect(direct.status).not.toBe(200);
    for (const p of ['/loop/secret/s.txt', '/a/s.txt', '/docs/up/secret/s.txt']) {
      const response = await dav(server, 'GET', p, davAuth);
      expect(response.status, p).toBe(direct.status);
      expect(await response.text()).not.toContain(SECRET);
    }
    const deniedFolder = await dav(server, 'PROPFIND', '/secret/', davAuth, {
      headers: { depth: '1' },
    });
    const aliasFolder = await dav(server, 'PROPFIND', '/loop/secret/', davAuth, {
      headers: { depth: '1' },
    });
    expect(aliasFolder.status).toBe(deniedFolder.status);
    const listing = await dav(server, 'PROPFIND', '/loop/', davAuth, { headers: { depth: '1' } });
    expect(listing.status).toBe(207);
    const xml = await listing.text();
    expect(xml).toContain('/dav/loop/docs/');
    expect(xml).not.toContain('secret');
    expect(xml).not.toContain('/dav/loop/pub');
    const ok = await dav(server, 'GET', '/ok/a.txt', davAuth);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('alpha');
  });
});

describe('archives of an alias folder', () => {
  it.each(['zip', 'tar'])('a %s of /loop/ holds what a download of / holds', async (algo) => {
    const unpacked: string[][] = [];
    for (const folder of ['/', '/loop/']) {
      const response = await server.fetch(`/api/raw${folder}?algo=${algo}`, {
        token: alice.token,
      });
      expect(response.status).toBe(200);
      const file = path.join(scratch, `${algo}-${unpacked.length}.${algo}`);
      await writeFile(file, Buffer.from(await response.arrayBuffer()));
      const dest = path.join(scratch, `${algo}-${unpacked.length}`);
      await unpackArchive(file, `.${algo}`, dest);
      unpacked.push(await filesIn(dest));
    }
    const [direct, alias] = unpacked as [string[], string[]];
    expect(direct.some((f) => f.endsWith('docs/a.txt'))).toBe(true);
    for (const list of [direct, alias]) {
      expect(list.filter((f) => f.includes('secret') || f.includes('.hidden'))).toEqual([]);
      expect(list.some((f) => f.endsWith('docs/a.txt'))).toBe(true);
    }
    // Each archive may put its entries below a folder named after what was downloaded.
    const strip = (list: string[]) =>
      list.map((f) => f.replace(/^(users\/alice|alice|loop)\//, ''));
    expect(strip(alias)).toEqual(strip(direct));
  });
});

describe('share links of an alias', () => {
  it('refuses to share a denied file through an alias', async () => {
    for (const p of ['/loop/secret/s.txt', '/a/s.txt', '/docs/sibfile', '/loop/secret/']) {
      const response = await server.fetch(`/api/share${p}`, {
        method: 'POST',
        token: alice.token,
        body: '{}',
      });
      expect(response.status, p).toBe(403);
    }
  });

  it('a shared alias folder hides what the folder hides, and its download too', async () => {
    const created = await server.fetch('/api/share/loop/', {
      method: 'POST',
      token: alice.token,
      body: '{}',
    });
    expect(created.status).toBe(200);
    const { hash } = (await created.json()) as { hash: string };
    const listing = await rawRequest(server.url, 'GET', `/api/public/share/${hash}`);
    expect(listing.status).toBe(200);
    const items = (JSON.parse(listing.body) as { items: { name: string }[] }).items.map(
      (item) => item.name,
    );
    expect(items.sort()).toEqual(['docs', 'loop', 'ok', 'okfile']);
    for (const p of ['/secret/s.txt', '/loop/secret/s.txt', '/a/s.txt', '/docs/up/secret/s.txt']) {
      const download = await rawRequest(server.url, 'GET', `/api/public/dl/${hash}${p}`);
      expect(download.status, p).not.toBe(200);
      expect(download.body).not.toContain(SECRET);
    }
    const allowed = await rawRequest(server.url, 'GET', `/api/public/dl/${hash}/ok/a.txt`);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toBe('alpha');
  });
});

describe('search through an alias', () => {
  async function hits(dir: string, query: string): Promise<string[]> {
    const response = await server.fetch(`/api/search${dir}?query=${encodeURIComponent(query)}`, {
      token: alice.token,
    });
    expect(response.status).toBe(200);
    return (await response.text())
      .split('\n')
      .filter((row) => row.trim() !== '')
      .map((row) => (JSON.parse(row) as { path: string }).path)
      .sort();
  }

  it('finds under an alias what it finds under the real folder, and nothing denied', async () => {
    // Whether the index is built or the folder is walked, the answers agree.
    await eventually(
      () => hits('/', 'b.txt'),
      (found) => found.length === 1,
    );
    expect(await hits('/', 'b.txt')).toEqual(['docs/sub/b.txt']);
    expect(await hits('/loop/', 'b.txt')).toEqual(['docs/sub/b.txt']);
    expect(await hits('/docs/up/', 'b.txt')).toEqual(['docs/sub/b.txt']);
    for (const dir of ['/', '/loop/', '/docs/up/', '/loop/loop/']) {
      expect(await hits(dir, 's.txt'), dir).toEqual([]);
      expect(await hits(dir, 'd.txt'), dir).toEqual([]);
      expect(await hits(dir, 'h.txt'), dir).toEqual([]);
    }
    expect(
      (await server.fetch('/api/search/loop/secret/?query=s', { token: alice.token })).status,
    ).toBe(403);
  });
});

describe('copy, move, delete and restore through an alias', () => {
  const patch = (src: string, action: string, destination: string) =>
    server.fetch(
      `/api/resources${src}?action=${action}&destination=${encodeURIComponent(encodeURIComponent(destination).replace(/%2F/g, '/'))}`,
      { method: 'PATCH', token: alice.token },
    );

  it('refuses to copy or move a denied item out through an alias, or into one', async () => {
    expect((await patch('/loop/secret/s.txt', 'copy', '/docs/stolen.txt')).status).toBe(403);
    expect((await patch('/loop/secret', 'copy', '/docs/stolen')).status).toBe(403);
    expect((await patch('/a', 'copy', '/docs/stolen-a')).status).toBe(403);
    expect((await patch('/docs/sib/s.txt', 'rename', '/docs/stolen.txt')).status).toBe(403);
    expect((await patch('/docs/a.txt', 'copy', '/loop/secret/planted.txt')).status).toBe(403);
    expect((await patch('/docs/a.txt', 'copy', '/docs/up/secret/planted.txt')).status).toBe(403);
    // A folder copied onto an alias of the denied folder.
    expect((await patch('/docs/sub', 'copy', '/b/sub')).status).toBe(403);
    expect(existsSync(path.join(home, 'docs', 'stolen.txt'))).toBe(false);
    expect(existsSync(path.join(home, 'docs', 'stolen'))).toBe(false);
    expect(existsSync(path.join(home, 'secret', 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(home, 'secret', 'sub'))).toBe(false);
    expect(existsSync(path.join(home, 'secret', 's.txt'))).toBe(true);
  });

  it('refuses a delete through an alias of a denied item', async () => {
    for (const p of ['/loop/secret/s.txt', '/docs/up/secret']) {
      const response = await server.fetch(`/api/resources${p}`, {
        method: 'DELETE',
        token: alice.token,
      });
      expect(response.status, p).toBe(403);
    }
    expect(existsSync(path.join(home, 'secret', 's.txt'))).toBe(true);
  });

  it('refuses a copy job whose source or target is an alias of a denied place', async () => {
    for (const item of [
      { from: '/loop/secret/s.txt', to: '/docs/job-stolen.txt' },
      { from: '/docs/a.txt', to: '/loop/secret/job-planted.txt' },
    ]) {
      const response = await server.fetch('/api/jobs', {
        method: 'POST',
        token: alice.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'copy', items: [item] }),
      });
      if (response.status === 202) {
        const { id } = (await response.json()) as { id: string };
        const ended = await eventually(
          async () =>
            (await (await server.fetch(`/api/jobs/${id}`, { token: alice.token })).json()) as {
              state: string;
            },
          (job) => ['failed', 'done', 'cancelled', 'waiting'].includes(job.state),
        );
        expect(ended.state).toBe('failed');
      } else {
        expect(response.status).toBe(403);
      }
    }
    expect(existsSync(path.join(home, 'docs', 'job-stolen.txt'))).toBe(false);
    expect(existsSync(path.join(home, 'secret', 'job-planted.txt'))).toBe(false);
  });

  it('copies and moves through an allowed alias to the real place', async () => {
    expect((await patch('/ok/a.txt', 'copy', '/loop/docs/copied.txt')).status).toBe(200);
    expect(existsSync(path.join(home, 'docs', 'copied.txt'))).toBe(true);
    expect((await patch('/loop/docs/copied.txt', 'rename', '/ok/moved.txt')).status).toBe(200);
    expect(existsSync(path.join(home, 'docs', 'moved.txt'))).toBe(true);
    expect(existsSync(path.join(home, 'docs', 'copied.txt'))).toBe(false);
  });

  it('restores from the trash only where the rules allow the real place', async () => {
    await put('docs/gone/g.txt', 'gone');
    const removed = await server.fetch('/api/resources/loop/docs/gone', {
      method: 'DELETE',
      token: alice.token,
    });
    expect(removed.status).toBeLessThan(300);
    const trash = await server.fetch('/api/trash', { token: alice.token });
    const items = (await trash.json()) as { items?: { id: string; path: string }[] };
    const list = Array.isArray(items) ? (items as { id: string; path: string }[]) : items.items!;
    const item = list.find((entry) => entry.path.endsWith('/gone'));
    expect(item).toBeDefined();
    // The folder is now denied where it really is; a restore through the alias must not land it.
    await server.updateSettings({
      rules: [{ regex: false, allow: false, path: '/docs/gone', regexp: null }],
    });
    try {
      const restored = await server.fetch(`/api/trash/${item!.id}/restore`, {
        method: 'POST',
        token: alice.token,
      });
      expect(restored.status).toBe(403);
      expect(existsSync(path.join(home, 'docs', 'gone'))).toBe(false);
    } finally {
      await server.updateSettings({ rules: [] });
    }
  });
});

describe('the event stream', () => {
  const changed = (event: StreamEvent) => event.type === 'changed';
  const pathOf = (event: StreamEvent) => (event.data as { path: string }).path;

  it('tells of changes by their real place, never of a denied one under an alias', async () => {
    const stream = await openReady(server.url, { token: alice.token });
    try {
      await writeFile(path.join(home, 'secret', 'plan.txt'), 'x');
      await writeFile(path.join(home, '.hidden', 'plan.txt'), 'x');
      // A new alias of the denied folder: its name is no more told than listed.
      await symlink('secret', path.join(home, 'late-alias'));
      const written = await server.fetch('/api/resources/loop/docs/through-alias.txt', {
        method: 'POST',
        token: alice.token,
        body: 'x',
      });
      expect(written.status).toBeLessThan(300);
      // Written last: once it arrived, whatever came of the writes above came with or before it.
      await writeFile(path.join(home, 'docs', 'last.txt'), 'x');
      await stream.next((event) => changed(event) && pathOf(event) === '/docs/last.txt');
      const paths = stream.events.filter(changed).map(pathOf);
      expect(paths).toContain('/docs/through-alias.txt');
      // Nothing denied, no alias of a denied place (a, b, pub), nothing told under an alias.
      expect(
        paths.filter((p) => /secret|hidden|^\/(a|b|pub|late-alias)$|^\/loop\//.test(p)),
      ).toEqual([]);
    } finally {
      stream.close();
      await rm(path.join(home, 'late-alias'), { force: true });
    }
  });
});

describe('sites', () => {
  async function createSite(name: string, folder: string): Promise<void> {
    const created = await server.fetch('/api/sites', {
      method: 'POST',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, folder, starter: true, users: [alice.user.id] }),
    });
    expect(created.status).toBe(201);
  }

  it("a site whose folder is reached through an alias of a denied folder is not the user's", async () => {
    await createSite('aliased', '/users/alice/loop/secret/site');
    await createSite('allowed', '/users/alice/loop/docs/site');
    const mine = await server.fetch('/api/sites', { token: alice.token });
    expect(mine.status).toBe(200);
    const names = ((await mine.json()) as { name: string }[]).map((site) => site.name);
    expect(names).toContain('allowed');
    expect(names).not.toContain('aliased');
    const posts = await server.fetch('/api/sites/aliased/posts', { token: alice.token });
    expect(posts.status).toBe(404);
    const allowedPosts = await server.fetch('/api/sites/allowed/posts', { token: alice.token });
    expect(allowedPosts.status).toBe(200);
  });
});
