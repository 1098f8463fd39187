// The listing cache (services/resources/listing-cache.ts): listings of watched folders served from
// their cached stat'ed children must be exactly what a fresh read gives, per user.
import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Resource, Sorting } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { ListingCache } from '../src/services/resources/listing-cache.ts';
import { listingJson, readListing } from '../src/services/resources/listing.ts';
import { EntryBudget } from '../src/services/resources/listing-memory.ts';
import type { UserRecord } from '../src/store/users.repo.ts';
import { PNG, filesUnder, json } from './helpers/resources.ts';

/** Polls until `check` passes (the watcher reports a change a little after it happens). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const value = await read();
    if (check(value)) return value;
    if (attempt > 2000) throw new Error('condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function watched(server: TestServer, virtual: string): Promise<void> {
  const real = path.join(server.ctx.files.realRoot, virtual);
  await eventually(
    async () => {
      await server.ctx.search.settled();
      return server.ctx.search.isWatched(real);
    },
    (yes) => yes,
  );
}

/** The listing's JSON read now, with or without a cache, as the route would send it. */
async function listingBytes(
  server: TestServer,
  user: UserRecord,
  virtual: string,
  sorting: Sorting,
  cache?: ListingCache,
): Promise<string> {
  const fs = await server.runtime.services.resources.view(user);
  const dir = await fs.stat(virtual);
  const listing = await readListing(
    fs,
    dir,
    dir.path,
    sorting,
    new EntryBudget(100_000, 1_000),
    cache,
  );
  listing.done();
  return Buffer.concat([...listingJson(listing)]).toString('utf8');
}

const SORTINGS: Sorting[] = [
  { by: 'name', asc: false },
  { by: 'name', asc: true },
  { by: 'size', asc: true },
  { by: 'size', asc: false },
  { by: 'modified', asc: true },
  { by: 'modified', asc: false },
];

describe('listing cache, folders watched', () => {
  let server: TestServer;
  const { put } = filesUnder(() => server.root);
  const names = (body: Resource) => body.items!.map((item) => item.name);
  const list = async (virtual: string, token = server.admin.token) => {
    const res = await server.fetch(`/api/resources${virtual}`, { token });
    expect(res.status).toBe(200);
    return json(res);
  };

  beforeAll(async () => {
    server = await startTestServer();
    await put('mix/a.txt', 'hello');
    await put('mix/Zed "quoted" \\ name.md', '# hi');
    await put('mix/ünïcode-名前.bin', Buffer.from([0, 1, 2, 255]));
    await put('mix/picture', PNG); // typed by its bytes
    await put('mix/file10.txt', 'ten');
    await put('mix/file2.txt', 'two');
    await put('mix/.hidden', 'dot');
    await put('mix/secret.txt', 'classified');
    await put('mix/sub/inner.txt', 'x');
    await put('mix/empty/.keep', '');
    await utimes(
      path.join(server.root, 'mix/a.txt'),
      new Date('2020-01-01'),
      new Date('2020-01-01'),
    );
    await watched(server, 'mix');
  });
  afterAll(() => server.close());

  it('serves the same bytes as a fresh read, in every sorting', async () => {
    const cache = server.runtime.listingCache;
    for (const sorting of SORTINGS) {
      const fresh = await listingBytes(server, server.admin.user, '/mix', sorting);
      const fromCache = await listingBytes(server, server.admin.user, '/mix', sorting, cache);
      const again = await listingBytes(server, server.admin.user, '/mix', sorting, cache);
      expect(fromCache).toBe(fresh);
      expect(again).toBe(fresh);
    }
    expect(cache.size).toBeGreaterThan(0);
    expect(cache.bytes).toBeGreaterThan(0);
    // What is kept is the folder's own children, all of them, hidden and denied included.
    const fs = await server.runtime.services.resources.view(server.admin.user);
    const folder = await cache.folder(fs, await fs.stat('/mix'));
    expect(folder?.key).toBe(path.join(server.ctx.files.realRoot, 'mix'));
    expect(folder?.names).toContain('.hidden');
  });

  it('shows a change another program makes on disk in the next listing', async () => {
    const before = await list('/mix');
    expect(names(before)).not.toContain('new.txt');
    await writeFile(path.join(server.root, 'mix/new.txt'), 'fresh');
    const added = await eventually(
      () => list('/mix'),
      (body) => names(body).includes('new.txt'),
    );
    expect(added.items!.find((item) => item.name === 'new.txt')!.size).toBe(5);

    await writeFile(path.join(server.root, 'mix/new.txt'), 'much longer now');
    await eventually(
      () => list('/mix'),
      (body) => body.items!.find((item) => item.name === 'new.txt')?.size === 15,
    );

    await rm(path.join(server.root, 'mix/new.txt'));
    const removed = await eventually(
      () => list('/mix'),
      (body) => !names(body).includes('new.txt'),
    );
    expect(removed.numFiles).toBe(before.numFiles);
  });

  it('shows a change inside a child folder in the child folder’s modified time', async () => {
    const modified = async () =>
      (await list('/mix')).items!.find((item) => item.name === 'sub')!.modified;
    await utimes(path.join(server.root, 'mix/sub'), new Date('2019-05-05'), new Date('2019-05-05'));
    await eventually(modified, (value) => value.startsWith('2019-05-05'));
    await writeFile(path.join(server.root, 'mix/sub/more.txt'), 'more');
    await eventually(modified, (value) => !value.startsWith('2019-05-05'));
  });

  it('shows Cabinet’s own writes at once', async () => {
    await list('/mix');
    const res = await server.fetch('/api/resources/mix/uploaded.txt?override=true', {
      method: 'POST',
      token: server.admin.token,
      body: 'up',
    });
    expect(res.status).toBe(200);
    expect(names(await list('/mix'))).toContain('uploaded.txt');
  });

  it('applies each user’s rules and hidden dotfiles to the one cached folder', async () => {
    const everything = await list('/mix');
    expect(names(everything)).toEqual(expect.arrayContaining(['.hidden', 'secret.txt']));
    const hiding = await server.createUser({
      hideDotfiles: true,
      rules: [{ allow: false, path: '/mix/secret.txt', regex: false, regexp: { raw: '' } }],
    });
    const body = await list('/mix', hiding.token);
    expect(names(body)).not.toContain('.hidden');
    expect(names(body)).not.toContain('secret.txt');
    expect(body.numFiles).toBe(everything.numFiles! - 2);
    expect(body.numDirs).toBe(everything.numDirs);
    // And the same bytes as that user's fresh read.
    for (const sorting of SORTINGS) {
      expect(
        await listingBytes(server, hiding.user, '/mix', sorting, server.runtime.listingCache),
      ).toBe(await listingBytes(server, hiding.user, '/mix', sorting));
    }
    // A user scoped to the folder sees it as its root: other paths, same children.
    const scoped = await server.createUser({ scope: '/mix' });
    const root = await list('/', scoped.token);
    expect(root.items!.find((item) => item.name === 'a.txt')!.path).toBe('/a.txt');
    expect(
      await listingBytes(server, scoped.user, '/', SORTINGS[0]!, server.runtime.listingCache),
    ).toBe(await listingBytes(server, scoped.user, '/', SORTINGS[0]!));
    // The admin still sees everything afterwards.
    expect(names(await list('/mix'))).toEqual(names(everything));
  });

  it('keeps no folder holding a symlink, and still lists it right', async () => {
    await put('links/target.txt', 'target');
    await symlink('target.txt', path.join(server.root, 'links/link.txt'));
    await watched(server, 'links');
    const cache = server.runtime.listingCache;
    const fs = await server.runtime.services.resources.view(server.admin.user);
    expect(await cache.folder(fs, await fs.stat('/links'))).toBeNull();
    const body = await list('/links');
    expect(body.items!.find((item) => item.name === 'link.txt')!.isSymlink).toBe(true);
    expect(await listingBytes(server, server.admin.user, '/links', SORTINGS[0]!, cache)).toBe(
      await listingBytes(server, server.admin.user, '/links', SORTINGS[0]!),
    );
  });

  it('stays within its byte budget, dropping the least recently used folders', async () => {
    const small = new ListingCache(server.ctx.search, 4096);
    try {
      for (const folder of ['a', 'b', 'c', 'd']) {
        for (let i = 0; i < 8; i++) await put(`budget/${folder}/file-${i}.txt`, 'x');
      }
      const fs = await server.runtime.services.resources.view(server.admin.user);
      for (const folder of ['a', 'b', 'c', 'd']) {
        await watched(server, `budget/${folder}`);
        expect(await small.folder(fs, await fs.stat(`/budget/${folder}`))).not.toBeNull();
        expect(small.bytes).toBeLessThanOrEqual(4096);
      }
      expect(small.size).toBeLessThan(4);
    } finally {
      small.close();
    }
  });

  it('drops everything when changes may have been missed', async () => {
    let resync: () => void = () => undefined;
    const source = {
      isWatched: (real: string) => server.ctx.search.isWatched(real),
      onPathChanged: () => () => undefined,
      onResync: (listener: () => void) => {
        resync = listener;
        return () => undefined;
      },
    };
    const detached = new ListingCache(source, 1 << 20);
    const fs = await server.runtime.services.resources.view(server.admin.user);
    expect(await detached.folder(fs, await fs.stat('/mix'))).not.toBeNull();
    expect(detached.size).toBe(1);
    resync();
    expect(detached.size).toBe(0);
    expect(detached.bytes).toBe(0);
    detached.close();
  });
});

describe('listing cache, watching off', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ config: { searchWatch: false } });
    await mkdir(path.join(server.root, 'plain'));
    await writeFile(path.join(server.root, 'plain/one.txt'), '1');
    await server.ctx.search.settled();
  });
  afterAll(() => server.close());

  it('caches nothing and shows a change on disk at once', async () => {
    const list = async () => {
      const res = await server.fetch('/api/resources/plain', { token: server.admin.token });
      return json(res);
    };
    expect((await list()).items!.map((item) => item.name)).toEqual(['one.txt']);
    expect(server.ctx.search.isWatched(path.join(server.ctx.files.realRoot, 'plain'))).toBe(false);
    expect(server.runtime.listingCache.size).toBe(0);
    await writeFile(path.join(server.root, 'plain/two.txt'), '2');
    // No waiting: nothing was kept, so the very next listing reads the disk.
    expect((await list()).items!.map((item) => item.name)).toEqual(['one.txt', 'two.txt']);
    expect(server.runtime.listingCache.size).toBe(0);
  });
});
