import { link, lstat, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolderChildren } from '../read/folder-children.ts';
import { readNames, statChildren } from '../read/child-stats.ts';
import { folderStamp } from '../read/folder-stamp.ts';
import { build } from './listing-cache.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-build-'));
  // Names whose listing order (folders first, then files by length) is not code-unit order, with
  // cycles of several lengths in the permutation between the two.
  for (const name of ['zeta', 'Beta', 'alpha']) await mkdir(path.join(dir, name));
  for (let i = 0; i < 40; i++) {
    await writeFile(path.join(dir, `file-${(i * 7919) % 101}.txt`), 'x'.repeat(i));
  }
  await writeFile(path.join(dir, 'shared.bin'), Buffer.from([0, 1, 2]));
  await link(path.join(dir, 'shared.bin'), path.join(dir, 'shared-link.bin'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('build', () => {
  it('keeps a folder read in listing order in code-unit order, each column beside its name', async () => {
    const names = await readNames(dir);
    const children = new FolderChildren(
      { path: '/', real: dir },
      names,
      await statChildren(dir, names),
    );
    const listingOrder = names
      .map((name, i) => ({ name, i, dir: children.isDir(i), size: children.size(i) }))
      .sort(
        (a, b) => Number(b.dir) - Number(a.dir) || a.size - b.size || (a.name < b.name ? 1 : -1),
      )
      .map(({ i }) => i);
    const stamp = await folderStamp(dir);
    const folder = build(dir, stamp!, [{ children, order: listingOrder }]);

    expect(folder).not.toBeNull();
    expect(folder!.names).toEqual([...names].sort());
    for (const [at, name] of folder!.names.entries()) {
      const info = await lstat(path.join(dir, name));
      expect([folder!.isDir[at], folder!.sizes[at], folder!.mtimes[at], folder!.modes[at]]).toEqual(
        [info.isDirectory() ? 1 : 0, info.size, info.mtimeMs, info.mode],
      );
    }
    // The two hard links are found at their sorted places.
    expect([...folder!.linked].map((at) => folder!.names[at])).toEqual([
      'shared-link.bin',
      'shared.bin',
    ]);
  });
});
