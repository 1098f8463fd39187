import { mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PreviewCache, type PreviewKey } from './preview-cache.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'preview-cache-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const key = (n: number): PreviewKey => ({
  real: `/srv/photos/${n}.jpg`,
  size: 1000 + n,
  mtimeMs: 1_700_000_000_000,
  variant: 'thumb',
  extension: 'jpg',
});

async function cachedBytes(): Promise<number> {
  let total = 0;
  for (const entry of await readdir(folder, { recursive: true })) {
    const info = await stat(path.join(folder, String(entry)));
    if (info.isFile()) total += info.size;
  }
  return total;
}

describe('PreviewCache budget', () => {
  it('stays within its byte budget, removing the least recently used previews first', async () => {
    const cache = new PreviewCache(folder, undefined, 100_000);
    await cache.put(key(0), Buffer.alloc(10_000, 1));
    // Made long ago, then looked at again: the read makes it the most recently used.
    const old = new Date(Date.now() - 3_600_000);
    await utimes(path.join(folder, 'srv/photos/0.jpg/@thumb-1000-1700000000000.jpg'), old, old);
    expect(await cache.get(key(0))).toHaveLength(10_000);
    for (let n = 1; n <= 30; n++) {
      await cache.put(key(n), Buffer.alloc(10_000, n));
      // Older files first: each write a little later than the one before.
      const at = new Date(Date.now() - 3_000_000 + n * 1000);
      await utimes(
        path.join(folder, `srv/photos/${n}.jpg/@thumb-${1000 + n}-1700000000000.jpg`),
        at,
        at,
      );
    }
    await cache.settled();
    await cache.enforceBudget();
    expect(await cachedBytes()).toBeLessThanOrEqual(100_000);
    expect(await cache.get(key(0))).toBeDefined();
    expect(await cache.get(key(1))).toBeUndefined();
    expect(await cache.get(key(30))).toBeDefined();
  });
});
