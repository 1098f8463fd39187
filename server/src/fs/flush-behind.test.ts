import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { flushBehind, FlushBehindFiles } from './flush-behind.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-flush-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Polls until `check` holds; a busy disk may take seconds per fsync, so only the test's budget ends it. */
const waitFor = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
};

describe('flushBehind', () => {
  it('flushes a file in the background as it grows, and waits for a running flush on stop', async () => {
    const handle = await open(path.join(dir, 'big.bin'), 'w');
    let flushes = 0;
    const counted = {
      datasync: async () => {
        flushes++;
        await handle.datasync();
      },
    };
    let written = 0;
    const stop = flushBehind(counted, () => written, 1024);
    try {
      for (let i = 0; i < 3; i++) {
        await handle.write(Buffer.alloc(2048, i), 0, 2048, written);
        written += 2048;
        const before = flushes;
        await waitFor(() => flushes > before);
      }
      expect(flushes).toBe(3);
      // No growth, no flush.
      await new Promise((r) => setTimeout(r, 250));
      expect(flushes).toBe(3);
    } finally {
      await stop();
      await handle.close();
    }
    expect((await readFile(path.join(dir, 'big.bin'))).length).toBe(6144);
  });
});

describe('FlushBehindFiles', () => {
  it('flushes a file written by several requests once enough has been written since', async () => {
    const flushed: string[] = [];
    const files = new FlushBehindFiles(async (file) => {
      flushed.push(file);
    }, 100);
    files.wrote('/a', 60);
    files.wrote('/b', 60);
    expect(flushed).toEqual([]);
    files.wrote('/a', 60);
    await waitFor(() => flushed.length > 0);
    expect(flushed).toEqual(['/a']);
    files.forget('/b');
    files.wrote('/b', 60); // counts from zero after forget
    await new Promise((r) => setTimeout(r, 50));
    expect(flushed).toEqual(['/a']);
  });

  it('does not let a failed flush escape', async () => {
    const files = new FlushBehindFiles(() => Promise.reject(new Error('disk gone')), 1);
    files.wrote('/a', 10);
    await new Promise((r) => setTimeout(r, 20));
  });
});
