import { execFileSync } from 'node:child_process';
import { chmodSync, linkSync, lstatSync, symlinkSync, utimesSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FindStats } from './find-stats.ts';

let dir: string;

/** Names find must pass through untouched: options' look-alikes, newlines, UTF-8, slashes' kin. */
const NAMES = [
  'plain.txt',
  '-maxdepth',
  '--help',
  'line\nbreak',
  'ünïcødé 名前',
  'with spaces and % signs %p',
  'back\\slash',
  '.hidden',
  'setuid',
  'old',
  'sub',
  'link',
  'dangling',
  'fifo',
  'hard',
  'hard-too',
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-find-stats-'));
  for (const name of NAMES.slice(0, 10)) {
    await writeFile(path.join(dir, name), name.repeat(3));
  }
  chmodSync(path.join(dir, 'setuid'), 0o4755);
  // Before 1970, with half a second: negative seconds and nanoseconds as lstat gives them.
  utimesSync(path.join(dir, 'old'), -315619199.5, -315619199.5);
  await mkdir(path.join(dir, 'sub'));
  chmodSync(path.join(dir, 'sub'), 0o1777);
  symlinkSync('plain.txt', path.join(dir, 'link'));
  symlinkSync('nowhere', path.join(dir, 'dangling'));
  execFileSync('mkfifo', [path.join(dir, 'fifo')]);
  await writeFile(path.join(dir, 'hard'), 'linked');
  linkSync(path.join(dir, 'hard'), path.join(dir, 'hard-too'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** What lstat says of each name, as statInto lays it out; mode -1 for a name that is not there. */
function lstatValues(names: readonly string[]): number[] {
  return names.flatMap((name) => {
    const info = lstatSync(path.join(dir, name), { throwIfNoEntry: false });
    return info
      ? [info.size, info.mtimeMs, info.mode, info.nlink]
      : [Number.NaN, Number.NaN, -1, Number.NaN];
  });
}

async function statWith(finder: FindStats, names: readonly string[]) {
  const values = new Float64Array(names.length * 4).fill(Number.NaN);
  const found = await finder.statInto(dir, names, values);
  return { found, values: [...values] };
}

describe('FindStats', () => {
  it('gives every name the numbers lstat gives, in the order asked, whatever the name', async () => {
    const finder = new FindStats();
    expect(await finder.available()).toBe(true);
    const names = [...NAMES].reverse();
    const { found, values } = await statWith(finder, names);
    expect(found).toBe(true);
    expect(values).toEqual(lstatValues(names));
    // Links are reported themselves, not their targets; special bits are kept.
    const mode = (name: string) => values[names.indexOf(name) * 4 + 2]!;
    expect(mode('link') & 0o170000).toBe(0o120000);
    expect(mode('dangling') & 0o170000).toBe(0o120000);
    expect(mode('fifo') & 0o170000).toBe(0o010000);
    expect(mode('setuid') & 0o7777).toBe(0o4755);
    expect(mode('sub')).toBe(0o041777);
    expect(values[names.indexOf('hard') * 4 + 3]).toBe(2);
  });

  it('leaves out names that are gone, first, last and between', async () => {
    const names = [
      'gone-first',
      'plain.txt',
      'gone-between',
      'also gone',
      '-maxdepth',
      'gone-last',
    ];
    const { found, values } = await statWith(new FindStats(), names);
    expect(found).toBe(true);
    expect(values).toEqual(lstatValues(names));
    expect([0, 2, 3, 5].map((i) => values[i * 4 + 2])).toEqual([-1, -1, -1, -1]);
  });

  it('answers a folder of thousands of names, its output coming in many pieces', async () => {
    const big = path.join(dir, 'big');
    await mkdir(big);
    const names: string[] = [];
    for (let i = 0; i < 5_000; i++) {
      const name = `f${i} ${'x'.repeat(i % 50)}`;
      names.push(name);
      await writeFile(path.join(big, name), 'y'.repeat(i % 13));
    }
    const values = new Float64Array(names.length * 4);
    expect(await new FindStats().statInto(big, names, values)).toBe(true);
    const expected = names.flatMap((name) => {
      const info = lstatSync(path.join(big, name));
      return [info.size, info.mtimeMs, info.mode, info.nlink];
    });
    expect([...values]).toEqual(expected);
  });

  it('says no when find is missing or is not GNU find 4.9, and the caller stats itself', async () => {
    const missing = new FindStats('cabinet-no-such-find');
    expect(await missing.available()).toBe(false);
    expect((await statWith(missing, ['plain.txt'])).found).toBe(false);
    // A program that runs but does not answer as find does.
    const impostor = new FindStats('true');
    expect(await impostor.available()).toBe(false);
    expect((await statWith(impostor, ['plain.txt'])).found).toBe(false);
  });

  it('says no for a folder that is gone, and once stopped', async () => {
    const finder = new FindStats();
    const gone = new Float64Array(4);
    expect(await finder.statInto(path.join(dir, 'missing'), ['a'], gone)).toBe(false);
    finder.stop();
    expect((await statWith(finder, ['plain.txt'])).found).toBe(false);
  });
});
