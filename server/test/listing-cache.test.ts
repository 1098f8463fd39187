// The listing cache (tree/listing/listing-cache.ts): listings of watched folders served from
// their cached stat'ed children must be exactly what a fresh read gives, per user.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Resource, Sorting } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { clusterConfig } from '../src/cli/serve-cluster.ts';
import type { ServerConfig } from '../src/config/options.ts';
import { ListingCache } from '../src/tree/listing/listing-cache.ts';
import type { UserRecord } from '../src/store/users.repo.ts';
import { PNG, filesUnder, json } from './helpers/resources.ts';
import { eventually } from './helpers/eventually.ts';
import { watched } from './helpers/watched.ts';
import { readListingBytes } from './helpers/listing-bytes.ts';

/** The listing's JSON read now, with or without a cache, as the route would send it. */
async function listingBytes(
  server: TestServer,
  user: UserRecord,
  virtual: string,
  sorting: Sorting,
  cache?: ListingCache,
): Promise<string> {
  return (await readListingBytes(server, user, virtual, sorting, { cache })).bytes;
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
    const small = new ListingCache(server.ctx.search, 2048);
    try {
      for (const folder of ['a', 'b', 'c', 'd']) {
        for (let i = 0; i < 8; i++) await put(`budget/${folder}/file-${i}.txt`, 'x');
      }
      const fs = await server.runtime.services.resources.view(server.admin.user);
      for (const folder of ['a', 'b', 'c', 'd']) {
        await watched(server, `budget/${folder}`);
        expect(await small.folder(fs, await fs.stat(`/budget/${folder}`))).not.toBeNull();
        expect(small.bytes).toBeLessThanOrEqual(2048);
      }
      expect(small.size).toBeLessThan(4);
    } finally {
      small.close();
    }
  });

  it('takes a listing’s count of a folder too big to hold instead of reading it again', async () => {
    const small = new ListingCache(server.ctx.search, 2048); // holds folders of up to 25 children
    try {
      for (const folder of ['told', 'read']) {
        for (let i = 0; i < 3; i++) await put(`counted/${folder}/file-${i}.txt`, 'x');
        await watched(server, `counted/${folder}`);
      }
      const fs = await server.runtime.services.resources.view(server.admin.user);
      // Told it holds more than could fit (as a streamed listing tells it), the cache keeps the
      // folder as uncacheable without a read; one read shows the 3 children would have fit.
      expect(await small.folder(fs, await fs.stat('/counted/told'), { count: 26 })).toBeNull();
      expect(await small.folder(fs, await fs.stat('/counted/told'))).toBeNull();
      expect(await small.folder(fs, await fs.stat('/counted/read'), { count: 3 })).not.toBeNull();
    } finally {
      small.close();
    }
  });

  it('drops everything when changes may have been missed', async () => {
    let resync: () => void = () => undefined;
    const source = {
      isWatched: (real: string) => server.ctx.search.isWatched(real),
      onPathChanged: () => () => undefined,
      childrenOf: () => null,
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

describe('several server processes (--workers)', () => {
  const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');
  let dir: string;
  let database: TestDatabaseHandle;
  let child: ChildProcess;
  const lines: { pid?: number; msg?: string; url?: string; status?: number }[] = [];
  let port: number;

  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });

  /** One request on a connection of its own, so node:cluster hands it to the next worker. */
  const request = (method: string, url: string, headers: Record<string, string>, body = '') =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: url, method, headers, agent: false },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-workers-'));
    database = await testDatabaseFor(path.join(dir, 'data'));
    await mkdir(path.join(dir, 'files', 'shared'), { recursive: true });
    await writeFile(path.join(dir, 'files', 'shared', 'one.txt'), '1');
    port = await freePort();
    child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        '--workers',
        '2',
        '--address',
        '127.0.0.1',
        '--port',
        String(port),
        '--root',
        path.join(dir, 'files'),
        '--data',
        path.join(dir, 'data'),
        '--admin-password',
        ADMIN_PASSWORD,
        '--log-level',
        'info',
        '--log-format',
        'json',
        ...(database.engine === 'postgres' ? ['--database', database.database] : []),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let pending = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const line of complete) {
        try {
          lines.push(JSON.parse(line) as (typeof lines)[number]);
        } catch {
          // not a log line
        }
      }
    });
    await waitFor(
      () => lines.filter((line) => line.msg?.startsWith('Cabinet serving')).length >= 2,
    );
  }, 120_000);

  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Waits for a condition on what the processes printed (they print as they go). */
  async function waitFor(check: () => boolean): Promise<void> {
    while (!check()) {
      if (child.exitCode !== null) throw new Error('the server stopped');
      await new Promise((resolve) => child.stdout!.once('data', resolve));
    }
  }

  it('serves from two processes, and a session made on one is valid on the other', async () => {
    const servers = new Set(
      lines.filter((line) => line.msg?.startsWith('Cabinet serving')).map((line) => line.pid),
    );
    expect(servers.size).toBe(2);
    expect(servers.has(child.pid)).toBe(false); // the primary serves nothing itself

    const login = await request(
      'POST',
      '/api/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    );
    expect(login.status).toBe(200);
    const token = login.body;
    for (let i = 0; i < 6; i++) {
      const listed = await request('GET', '/api/resources/shared/', { 'x-auth': token });
      expect(listed.status).toBe(200);
      expect((JSON.parse(listed.body) as Resource).items!.map((item) => item.name)).toEqual([
        'one.txt',
      ]);
    }
    expect((await request('GET', '/api/resources/shared/', { 'x-auth': 'forged' })).status).toBe(
      401,
    );
    await waitFor(() => lines.filter((line) => line.url === '/api/resources/shared/').length >= 7);
    const loggedIn = lines.find((line) => line.url === '/api/login' && line.status === 200)!.pid;
    const served = lines.filter(
      (line) => line.url === '/api/resources/shared/' && line.status === 200,
    );
    expect(new Set(served.map((line) => line.pid)).size).toBe(2);
    expect(served.some((line) => line.pid !== loggedIn)).toBe(true);
  });

  it('shows a change on disk in the next listings of every process', async () => {
    await writeFile(path.join(dir, 'files', 'shared', 'two.txt'), '2');
    const login = await request(
      'POST',
      '/api/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    );
    const token = login.body;
    const names = async () =>
      (
        JSON.parse(
          (await request('GET', '/api/resources/shared/', { 'x-auth': token })).body,
        ) as Resource
      ).items!.map((item) => item.name);
    // Both processes in turn must show it: poll until two listings in a row do.
    let inARow = 0;
    for (let attempt = 0; inARow < 2; attempt++) {
      if (attempt > 2000) throw new Error('the change never showed');
      inARow = (await names()).includes('two.txt') ? inARow + 1 : 0;
    }
    expect(await names()).toEqual(['one.txt', 'two.txt']);
  });
});

describe('--workers settings', () => {
  it('shares state through the database, and refuses per-process state', () => {
    const base = { workers: 2, sharedState: 'auto' } as ServerConfig;
    expect(clusterConfig(base).sharedState).toBe('database');
    expect(clusterConfig({ ...base, sharedState: 'database' }).sharedState).toBe('database');
    expect(() => clusterConfig({ ...base, sharedState: 'process' })).toThrow(/shared-state/);
    // One process keeps what it was given.
    expect(clusterConfig({ ...base, workers: 1 }).sharedState).toBe('auto');
  });
});
