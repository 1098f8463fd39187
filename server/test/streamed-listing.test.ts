// Streamed listings (services/resources/streamed-listing.ts): a big folder in name order is
// written while its children are stat'ed, and must give exactly what reading it whole gives, per
// user, in both reply forms.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CompactListingBatch,
  CompactListingHead,
  CompactListingTotals,
  type Sorting,
} from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { compactListing } from '../src/services/resources/compact-listing.ts';
import { listingJson, readListing, type Listing } from '../src/services/resources/listing.ts';
import { EntryBudget } from '../src/services/resources/listing-memory.ts';
import type { UserRecord } from '../src/store/users.repo.ts';
import { FIRST_PART } from '../src/services/resources/streamed-listing.ts';
import { ListingCache } from '../src/tree/listing/listing-cache.ts';
import { newTempName, TEMP_PREFIX } from '../src/fs/temp-files.ts';
import { EntryKind } from '../src/fs/scoped-fs.ts';
import { eventually } from './helpers/eventually.ts';
import { watched } from './helpers/watched.ts';
import { readListingBytes } from './helpers/listing-bytes.ts';

const NAME_ORDERS: Sorting[] = [
  { by: 'name', asc: false },
  { by: 'name', asc: true },
];

async function bytesOf(chunks: AsyncIterable<Buffer>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString('utf8');
}

describe('streamed listings', () => {
  let server: TestServer;
  let outside: string;

  async function open(
    user: UserRecord,
    virtual: string,
    sorting: Sorting,
    stream: boolean,
  ): Promise<Listing> {
    const fs = await server.runtime.services.resources.view(user);
    const dir = await fs.stat(virtual);
    return readListing(fs, dir, dir.path, sorting, new EntryBudget(10_000_000, 1_000), undefined, {
      stream,
    });
  }

  async function both(user: UserRecord, virtual: string, sorting: Sorting) {
    const streamed = await open(user, virtual, sorting, true);
    const whole = await open(user, virtual, sorting, false);
    try {
      expect(streamed.items.kind).toBe('streamed');
      expect(whole.items.kind).toBe('fresh');
      return {
        streamed: await bytesOf(listingJson(streamed)),
        whole: await bytesOf(listingJson(whole)),
      };
    } finally {
      streamed.done();
      whole.done();
    }
  }

  beforeAll(async () => {
    server = await startTestServer({ config: { searchWatch: false } });
    outside = await mkdtemp(path.join(os.tmpdir(), 'cabinet-outside-'));
    await writeFile(path.join(outside, 'escaped.txt'), 'outside');
    const big = path.join(server.root, 'big');
    await mkdir(big);
    // Names that sort differently by code units and naturally: case, digit runs, Unicode.
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 3000; i++) {
      const name = [`file${i}.txt`, `File ${i % 97} copy.md`, `Ünï-${i}.bin`, `report-${i}.pdf`][
        i % 4
      ]!;
      writes.push(writeFile(path.join(big, `${i}-${name}`), 'x'.repeat(i % 50)));
    }
    await Promise.all(writes);
    for (let d = 0; d < 40; d++) await mkdir(path.join(big, `folder ${d}`));
    await writeFile(path.join(big, '.dotfile'), 'dot');
    await writeFile(path.join(big, 'secret.txt'), 'classified');
    await writeFile(path.join(big, 'notes'), 'plain text without an extension');
    await symlink('folder 3', path.join(big, 'zz link to folder'));
    await symlink('1-File 1 copy.md', path.join(big, 'aa link to file'));
    await symlink('gone.txt', path.join(big, 'dangling'));
    await symlink(path.join(outside, 'escaped.txt'), path.join(big, 'escaping'));
  });
  afterAll(async () => {
    await server.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('reads the folder itself when no watch vouches for its names (watching off)', async () => {
    await server.ctx.search.settled();
    expect(server.ctx.search.childrenOf(path.join(server.ctx.files.realRoot, 'big'))).toBeNull();
  });

  it('gives the bytes of a whole read, folders and links to folders first', async () => {
    for (const sorting of NAME_ORDERS) {
      const { streamed, whole } = await both(server.admin.user, '/big', sorting);
      expect(streamed).toBe(whole);
      const body = JSON.parse(streamed) as { items: { name: string; isDir: boolean }[] };
      const names = body.items.map((item) => item.name);
      expect(names).toContain('zz link to folder');
      expect(names).toContain('dangling');
      expect(names).not.toContain('escaping');
      // Folders (the link to one included) come before every file.
      const firstFile = body.items.findIndex((item) => !item.isDir);
      expect(body.items.slice(firstFile).every((item) => !item.isDir)).toBe(true);
      expect(firstFile).toBe(41);
    }
  });

  it('applies each user’s rules, hidden dotfiles and scope', async () => {
    const hiding = await server.createUser({
      hideDotfiles: true,
      rules: [{ allow: false, path: '/big/secret.txt', regex: false, regexp: { raw: '' } }],
    });
    for (const sorting of NAME_ORDERS) {
      const { streamed, whole } = await both(hiding.user, '/big', sorting);
      expect(streamed).toBe(whole);
      expect(streamed).not.toContain('secret.txt');
      expect(streamed).not.toContain('.dotfile');
    }
    const scoped = await server.createUser({ scope: '/big' });
    const { streamed, whole } = await both(scoped.user, '/', NAME_ORDERS[0]!);
    expect(streamed).toBe(whole);
    expect(streamed).toContain('"path":"/secret.txt"');
  });

  it('gives the compact form of a whole read', async () => {
    const streamed = await open(server.admin.user, '/big', NAME_ORDERS[0]!, true);
    const whole = await open(server.admin.user, '/big', NAME_ORDERS[0]!, false);
    try {
      expect(await bytesOf(compactListing(streamed))).toBe(await bytesOf(compactListing(whole)));
    } finally {
      streamed.done();
      whole.done();
    }
  });

  it('counts what it wrote when entries vanish while it is read', async () => {
    const gone = path.join(server.root, 'shrinking');
    await mkdir(gone);
    for (let i = 0; i < 2500; i++) await writeFile(path.join(gone, `f${i}`), '');
    await mkdir(path.join(gone, 'zz-last-folder'));
    const sorting: Sorting = { by: 'name', asc: false };
    const json = await open(server.admin.user, '/shrinking', sorting, true);
    const compact = await open(server.admin.user, '/shrinking', sorting, true);
    expect(json.numFiles).toBe(2500);
    // Past the first part, which was read before the reply started.
    for (let i = 2000; i < 2100; i++) await rm(path.join(gone, `f${i}`));
    const body = JSON.parse(await bytesOf(listingJson(json))) as {
      items: { name: string }[];
      numDirs: number;
      numFiles: number;
    };
    expect(body.items).toHaveLength(2401);
    expect(body.numFiles).toBe(2400);
    expect(body.numDirs).toBe(1);
    expect(body.items.map((item) => item.name)).not.toContain('f2000');

    const lines = (await bytesOf(compactListing(compact))).trim().split('\n');
    const head = CompactListingHead.parse(JSON.parse(lines[0]!));
    expect(head.count).toBe(2501); // as the folder's entries said before the stats
    const batches = lines.slice(1, -1).map((line) => CompactListingBatch.parse(JSON.parse(line)));
    expect(batches[0]!.name).toHaveLength(FIRST_PART);
    const totals = CompactListingTotals.parse(JSON.parse(lines.at(-1)!));
    expect(totals).toEqual({ count: 2401, numDirs: 1, numFiles: 2400 });
    expect(batches.reduce((sum, batch) => sum + batch.name.length, 0)).toBe(totals.count);
    json.done();
    compact.done();
  });

  it('reads whole what it cannot stream', async () => {
    // Size order needs every stat first.
    const bySize = await open(server.admin.user, '/big', { by: 'size', asc: true }, true);
    expect(bySize.items.kind).toBe('fresh');
    bySize.done();
    // A subtitle beside the files: the videos' subtitles are found in a whole read.
    await writeFile(path.join(server.root, 'big/film.srt'), '1\n');
    const subtitled = await open(server.admin.user, '/big', NAME_ORDERS[0]!, true);
    expect(subtitled.items.kind).toBe('fresh');
    subtitled.done();
    await rm(path.join(server.root, 'big/film.srt'));
  });

  it('streams through the route, whose compact reply counts what it holds', async () => {
    const res = await server.fetch('/api/resources/big/?format=compact', {
      token: server.admin.token,
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split('\n');
    const head = CompactListingHead.parse(JSON.parse(lines[0]!));
    const entries = lines
      .slice(1)
      .map((line) => CompactListingBatch.parse(JSON.parse(line)))
      .reduce((sum, batch) => sum + batch.name.length, 0);
    expect(entries).toBe(head.count);
    expect(head.numDirs).toBe(41);
    const plain = await server.fetch('/api/resources/big/', { token: server.admin.token });
    const body = (await plain.json()) as { items: unknown[]; numDirs: number; numFiles: number };
    expect(body.items).toHaveLength(head.count);
    expect(body.numDirs + body.numFiles).toBe(head.count);
  });
});

describe('streamed listings of a watched folder', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    const big = path.join(server.root, 'watched');
    await mkdir(big);
    for (let i = 0; i < 2500; i++) await writeFile(path.join(big, `photo ${i}.jpg`), '');
    await mkdir(path.join(big, 'album'));
    // The same with what a listing judges per user or leaves out (not cacheable: it holds links).
    const mixed = path.join(server.root, 'mixed');
    await mkdir(mixed);
    for (let i = 0; i < 2500; i++) await writeFile(path.join(mixed, `photo ${i}.jpg`), '');
    await mkdir(path.join(mixed, 'album'));
    await writeFile(path.join(mixed, '.dotfile'), 'dot');
    await writeFile(path.join(mixed, 'secret.txt'), 'classified');
    await writeFile(path.join(mixed, newTempName()), 'half-written upload');
    await symlink('album', path.join(mixed, 'zz link to album'));
    await symlink('photo 1.jpg', path.join(mixed, 'aa link to photo'));
    await symlink('gone.jpg', path.join(mixed, 'dangling'));
    await writeFile(path.join(mixed, 'Été 2024.jpg'), ''); // a name whose first unit is not ASCII
    // A video with subtitles beside it: the whole-folder reader finds them.
    const subtitled = path.join(server.root, 'subtitled');
    await mkdir(subtitled);
    for (let i = 0; i < 2500; i++) await writeFile(path.join(subtitled, `photo ${i}.jpg`), '');
    await writeFile(path.join(subtitled, 'film.mp4'), Buffer.alloc(10));
    await writeFile(path.join(subtitled, 'film.SRT'), '1\n00:00:01,000 --> 00:00:02,000\nhi\n');
    await watched(server, 'subtitled');
    await watched(server, 'mixed');
    await watched(server, 'watched');
  });
  afterAll(() => server.close());

  /** A streamed listing's JSON, its names as the folder's watch knows them (no cache kept). */
  async function fromWatches(user: UserRecord, sorting: Sorting): Promise<string> {
    const cache = new ListingCache(server.ctx.search, 0);
    try {
      const { kind, bytes } = await readListingBytes(server, user, '/mixed', sorting, { cache });
      expect(kind).toBe('streamed');
      return bytes;
    } finally {
      cache.close();
    }
  }

  async function wholeRead(user: UserRecord, sorting: Sorting): Promise<string> {
    return (await readListingBytes(server, user, '/mixed', sorting, { stream: false })).bytes;
  }

  /** The admin's listings of /watched, each through the server's listing cache. */
  async function watchedListings(sorting: Sorting) {
    const fs = await server.runtime.services.resources.view(server.admin.user);
    const dir = await fs.stat('/watched');
    const read = () =>
      readListing(
        fs,
        dir,
        dir.path,
        sorting,
        new EntryBudget(10_000_000, 1_000),
        server.runtime.listingCache,
      );
    return { fs, dir, read };
  }

  it('takes the names from the watches without reading the folder, and gives a whole read’s bytes per user', async () => {
    // Once the watch's reports of the writes above are applied, the index vouches for the names.
    const known = await eventually(
      async () => {
        await server.ctx.search.settled();
        return server.ctx.search.childrenOf(path.join(server.ctx.files.realRoot, 'mixed'));
      },
      (children) => children?.count === 2500 + 8,
    );
    const kinds = Array.from({ length: known!.count }, (_, i) => known!.kind(i));
    expect(kinds.filter((kind) => kind === EntryKind.Symlink)).toHaveLength(3);
    const hiding = await server.createUser({
      hideDotfiles: true,
      rules: [{ allow: false, path: '/mixed/secret.txt', regex: false, regexp: { raw: '' } }],
    });
    for (const user of [server.admin.user, hiding.user]) {
      for (const sorting of NAME_ORDERS) {
        const streamed = await fromWatches(user, sorting);
        expect(streamed).toBe(await wholeRead(user, sorting));
        expect(streamed).toContain('"name":"zz link to album"');
        expect(streamed).not.toContain(TEMP_PREFIX);
      }
    }
    const hidden = await fromWatches(hiding.user, NAME_ORDERS[0]!);
    expect(hidden).not.toContain('secret.txt');
    expect(hidden).not.toContain('.dotfile');
  });

  it('reads a folder whose names offer subtitles whole, and gives its videos their subtitles', async () => {
    await eventually(
      async () => {
        await server.ctx.search.settled();
        return server.ctx.search.childrenOf(path.join(server.ctx.files.realRoot, 'subtitled'));
      },
      (children) => children?.count === 2500 + 2,
    );
    const cache = new ListingCache(server.ctx.search, 0);
    try {
      const sorting = NAME_ORDERS[0]!;
      const { kind, bytes } = await readListingBytes(
        server,
        server.admin.user,
        '/subtitled',
        sorting,
        { cache },
      );
      expect(kind).not.toBe('streamed');
      const body = JSON.parse(bytes) as { items: { name: string; subtitles?: string[] }[] };
      expect(body.items.find((item) => item.name === 'film.mp4')?.subtitles).toEqual([
        '/subtitled/film.SRT',
      ]);
    } finally {
      cache.close();
    }
  });

  it('shows a file created or removed on disk in the next listing once its watch reported it', async () => {
    const sorting = NAME_ORDERS[1]!;
    await writeFile(path.join(server.root, 'mixed/made elsewhere.jpg'), 'x');
    await eventually(
      () => fromWatches(server.admin.user, sorting),
      (body) => body.includes('"name":"made elsewhere.jpg"'),
    );
    await rm(path.join(server.root, 'mixed/photo 7.jpg'));
    await eventually(
      () => fromWatches(server.admin.user, sorting),
      (body) => !body.includes('"name":"photo 7.jpg"'),
    );
    expect(await fromWatches(server.admin.user, sorting)).toBe(
      await wholeRead(server.admin.user, sorting),
    );
  });

  it('streams the first listing, then fills the cache for the next ones', async () => {
    const cache = server.runtime.listingCache;
    const { fs, dir, read } = await watchedListings({ by: 'name', asc: false });
    const first = await read();
    expect(first.items.kind).toBe('streamed');
    // Nothing is read for the cache while the streamed reply is being written.
    expect(await cache.folder(fs, dir, { startFill: false })).toBeNull();
    const streamed = await bytesOf(listingJson(first));
    first.done();
    await eventually(
      () => cache.folder(fs, dir, { startFill: false }),
      (folder) => folder !== null,
    );
    const second = await read();
    expect(second.items.kind).toBe('cached');
    expect(await bytesOf(listingJson(second))).toBe(streamed);
    second.done();
  });

  it('keeps what the first listing of a folder its watch knows read, instead of reading it again', async () => {
    const cache = server.runtime.listingCache;
    cache.clear();
    const real = path.join(server.ctx.files.realRoot, 'watched');
    // The index knows the folder's names: a listing could take them instead of reading the disk.
    const known = await eventually(
      async () => {
        await server.ctx.search.settled();
        return server.ctx.search.childrenOf(real);
      },
      (children) => (children?.count ?? 0) > 0,
    );
    expect(cache.canKeep(known!.count)).toBe(true);
    const { fs, dir, read } = await watchedListings({ by: 'name', asc: true });
    const first = await read();
    expect(first.items.kind).toBe('streamed');
    const streamed = await bytesOf(listingJson(first));
    first.done();
    // Kept as the reply was written: no second read of the folder is started or waited for.
    const kept = await cache.folder(fs, dir, { startFill: false, waitForFill: false });
    expect(kept?.names).toHaveLength(known!.count);
    const second = await read();
    expect(second.items.kind).toBe('cached');
    expect(await bytesOf(listingJson(second))).toBe(streamed);
    second.done();
  });
});
