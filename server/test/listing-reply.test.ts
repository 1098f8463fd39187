// Big listings are streamed through reused chunk buffers (http/reply-chunks.ts): the reply must be
// byte for byte the listing's JSON, fresh or from the listing cache.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { listingJson, readListing } from '../src/services/resources/listing.ts';
import { EntryBudget } from '../src/services/resources/listing-memory.ts';
import { until } from './helpers/eventually.ts';

/** 4,000 entries of ~300 bytes of JSON each: a reply of several 256 KiB chunks. */
const FILES = 4000;

describe('streamed listing replies', () => {
  let server: TestServer;

  /** The listing's JSON built now from a fresh read, as the route would write it. */
  const freshJson = async (virtual: string) => {
    const fs = await server.runtime.services.resources.view(server.admin.user);
    const dir = await fs.stat(virtual);
    // The folder's own path as the request names it: with the trailing slash.
    const listing = await readListing(
      fs,
      dir,
      `${dir.path}/`,
      server.admin.user.sorting,
      new EntryBudget(100_000, 1_000),
    );
    listing.done();
    const chunks: Buffer[] = [];
    for await (const chunk of listingJson(listing)) chunks.push(chunk);
    return Buffer.concat(chunks);
  };
  const replyOf = async (virtual: string) => {
    const res = await server.fetch(`/api/resources${virtual}/`, { token: server.admin.token });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  };

  beforeAll(async () => {
    server = await startTestServer();
    for (const folder of ['big', 'linked']) {
      await mkdir(path.join(server.root, folder), { recursive: true });
      for (let i = 0; i < FILES; i++) {
        const name = `${String(i).padStart(5, '0')}-${'long name ünïcode '.repeat(3)}${i % 7}.txt`;
        await writeFile(path.join(server.root, folder, name), 'x'.repeat(i % 50));
      }
    }
    // A folder holding a symlink is never cached: its listings are read fresh every time.
    await symlink('00000-x.txt', path.join(server.root, 'linked', 'a-link'));
    await server.ctx.search.settled();
    for (const folder of ['big', 'linked'])
      await until(() => server.ctx.search.isWatched(path.join(server.ctx.files.realRoot, folder)));
  });
  afterAll(() => server.close());

  it('of a folder read fresh each time are its listing JSON byte for byte', async () => {
    const expected = await freshJson('/linked');
    expect(expected.length).toBeGreaterThan(4 * 256 * 1024);
    const parallel = await Promise.all([replyOf('/linked'), replyOf('/linked')]);
    for (const body of parallel) expect(body.equals(expected)).toBe(true);
    // Known uncacheable once the fill after the reply has read the folder; nothing held.
    await until(() => server.runtime.listingCache.size === 1);
    expect(server.runtime.listingCache.bytes).toBeLessThan(1024);
  });

  it('from the listing cache are the listing JSON byte for byte', async () => {
    const expected = await freshJson('/big');
    expect(expected.length).toBeGreaterThan(4 * 256 * 1024);
    const cache = server.runtime.listingCache;
    const first = await replyOf('/big');
    expect(first.equals(expected)).toBe(true);
    // The first listing filled the cache; the next ones come from it.
    await until(() => cache.size > 1);
    for (let i = 0; i < 3; i++) expect((await replyOf('/big')).equals(expected)).toBe(true);
    const parallel = await Promise.all([replyOf('/big'), replyOf('/big'), replyOf('/big')]);
    for (const body of parallel) expect(body.equals(expected)).toBe(true);
    expect(JSON.parse(first.toString('utf8')).items).toHaveLength(FILES);
  });
});
