import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FileChanges } from '../changes.ts';
import { indexFilePath, loadIndexFile, saveIndexFile } from './index-file.ts';
import { NameIndex } from './name-index.ts';
import { NameTable } from './name-table.ts';
import { parseQuery } from './name-query.ts';
import { searchTable } from './table-search.ts';

const quiet = {
  info() {},
  warn() {},
  error() {},
  debug() {},
} as unknown as FastifyBaseLogger;

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanup.length > 0) await cleanup.pop()!();
});

async function open(root: string, dataDir: string, gramTailBytes?: number) {
  const changes = new FileChanges();
  const index = new NameIndex({
    realRoot: root,
    dataDir,
    log: quiet,
    changes,
    watch: false,
    reconcileInterval: 3600,
    gramTailBytes,
  });
  cleanup.push(() => index.close());
  await index.start();
  await index.settled();
  return { index, changes };
}

async function folders() {
  const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-grams-'));
  cleanup.push(() => rm(base, { recursive: true, force: true }));
  const root = path.join(base, 'root');
  const data = path.join(base, 'data');
  await mkdir(root);
  await mkdir(data);
  return { root, data };
}

/** Result names of a query over the whole table, with its trigram index and by scanning. */
function both(index: NameIndex, text: string) {
  const table = index.current!;
  const names = () =>
    [...searchTable(table, 0, parseQuery(text))].flat().map((id) => table.nameOf(id));
  const grams = table.grams;
  const indexed = names();
  table.grams = null;
  const scanned = names();
  table.grams = grams;
  return { indexed, scanned };
}

describe('NameIndex and its trigram index', () => {
  it('builds the trigram index again once the names added since pass the limit', async () => {
    const { root, data } = await folders();
    for (let i = 0; i < 50; i++) await writeFile(path.join(root, `base-${i}.txt`), '');
    const { index, changes } = await open(root, data, 200);
    expect(index.current!.grams!.covered).toBe(index.current!.size);
    const before = index.current!.grams!;
    // Under the limit: the new name is in the tail, found by scanning it.
    await writeFile(path.join(root, 'added-0001.txt'), '');
    changes.emit({ kind: 'write', real: path.join(root, 'added-0001.txt'), recursive: false });
    await index.settled();
    expect(index.current!.grams).toBe(before);
    expect(both(index, 'added-0001')).toEqual({
      indexed: ['added-0001.txt'],
      scanned: ['added-0001.txt'],
    });
    // Past it: a new trigram index covers every name.
    for (let i = 2; i < 20; i++) {
      const real = path.join(root, `added-${String(i).padStart(4, '0')}.txt`);
      await writeFile(real, '');
      changes.emit({ kind: 'write', real, recursive: false });
    }
    await index.settled();
    // Built in the background from the name that passed the limit on (later ones are its tail).
    await expect.poll(() => index.current!.grams !== before, { timeout: 10_000 }).toBe(true);
    expect(index.current!.grams!.covered).toBeGreaterThan(before.covered + 10);
    const { indexed, scanned } = both(index, 'added-00');
    expect(indexed).toHaveLength(19);
    expect(indexed).toEqual(scanned);
  });

  it('saves the trigram index with the table, and drops a damaged one on load', async () => {
    const { root, data } = await folders();
    for (let i = 0; i < 30; i++) await writeFile(path.join(root, `kept-${i}.txt`), '');
    const { index } = await open(root, data);
    await index.close();
    const file = indexFilePath(data);
    const parts = await loadIndexFile(file, root);
    expect(parts?.grams?.covered).toBe(parts?.parent.length);
    expect(parts!.grams!.postings.length).toBeGreaterThan(0);

    // A list that claims more than the postings hold: the table loads, its trigram index does not.
    const damaged = {
      ...parts!,
      grams: { ...parts!.grams!, starts: parts!.grams!.starts.slice() },
    };
    damaged.grams.starts[1] = damaged.grams.postings.length + 10;
    await saveIndexFile(file, root, damaged);
    const reloaded = await loadIndexFile(file, root);
    expect(reloaded?.grams).toBeTruthy();
    const table = new NameTable(reloaded!);
    expect(table.grams).toBeNull();
    expect(table.live).toBe(30);
    const again = await open(root, data);
    // The loaded table answered without one, then the reconciliation built a fresh one.
    expect(again.index.current!.grams!.covered).toBe(again.index.current!.size);
    expect(both(again.index, 'kept-1')).toEqual({
      indexed: both(again.index, 'kept-1').scanned,
      scanned: expect.arrayContaining(['kept-1.txt', 'kept-10.txt']),
    });
    expect((await readFile(file)).length).toBeGreaterThan(0);
  });
});
