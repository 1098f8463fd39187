import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SitePreviews } from './site-previews.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-previews-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('SitePreviews: replaced previews', () => {
  it('keeps one preview per user and post, and at most the count given, the newest', async () => {
    const previews = new SitePreviews(dir);
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await previews.create({ site: 's', userId: 1, post: `p${i}.md`, createdAt: i }));
    }
    const again = await previews.create({ site: 's', userId: 1, post: 'p4.md', createdAt: 10 });
    const replaced = await previews.replacedBy(
      again.id,
      { site: 's', userId: 1, post: 'p4.md', createdAt: 10 },
      3,
    );
    await previews.discard(replaced);
    // p4's earlier preview was replaced; of the rest, the two newest stay beside the new one.
    const kept = [again.id, made[2]!.id, made[3]!.id].sort();
    expect((await readdir(dir)).filter((name) => name !== '.discarded').sort()).toEqual(kept);
    // Discarded previews answer no more at once; their files go with the next purge.
    expect(await previews.meta(made[4]!.id)).toBeUndefined();
    expect(await previews.find(made[0]!.id, 'index.html')).toBeUndefined();
    expect(await readdir(path.join(dir, '.discarded'))).toHaveLength(3);
    await previews.purge();
    expect(await readdir(path.join(dir, '.discarded'))).toEqual([]);
  });
});
