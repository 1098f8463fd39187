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
      // Counted when done, so the checks counted below come after the flush stopped running.
      datasync: async () => {
        await handle.datasync();
        flushes++;
      },
    };
    let written = 0;
    // The flusher asks for the writer's progress on each of its checks: counting them tells when
    // it has looked again (and so would have flushed) without waiting for any fixed time.
    let checks = 0;
    const stop = flushBehind(
      counted,
      () => {
        checks++;
        return written;
      },
      1024,
    );
    try {
      for (let i = 0; i < 3; i++) {
        await handle.write(Buffer.alloc(2048, i), 0, 2048, written);
        written += 2048;
        const before = flushes;
        await waitFor(() => flushes > before);
      }
      expect(flushes).toBe(3);
      // No growth, no flush: two more checks pass without one.
      const seen = checks;
      await waitFor(() => checks >= seen + 2);
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
    // The flush starts within the call that crosses the threshold, so no waiting is needed.
    files.wrote('/a', 60);
    expect(flushed).toEqual(['/a']);
    files.forget('/b');
    files.wrote('/b', 60); // counts from zero after forget
    expect(flushed).toEqual(['/a']);
    files.wrote('/b', 60);
    expect(flushed).toEqual(['/a', '/b']);
  });

  it('does not let a failed flush escape, and flushes that file again later', async () => {
    const escaped: unknown[] = [];
    const onUnhandled = (reason: unknown) => escaped.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let calls = 0;
      const files = new FlushBehindFiles(() => {
        calls++;
        return Promise.reject(new Error('disk gone'));
      }, 1);
      files.wrote('/a', 10);
      expect(calls).toBe(1);
      // A second flush of the file starts only once the failed one has settled.
      await waitFor(() => {
        files.wrote('/a', 10);
        return calls === 2;
      });
      // Rejections nobody handled are reported when the turn that made them ends; this is a later one.
      await new Promise((r) => setImmediate(r));
      expect(escaped).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
