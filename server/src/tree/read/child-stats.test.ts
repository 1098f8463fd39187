import { lstatSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNames, statChildren } from './child-stats.ts';
import { FindStats } from './find-stats.ts';

let dir: string;
const finder = new FindStats();
/** More entries than the thread pool stats alone, so find takes part. */
const FILES = 5_000;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-child-stats-'));
  for (let i = 0; i < FILES; i++) {
    await writeFile(path.join(dir, `f${i}.dat`), 'x'.repeat(i % 97));
  }
  await writeFile(path.join(dir, 'notes'), 'plain text without an extension');
  await writeFile(path.join(dir, 'bin'), Buffer.from([0, 1, 2, 3]));
  await writeFile(path.join(dir, 'ünïcødé 名前'), 'named in UTF-8');
  await mkdir(path.join(dir, 'sub'));
  await symlink('notes', path.join(dir, 'link'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const expectSameAsLstat = (names: string[], stats: Awaited<ReturnType<typeof statChildren>>) => {
  names.forEach((name, i) => {
    const info = lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    if (!info) {
      expect(stats.mode(i)).toBe(-1);
      return;
    }
    expect([stats.size(i), stats.mtimeMs(i), stats.mode(i)]).toEqual([
      info.size,
      info.mtimeMs,
      info.mode,
    ]);
  });
};

describe('readNames', () => {
  it('reads every name of a folder, as readdir does', async () => {
    expect((await readNames(dir)).sort()).toEqual(readdirSync(dir).sort());
  });

  it('fails like readdir on a missing folder', async () => {
    await expect(readNames(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe.each([
  ['find', finder],
  ['the thread pool alone', undefined],
  ['the thread pool, find missing', new FindStats('cabinet-no-such-find')],
])('statChildren through %s', (_through, finder) => {
  it('gives every entry the numbers lstat gives', async () => {
    const names = [...readdirSync(dir), 'vanished-before-stat'];
    const stats = await statChildren(dir, names, { finder });
    expectSameAsLstat(names, stats);
    // The link itself is reported, not its target.
    expect(stats.mode(names.indexOf('link')) & 0o170000).toBe(0o120000);
  });

  it('reads the first bytes of wanted small files only', async () => {
    const names = readdirSync(dir);
    const stats = await statChildren(dir, names, {
      finder,
      wantHead: (name) => !name.includes('.') || name === 'f7.dat' || name === 'f90.dat',
      headBytes: 8,
      headMaxSize: 50,
    });
    const head = (name: string) => stats.head(names.indexOf(name))?.toString('latin1');
    expect(head('notes')).toBe('plain te');
    expect(head('bin')).toBe('\x00\x01\x02\x03');
    expect(head('f7.dat')).toBe('xxxxxxx');
    expect(head('f90.dat')).toBeUndefined(); // wanted, but 90 bytes is past headMaxSize
    expect(head('f1.dat')).toBeUndefined(); // not wanted
    expect(head('sub')).toBeUndefined(); // a folder
    expect(head('link')).toBeUndefined(); // links are followed by ScopedFs, not here
    expect(head('ünïcødé 名前')).toBe('named in');
  });

  it('serves several folders at once', async () => {
    const names = readdirSync(dir);
    const all = await Promise.all([1, 2, 3].map(() => statChildren(dir, names, { finder })));
    for (const stats of all) expectSameAsLstat(names, stats);
  });
});
