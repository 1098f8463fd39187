import { mkdir, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  COMPACT_LISTING_TYPE,
  CompactListingBatch,
  CompactListingHead,
  Resource,
  type ResourceItem,
  type Sorting,
} from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** Above the route's streaming threshold (1,000) and the first batch (256): several lines. */
const FILES = 1_300;

let server: TestServer;
let home: string;

/**
 * Decodes a compact reply as the protocol describes it (written here again, independently of the
 * web app's decoder, so that the two are checked against the same text).
 */
function decodeCompact(text: string): Resource {
  expect(text.endsWith('\n')).toBe(true);
  const [headLine, ...batchLines] = text.slice(0, -1).split('\n');
  const head = CompactListingHead.parse(JSON.parse(headLine!));
  const items: ResourceItem[] = [];
  for (const line of batchLines) {
    const batch = CompactListingBatch.parse(JSON.parse(line));
    const subtitles = new Map(batch.subtitles);
    batch.name.forEach((name, k) => {
      const item: ResourceItem = {
        path: head.base + name,
        name,
        size: batch.size[k]!,
        extension: name.includes('.') ? name.slice(name.lastIndexOf('.')) : '',
        modified: batch.modified[k]!,
        mode: batch.mode[k]!,
        isDir: (batch.flags[k]! & 1) !== 0,
        isSymlink: (batch.flags[k]! & 2) !== 0,
        type: head.types[batch.type[k]!]!,
      };
      if (subtitles.has(k)) item.subtitles = subtitles.get(k);
      items.push(item);
    });
  }
  expect(items).toHaveLength(head.count);
  const { count: _count, base: _base, types: _types, ...folder } = head;
  return { ...folder, items };
}

async function both(token: string, folder: string): Promise<[Resource, Resource, string]> {
  const plain = await server.fetch(`/api/resources${folder}`, { token });
  expect(plain.status).toBe(200);
  const compact = await server.fetch(`/api/resources${folder}?format=compact`, { token });
  expect(compact.status).toBe(200);
  expect(compact.headers.get('content-type')).toContain(COMPACT_LISTING_TYPE);
  const text = await compact.text();
  return [Resource.parse(await plain.json()), decodeCompact(text), text];
}

beforeAll(async () => {
  server = await startTestServer();
  home = path.join(server.root, 'users', 'carol');
  const big = path.join(home, 'big');
  await mkdir(path.join(big, 'sub'), { recursive: true });
  await mkdir(path.join(home, 'private'), { recursive: true });
  await writeFile(path.join(home, 'private', 'secret.txt'), 'secret');
  await Promise.all(
    Array.from({ length: FILES }, async (_, i) => {
      const file = path.join(big, `file ${i} «ü».${['txt', 'jpg', 'mp4', 'bin'][i % 4]}`);
      await writeFile(file, 'x'.repeat(i % 97));
      // Distinct times (some before 1970, some with fractions) so every order is exercised.
      const seconds = (i % 2 ? 1 : -1) * (i * 86_400 + 0.25);
      await utimes(file, seconds, seconds);
    }),
  );
  await writeFile(path.join(big, 'file 2 «ü».srt'), 'subtitle');
  await writeFile(path.join(big, '.hidden'), 'dot');
  await writeFile(path.join(big, 'blocked.key'), 'key');
  await writeFile(path.join(big, 'no-extension'), 'plain');
  await mkdir(path.join(big, 'a folder'));
  await mkdir(path.join(big, '.dot-folder'));
  await symlink('file 1 «ü».jpg', path.join(big, 'link.jpg'));
  await symlink('nowhere', path.join(big, 'broken'));
  await symlink('../private', path.join(big, 'private-link'));
  await server.updateSettings({
    rules: [{ regex: true, allow: false, path: '', regexp: { raw: '\\.key$' } }],
  });
});
afterAll(() => server.close());

describe('GET /api/resources/{folder}?format=compact', () => {
  it.each<Sorting>([
    { by: 'name', asc: false },
    { by: 'name', asc: true },
    { by: 'size', asc: false },
    { by: 'modified', asc: true },
  ])(
    'carries exactly the default reply, rules and hidden dotfiles applied (%o)',
    async (sorting) => {
      const carol = await server.createUser({
        scope: '/users/carol',
        hideDotfiles: true,
        sorting,
        rules: [{ regex: false, allow: false, path: '/private', regexp: null }],
      });
      const [plain, compact, text] = await both(carol.token, '/big/');
      expect(compact).toEqual(plain);
      // Several batch lines: the first one small so the first rows come early.
      expect(text.split('\n').length).toBeGreaterThan(3);
      const names = compact.items!.map((item) => item.name);
      expect(names).not.toContain('.hidden');
      expect(names).not.toContain('.dot-folder');
      expect(names).not.toContain('blocked.key');
      expect(names).toContain('a folder');
      expect(names).toContain('broken');
      expect(compact.items!.find((item) => item.name === 'file 2 «ü».mp4')?.subtitles).toEqual([
        '/big/file 2 «ü».srt',
      ]);
      expect(compact.sorting).toEqual(sorting);
      expect(text).not.toContain('secret');
    },
  );

  it('carries the same from a folder served by the listing cache', async () => {
    const plainFolder = path.join(server.root, 'users', 'dave', 'plain');
    await mkdir(path.join(plainFolder, 'inner'), { recursive: true });
    await mkdir(path.join(plainFolder, '.dot-folder'));
    for (let i = 0; i < 40; i++) {
      await writeFile(
        path.join(plainFolder, `note ${i}.${['txt', 'png', 'bin'][i % 3]}`),
        'n'.repeat(i),
      );
    }
    await writeFile(path.join(plainFolder, '.hidden'), 'dot');
    await writeFile(path.join(plainFolder, 'blocked.key'), 'key');
    const dave = await server.createUser({ scope: '/users/dave', hideDotfiles: true });
    const real = path.join(server.ctx.files.realRoot, 'users/dave/plain');
    // Watched once the index has walked it: only then may a listing of it be cached.
    await expect
      .poll(
        async () => {
          await server.ctx.search.settled();
          return server.ctx.search.isWatched(real);
        },
        { timeout: 60_000, interval: 20 },
      )
      .toBe(true);
    const cache = server.runtime.listingCache;
    const fs = await server.runtime.services.resources.view(dave.user);
    expect((await cache.folder(fs, await fs.stat('/plain')))?.key).toBe(real);
    const [plain, compact] = await both(dave.token, '/plain/');
    expect(compact).toEqual(plain);
    const names = compact.items!.map((item) => item.name);
    expect(names).toHaveLength(41);
    expect(names).not.toContain('.hidden');
    expect(names).not.toContain('blocked.key');
    expect(compact.items!.find((item) => item.name === 'inner')?.isDir).toBe(true);
    expect(compact.items!.find((item) => item.name === 'note 1.png')?.type).toBe('image');
  });

  it('shows dotfiles to a user who does not hide them, and small folders in one buffer', async () => {
    const dave = await server.createUser({ scope: '/users/carol', hideDotfiles: false });
    const [plain, compact] = await both(dave.token, '/big/');
    expect(compact).toEqual(plain);
    expect(compact.items!.map((item) => item.name)).toContain('.hidden');
    const [plainRoot, compactRoot] = await both(dave.token, '/');
    expect(compactRoot).toEqual(plainRoot);
    expect(compactRoot.items!.map((item) => item.path).sort()).toEqual(['/big', '/private']);
  });

  it('answers a file with its default JSON details', async () => {
    const carol = await server.createUser({ scope: '/users/carol' });
    const reply = await server.fetch('/api/resources/big/no-extension?format=compact', {
      token: carol.token,
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(Resource.parse(await reply.json()).name).toBe('no-extension');
  });

  it('refuses an unknown format, a path blocked by a rule and a request without a session', async () => {
    const carol = await server.createUser({
      scope: '/users/carol',
      rules: [{ regex: false, allow: false, path: '/private', regexp: null }],
    });
    expect(
      (await server.fetch('/api/resources/big/?format=xml', { token: carol.token })).status,
    ).toBe(400);
    const blocked = await server.fetch('/api/resources/private/?format=compact', {
      token: carol.token,
    });
    expect(blocked.status).toBe(403);
    expect(await blocked.text()).not.toContain('secret');
    expect((await server.fetch('/api/resources/big/?format=compact')).status).toBe(401);
  });
});
