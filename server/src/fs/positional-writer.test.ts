import { randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PositionalWriter } from './positional-writer.ts';
import { WriteBuffers } from './write-buffers.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-positional-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('PositionalWriter', () => {
  it('writes chunks in order from an offset, several batches at once', async () => {
    const file = path.join(dir, 'upload.bin');
    const handle = await open(file, 'w+');
    await handle.write(Buffer.from('HEAD'), 0, 4, 0);
    const chunks = Array.from({ length: 200 }, (_, i) => randomBytes(40_000 + i));
    const writer = new PositionalWriter(handle, 4, new WriteBuffers());
    try {
      for (const chunk of chunks) expect(await writer.add(chunk)).toBe(true);
      await writer.finish();
    } finally {
      await handle.close();
    }
    const expected = Buffer.concat([Buffer.from('HEAD'), ...chunks]);
    expect(writer.position).toBe(expected.length);
    expect((await readFile(file)).equals(expected)).toBe(true);
  });

  it('copies what it is given, so a caller may reuse its buffer at once', async () => {
    const file = path.join(dir, 'reused.bin');
    const handle = await open(file, 'w+');
    const expected: Buffer[] = [];
    const scratch = Buffer.alloc(300_000);
    const writer = new PositionalWriter(handle, 0, new WriteBuffers());
    try {
      for (let i = 0; i < 12; i++) {
        scratch.fill(65 + i);
        expected.push(Buffer.from(scratch));
        expect(await writer.add(scratch)).toBe(true);
      }
      await writer.finish();
    } finally {
      await handle.close();
    }
    expect((await readFile(file)).equals(Buffer.concat(expected))).toBe(true);
  });

  it('reports a failed write: add turns false and finish throws', async () => {
    const handle = await open(path.join(dir, 'read-only.bin'), 'w+');
    const readOnly = await open(path.join(dir, 'read-only.bin'), 'r');
    await handle.close();
    const writer = new PositionalWriter(readOnly, 0, new WriteBuffers());
    try {
      let accepted = true;
      for (let i = 0; i < 50 && accepted; i++) accepted = await writer.add(randomBytes(64 * 1024));
      await expect(writer.finish()).rejects.toMatchObject({ code: 'EBADF' });
    } finally {
      await readOnly.close();
    }
  });

  it('writes two uploads that take turns, sharing one pool of batches, each byte in place', async () => {
    const buffers = new WriteBuffers();
    const files = ['one.bin', 'two.bin'].map((name) => path.join(dir, name));
    const handles = await Promise.all(files.map((file) => open(file, 'w+')));
    const sent: Buffer[][] = [[], []];
    try {
      const writers = handles.map((handle) => new PositionalWriter(handle, 0, buffers));
      // 2.5 MiB to each writer in 64 KiB chunks, taking turns as two uploads would.
      for (let i = 0; i < 40; i++) {
        for (let w = 0; w < writers.length; w++) {
          const chunk = randomBytes(64 * 1024);
          sent[w]!.push(chunk);
          await writers[w]!.add(chunk);
        }
      }
      await Promise.all(writers.map((writer) => writer.finish()));
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
    for (let w = 0; w < files.length; w++) {
      expect((await readFile(files[w]!)).equals(Buffer.concat(sent[w]!))).toBe(true);
    }
  });
});
