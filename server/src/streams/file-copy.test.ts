import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bufferFile, ChunkPool, copyFileRange, writeChunk } from './file-copy.ts';

const MIB = 1024 * 1024;

/** A sink that takes a chunk only when told to, like a socket whose reader is slow. */
function slowSink() {
  const held: { chunk: Buffer; done: () => void }[] = [];
  const sink = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      held.push({ chunk, done });
    },
  });
  const takeOne = () => held.shift()?.done();
  return { sink, held, takeOne };
}

const waitFor = async (condition: () => boolean) => {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((r) => setImmediate(r));
  expect(condition()).toBe(true);
};

describe('copyFileRange', () => {
  it('keeps no more in flight than its pool holds, and copies every byte in order', async () => {
    const content = Buffer.alloc(10 * MIB);
    for (let i = 0; i < content.length; i += 4096) content.writeUInt32BE(i, i);
    const { sink, held, takeOne } = slowSink();
    const chunks: Buffer[] = [];
    let mostAhead = 0;
    const pool = new ChunkPool(3, MIB);
    const copying = copyFileRange(bufferFile(content), 0, content.length, sink, {
      pool,
      signal: new AbortController().signal,
      sinkReleasesOnCallback: true,
    });
    for (let taken = 0; taken < 10; taken++) {
      await waitFor(() => held.length > 0);
      // Three buffers at most wait in the sink: the next read waits for one to come back.
      expect(sink.writableLength).toBeLessThanOrEqual(3 * MIB);
      mostAhead = Math.max(mostAhead, sink.writableLength);
      chunks.push(Buffer.from(held[0]!.chunk));
      takeOne();
    }
    expect(await copying).toEqual({ copied: content.length, more: false });
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    // Past the sink's 16 KiB mark without waiting for it to drain: the pool is the bound.
    expect(mostAhead).toBe(3 * MIB);
  });

  it('ends when the sink is gone, without reading the rest of the file', async () => {
    let reads = 0;
    const file = {
      read: async (buffer: Buffer, offset: number, length: number) => {
        reads++;
        buffer.fill(1, offset, offset + length);
        return { bytesRead: length };
      },
    };
    const { sink, takeOne } = slowSink();
    const copying = copyFileRange(file, 0, 100 * MIB, sink, {
      pool: new ChunkPool(2, MIB),
      signal: new AbortController().signal,
      sinkReleasesOnCallback: true,
    });
    await waitFor(() => sink.writableLength === 2 * MIB);
    sink.destroy();
    takeOne();
    await expect(copying).rejects.toThrow(/closed/);
    expect(reads).toBeLessThan(10);
  });
});

describe('writeChunk', () => {
  it('lets small writes run ahead of a slow sink, then waits for it to drain', async () => {
    const { sink, held, takeOne } = slowSink();
    const block = Buffer.alloc(64 * 1024);
    let written = 0;
    const writing = (async () => {
      for (let i = 0; i < 40; i++) {
        await writeChunk(sink, block, new AbortController().signal);
        written++;
      }
    })();
    // 1 MiB of 64 KiB blocks go ahead (the sink's own mark is 16 KiB); then the writer waits.
    await waitFor(() => written >= 16);
    await new Promise((r) => setImmediate(r));
    expect(written).toBeLessThan(40);
    expect(sink.writableLength).toBeGreaterThan(MIB);
    while (held.length > 0 || written < 40) {
      takeOne();
      await new Promise((r) => setImmediate(r));
    }
    await writing;
    expect(written).toBe(40);
  });
});
