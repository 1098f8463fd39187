/**
 * Every HTTP route that takes a path, driven by the same hostile-path generator as the ScopedFs
 * properties (testing/hostile-paths.ts; docs/security.md, "Fuzzed boundaries"): resources, raw,
 * archives, previews, subtitles, search, TUS, shares and their public pages, the command socket's
 * working folder, the site routes, the trash and WebDAV. Whatever the path, no answer is a 5xx,
 * no answer carries a byte or a name of a file outside alice's scope, blocked by a rule or hidden,
 * and nothing outside what alice may write changes on disk. Alice's scope also holds aliases
 * (symlinks back into it: a loop, a parent, a sibling, a chain, one to a hidden file), and every
 * read route answers for a path spelled through them what it answers for the real path.
 */
import { createHash } from 'node:crypto';
import { link, mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCommand, commandUrl } from '../testing/command-socket.ts';
import { fuzzRuns, hostilePath, hostileUrlPath } from '../testing/hostile-paths.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { basic } from './helpers/dav.ts';
import { rawRequest, type RawResponse } from './helpers/raw-http.ts';

/** Contents and names that exist only where alice must not reach. */
const LEAKS = [
  'CANARY-OUTSIDE',
  'CANARY-BOB',
  'CANARY-BLOCKED',
  'CANARY-KEY',
  'CANARY-DOT',
  'outside-listing-only',
  'bob-listing-only',
  'blocked-listing-only',
];

/** Symlinks back into alice's scope (beforeAll): loop, parent, sibling, chain, hidden target. */
const ALIASES = ['loop', 'up', 'sib', 'al-1', 'al-2', 'pub'];

/** What the generator builds paths from: alice's names, the names of what lies beyond, climbers. */
const NAMES = [
  'public.txt',
  'dir',
  'a.txt',
  'sub',
  'blocked',
  's.txt',
  'x.key',
  '.env',
  'blog',
  'content',
  'posts',
  'out',
  'outfile',
  'parent-link',
  'loop-a',
  'loop-b',
  'chain-1',
  'in-link',
  'blocked-link',
  'hard.txt',
  'new.txt',
  'users',
  'alice',
  'bob',
  'bob.txt',
  'outside',
  'secret.txt',
  ...ALIASES,
];

let server: TestServer;
let alice: TestUser;
let home: string;
let outside: string;
let share = '';

async function put(file: string, content: string) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}

/** A digest of every name and byte under the folders alice must never change. */
async function guardedDigest(): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const full = path.join(dir, entry.name);
      hash.update(`${full}\n`);
      if (entry.isDirectory()) await visit(full);
      else if (entry.isFile()) hash.update(await readFile(full));
    }
  };
  for (const dir of [outside, path.join(server.root, 'users', 'bob'), path.join(home, 'blocked')])
    await visit(dir);
  for (const file of ['x.key', '.env']) hash.update(await readFile(path.join(home, file)));
  return hash.digest('hex');
}

const send = (
  method: string,
  target: string,
  body?: string,
  headers: Record<string, string> = {},
) =>
  rawRequest(server.url, method, target, {
    token: alice.token,
    ...(body !== undefined && { body }),
    headers,
  });

const json = (method: string, target: string, body: unknown) =>
  send(method, target, JSON.stringify(body), { 'content-type': 'application/json' });

const dav = (method: string, target: string, headers: Record<string, string> = {}, body?: string) =>
  rawRequest(server.url, method, `/dav${target}`, {
    headers: { authorization: basic(alice.user.username, alice.password), ...headers },
    ...(body !== undefined && { body }),
  });

/** The command socket's messages for `ls` in a working folder, or nothing when refused. */
async function commandIn(folder: string): Promise<RawResponse[]> {
  try {
    const socket = await openCommand(commandUrl(server.url, folder.replace(/^\//, '')), 'ls', {
      'X-Auth': alice.token,
    });
    const end = await socket.end;
    return [{ status: 200, headers: {}, body: `${end.messages.join('\n')}\n${end.reason}` }];
  } catch (error) {
    const status = Number(/\d{3}/.exec(String(error))?.[0] ?? 0);
    return [{ status, headers: {}, body: String(error) }];
  }
}

type Driver = (p: string, q: string, decodedP: string, decodedQ: string) => Promise<RawResponse[]>;

const READS: Record<string, Driver> = {
  resource: async (p) => [await send('GET', `/api/resources${p}`)],
  checksum: async (p) => [await send('GET', `/api/resources${p}?checksum=sha256`)],
  recursive: async (p) => [await send('GET', `/api/resources/recursive${p}`)],
  usage: async (p) => [await send('GET', `/api/usage${p}`)],
  raw: async (p) => [
    await send('GET', `/api/raw${p}`),
    await send('GET', `/api/raw${p}?inline=true`),
  ],
  archive: async (_p, _q, dp, dq) => [
    await send('GET', `/api/raw/?files=${encodeURIComponent(`${dp},${dq}`)}&algo=tar`),
    await send('GET', `/api/raw/dir?files=${encodeURIComponent(encodeURIComponent(dp))}&algo=tar`),
  ],
  preview: async (p) => [
    await send('GET', `/api/preview/thumb${p}`),
    await send('GET', `/api/preview/big${p}`),
  ],
  subtitle: async (p) => [await send('GET', `/api/subtitle${p}`)],
  search: async (p) => [await send('GET', `/api/search${p}?query=listing`)],
  publicShare: async (_p, q) => [
    await send('GET', `/api/public/share/${share}${q}`),
    await send('GET', `/api/public/dl/${share}${q}`),
    await send('GET', `/api/public/dl/${share}/?files=${encodeURIComponent(q)}&algo=tar`),
  ],
  command: async (p) => commandIn(p),
  trashRaw: async (p) => [await send('GET', `/api/trash${p}/raw`)],
  davRead: async (p) => [
    await dav('PROPFIND', p, { depth: '1' }),
    await dav('GET', p),
    await dav('PROPFIND', p, { depth: '0' }),
  ],
  sitePreview: async (_p, _q, dp) => {
    const asked = await json('POST', '/api/sites/blog/preview', { path: dp, content: 'x' });
    const answers = [asked];
    if (asked.status === 200) {
      const url = (JSON.parse(asked.body) as { url: string }).url;
      answers.push(await send('GET', `${url}${url.includes('?') ? '&' : '?'}auth=${alice.token}`));
    }
    return answers;
  },
};

const WRITES: Record<string, Driver> = {
  put: async (p) => [await send('PUT', `/api/resources${p}`, 'FUZZ')],
  create: async (p) => [await send('POST', `/api/resources${p}?override=false`, 'FUZZ')],
  copy: async (p, q) => [
    await send(
      'PATCH',
      `/api/resources${p}?action=copy&destination=${encodeURIComponent(q)}&override=true`,
    ),
  ],
  rename: async (p, q) => [
    await send('PATCH', `/api/resources${p}?action=rename&destination=${encodeURIComponent(q)}`),
  ],
  remove: async (p) => [await send('DELETE', `/api/resources${p}`)],
  tus: async (p) => {
    const headers = { 'tus-resumable': '1.0.0' };
    const created = await send('POST', `/api/tus${p}?override=true`, '', {
      ...headers,
      'upload-length': '4',
    });
    const answers = [created];
    if (created.status === 201) {
      answers.push(
        await send('PATCH', `/api/tus${p}`, 'FUZZ', {
          ...headers,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        }),
      );
    }
    return answers;
  },
  share: async (p) => {
    const made = await json('POST', `/api/share${p}`, {});
    const answers = [made];
    if (made.status === 200) {
      const hash = (JSON.parse(made.body) as { hash: string }).hash;
      answers.push(
        await send('GET', `/api/public/share/${hash}`),
        await send('GET', `/api/public/dl/${hash}`),
      );
    }
    return answers;
  },
  sitePost: async (_p, _q, dp, dq) => [
    await json('POST', '/api/sites/blog/posts', { title: 'Fuzz', slug: dp, section: dq }),
    await json('POST', '/api/sites/blog/publish', { path: dp }),
    await json('POST', '/api/sites/blog/unpublish', { path: dq }),
  ],
  trash: async (p) => [
    await json('POST', `/api/trash${p}/restore`, { onConflict: 'keep-both' }),
    await send('DELETE', `/api/trash${p}`),
  ],
  davWrite: async (p, q) => [
    await dav('PUT', p, {}, 'FUZZ'),
    await dav('MKCOL', p),
    await dav('COPY', p, { destination: `${server.url}/dav${q}`, overwrite: 'T' }),
    await dav('MOVE', q, { destination: `${server.url}/dav${p}`, overwrite: 'F' }),
    await dav(
      'PROPPATCH',
      p,
      { 'content-type': 'application/xml' },
      '<?xml version="1.0"?><propertyupdate xmlns="DAV:"><set><prop><x xmlns="urn:x">1</x></prop></set></propertyupdate>',
    ),
    await dav('DELETE', q),
  ],
};

/** Drives one route with a generated pair of paths and checks every answer. */
async function drive(name: string, driver: Driver, p: string, q: string, dp: string, dq: string) {
  for (const answer of await driver(p, q, dp, dq)) {
    // By contract: a preview of a type that has none is 501 (API.md), and a WebDAV COPY or MOVE
    // whose Destination lies outside /dav/ is 502 (RFC 4918, 9.8.5). Any other 5xx is a defect.
    const contractual =
      (name === 'preview' && answer.status === 501) ||
      (name === 'davWrite' && answer.status === 502);
    if (!contractual)
      expect(answer.status, `${name} ${p} ${q}: ${answer.body.slice(0, 200)}`).toBeLessThan(500);
    for (const leak of LEAKS) expect(answer.body, `${name} ${p} ${q}`).not.toContain(leak);
  }
}

/** Segments the alias property spells paths with: the aliases and the real names they reach. */
const ALIAS_SEGMENTS = [
  ...ALIASES,
  'dir',
  'sub',
  'a.txt',
  'public.txt',
  'blocked',
  's.txt',
  'in-link',
  'blocked-link',
  'x.key',
];

/** Whether alice's rules or hideDotfiles refuse a path by its spelling alone. */
function deniedAsSpelled(virtual: string): boolean {
  const name = virtual.slice(virtual.lastIndexOf('/') + 1);
  return (
    virtual === '/blocked' ||
    virtual.startsWith('/blocked/') ||
    name.endsWith('.key') ||
    name.startsWith('.')
  );
}

/**
 * What the read routes answer for a path, made comparable between two spellings: the listing's
 * names (not its paths), the file's bytes, the WebDAV listing's names, the search hits.
 */
async function readAnswers(virtual: string): Promise<RawResponse[]> {
  const encoded = virtual.split('/').map(encodeURIComponent).join('/');
  const resource = await send('GET', `/api/resources${encoded}`);
  const raw = await send('GET', `/api/raw${encoded}`);
  const davGet = await dav('GET', encoded);
  const davList = await dav('PROPFIND', encoded, { depth: '1' });
  const search = await send('GET', `/api/search${encoded}?query=txt`);
  const names = (body: string) => {
    try {
      const parsed = JSON.parse(body) as { name?: string; items?: { name: string }[] };
      return parsed.items ? parsed.items.map((item) => item.name).sort() : parsed.name;
    } catch {
      return body;
    }
  };
  const hrefNames = (xml: string) =>
    [...xml.matchAll(/<(?:\w+:)?href>([^<]*)<\/(?:\w+:)?href>/gi)]
      .map((match) => decodeURIComponent(match[1]!).replace(/\/$/, '').split('/').pop())
      .slice(1)
      .sort();
  const isArchive = (raw.headers['content-type'] ?? '').includes('zip');
  return [
    { ...resource, body: JSON.stringify(names(resource.body)) },
    { ...raw, body: isArchive ? 'an archive' : raw.body },
    { ...davGet, body: davGet.status === 200 ? davGet.body : '' },
    { ...davList, body: JSON.stringify(davList.status === 207 ? hrefNames(davList.body) : []) },
    { ...search, body: search.body.split('\n').filter(Boolean).sort().join('\n') },
  ];
}

const cases = (drivers: Record<string, Driver>) =>
  fc.tuple(
    fc.constantFrom(...Object.keys(drivers)),
    hostileUrlPath(NAMES),
    hostileUrlPath(NAMES),
    hostilePath(NAMES),
    hostilePath(NAMES),
  );

beforeAll(async () => {
  server = await startTestServer({ config: { enableExec: true } });
  home = path.join(server.root, 'users', 'alice');
  outside = path.join(path.dirname(server.root), 'outside');
  await put(path.join(outside, 'secret.txt'), 'CANARY-OUTSIDE');
  await put(path.join(outside, 'outside-listing-only.txt'), 'CANARY-OUTSIDE');
  await put(path.join(server.root, 'users', 'bob', 'bob.txt'), 'CANARY-BOB');
  await put(path.join(server.root, 'users', 'bob', 'bob-listing-only.txt'), 'CANARY-BOB');
  await put(path.join(home, 'public.txt'), 'public');
  await put(path.join(home, 'dir', 'a.txt'), 'a');
  await mkdir(path.join(home, 'dir', 'sub'));
  await put(path.join(home, 'blocked', 's.txt'), 'CANARY-BLOCKED');
  await put(path.join(home, 'blocked', 'blocked-listing-only.txt'), 'CANARY-BLOCKED');
  await put(path.join(home, 'x.key'), 'CANARY-KEY');
  await put(path.join(home, '.env'), 'CANARY-DOT');
  await symlink(outside, path.join(home, 'out'));
  await symlink(path.join(outside, 'secret.txt'), path.join(home, 'outfile'));
  await symlink('../bob', path.join(home, 'parent-link'));
  await symlink('loop-b', path.join(home, 'loop-a'));
  await symlink('loop-a', path.join(home, 'loop-b'));
  await symlink('outfile', path.join(home, 'chain-1'));
  await symlink('public.txt', path.join(home, 'in-link'));
  await symlink('blocked/s.txt', path.join(home, 'blocked-link'));
  await link(path.join(home, 'public.txt'), path.join(home, 'hard.txt'));
  await symlink('.', path.join(home, 'loop'));
  await symlink('..', path.join(home, 'dir', 'up'));
  await symlink('../blocked', path.join(home, 'dir', 'sib'));
  await symlink('al-2', path.join(home, 'al-1'));
  await symlink('blocked', path.join(home, 'al-2'));
  await symlink('.env', path.join(home, 'pub'));
  await server.updateSettings({
    rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.key$' } }],
  });
  alice = await server.createUser({
    scope: '/users/alice',
    hideDotfiles: true,
    commands: ['ls'],
    rules: [{ regex: false, allow: false, path: '/blocked', regexp: null }],
    perm: {
      create: true,
      modify: true,
      delete: true,
      rename: true,
      download: true,
      share: true,
      execute: true,
    },
  });
  const site = await server.fetch('/api/sites', {
    method: 'POST',
    token: server.admin.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'blog',
      folder: '/users/alice/blog',
      starter: true,
      users: [alice.user.id],
    }),
  });
  expect(site.status).toBe(201);
  const shared = await json('POST', '/api/share/', {});
  expect(shared.status).toBe(200);
  share = (JSON.parse(shared.body) as { hash: string }).hash;
});
afterAll(() => server?.close());

describe('every path route under hostile paths', () => {
  it('reads: no 5xx, no byte or name from outside the scope, a blocked path or a hidden file', async () => {
    const before = await guardedDigest();
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(cases(READS), async ([name, p, q, dp, dq]) => {
        const driver = READS[name]!;
        for (const answer of await driver(p, q, dp, dq))
          statuses.add(Math.floor(answer.status / 100));
        await drive(name, driver, p, q, dp, dq);
      }),
      { numRuns: fuzzRuns(600) },
    );
    expect(await guardedDigest()).toBe(before);
    // The generator reached real files as well as refusals.
    expect(statuses).toContain(2);
    expect(statuses).toContain(4);
  });

  it('aliases: every read route answers for an alias what it answers for the real path', async () => {
    const homeReal = await realpath(home);
    let throughAliases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...ALIAS_SEGMENTS), { minLength: 1, maxLength: 5 }),
        async (segments) => {
          const spelled = `/${segments.join('/')}`;
          // The oracle: the kernel's realpath of the folder, then the name.
          const parent = await realpath(path.join(homeReal, ...segments.slice(0, -1))).catch(
            () => null,
          );
          if (parent === null) return;
          const relative = path.relative(homeReal, path.join(parent, segments.at(-1)!));
          if (relative.startsWith('..')) return;
          const direct = `/${relative.split(path.sep).join('/')}`;
          if (direct !== spelled) throughAliases++;
          const [aliasAnswers, directAnswers] = [
            await readAnswers(spelled),
            await readAnswers(direct),
          ];
          for (const answer of aliasAnswers) {
            for (const leak of LEAKS) expect(answer.body, spelled).not.toContain(leak);
          }
          if (deniedAsSpelled(spelled)) {
            // The spelling alone is refused, whatever it leads to.
            expect(aliasAnswers.map((a) => a.status)).toEqual([403, 403, 404, 404, 403]);
            return;
          }
          const shown = (answers: RawResponse[]) =>
            answers.map((answer) => ({ status: answer.status, body: answer.body }));
          expect(shown(aliasAnswers), `${spelled} (really ${direct})`).toEqual(
            shown(directAnswers),
          );
        },
      ),
      { numRuns: fuzzRuns(200) },
    );
    expect(throughAliases).toBeGreaterThan(0);
  });

  it('writes: nothing outside what alice may write changes, and no answer leaks', async () => {
    const before = await guardedDigest();
    await fc.assert(
      fc.asyncProperty(cases(WRITES), async ([name, p, q, dp, dq]) => {
        await drive(name, WRITES[name]!, p, q, dp, dq);
      }),
      { numRuns: fuzzRuns(500) },
    );
    expect(await guardedDigest()).toBe(before);
    // Nothing landed beside the root either.
    expect((await readdir(path.dirname(server.root))).sort()).toEqual(['data', 'files', 'outside']);
    // What went to the trash is alice's: restoring all of it never lands outside either.
    const trashed = JSON.parse((await send('GET', '/api/trash')).body) as Array<{ id: string }>;
    for (const item of trashed)
      await json('POST', `/api/trash/${item.id}/restore`, { onConflict: 'keep-both' });
    expect(await guardedDigest()).toBe(before);
  });
});
