// GET /api/memory (routes/memory.routes.ts): what the process holds, for administrators only.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { filesUnder } from './helpers/resources.ts';
import { until } from './helpers/eventually.ts';

interface MemoryReport {
  process: Record<'rss' | 'heapTotal' | 'heapUsed' | 'external' | 'arrayBuffers', number>;
  searchIndex: { ready: boolean; entries: number; bytes: number };
  listingCache: { capacity: number; bytes: number; folders: number };
}

describe('GET /api/memory', () => {
  let server: TestServer;
  let alice: TestUser;
  const { put } = filesUnder(() => server.root);
  const report = async () => {
    const res = await server.fetch('/api/memory', { token: server.admin.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    return (await res.json()) as MemoryReport;
  };

  beforeAll(async () => {
    server = await startTestServer({ config: { listingCache: 4 } });
    alice = await server.createUser({ username: 'alice', perm: { admin: false } });
    for (let i = 0; i < 20; i++) await put(`many/file-${i}.txt`, 'x'.repeat(i));
    await server.ctx.search.settled();
  });
  afterAll(() => server.close());

  it("gives the index's entries and the cache's bytes as the process holds them", async () => {
    const before = await report();
    expect(before.process.rss).toBeGreaterThan(0);
    expect(before.process.heapUsed).toBeGreaterThan(0);
    expect(before.process.heapUsed).toBeLessThanOrEqual(before.process.heapTotal);
    expect(before.searchIndex.ready).toBe(true);
    // The folder and its 20 files (and the root, depending on how the index counts it).
    expect(before.searchIndex.entries).toBe(server.ctx.search.current!.live);
    expect(before.searchIndex.entries).toBeGreaterThanOrEqual(21);
    expect(before.searchIndex.bytes).toBe(server.ctx.search.current!.memoryBytes);
    expect(before.listingCache).toEqual({ capacity: 4 * 1024 * 1024, bytes: 0, folders: 0 });

    // A listing of a watched folder fills the cache; the report shows what it holds.
    const real = path.join(server.ctx.files.realRoot, 'many');
    await until(() => server.ctx.search.isWatched(real));
    const listed = await server.fetch('/api/resources/many/', { token: server.admin.token });
    expect(listed.status).toBe(200);
    await listed.arrayBuffer();
    let after = await report();
    await until(async () => {
      after = await report();
      return after.listingCache.folders > 0;
    });
    expect(after.listingCache.bytes).toBe(server.runtime.listingCache.bytes);
    expect(after.listingCache.bytes).toBeGreaterThan(20 * 40); // 20 children, 40 bytes at least each
  });

  it('refuses users who are not administrators, and anonymous requests', async () => {
    const asUser = await server.fetch('/api/memory', { token: alice.token });
    expect(asUser.status).toBe(403);
    const anonymous = await server.fetch('/api/memory');
    expect(anonymous.status).toBe(401);
  });
});
