// ReplyChunks over a real socket: a chunk is reused only once the response has written it, so a
// client that stops reading gets every byte as it was produced.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkPool, ReplyChunks } from './reply-chunks.ts';

const CHUNK = 256 * 1024;
/** 16 MiB: more than loopback's socket buffers hold, so a paused client backs the reply up. */
const COUNT = 64;

/** Chunk k's expected bytes: its index in the first four, then a pattern of its own. */
function fill(chunk: Buffer, k: number): Buffer {
  chunk.fill((k * 37 + 11) & 0xff);
  chunk.writeUInt32BE(k, 0);
  return chunk;
}

async function until(check: () => boolean): Promise<void> {
  for (let attempt = 0; !check(); attempt++) {
    if (attempt > 100_000) throw new Error('condition never held');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

let server: http.Server | undefined;
afterEach(async () => {
  const running = server;
  server = undefined;
  if (!running) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
});

/** Serves COUNT chunks from one ReplyChunks (per reply, with `pool`); `replies` gets each reply's state. */
async function serve(pool?: ChunkPool): Promise<{
  url: string;
  replies: { chunks: ReplyChunks; response: http.ServerResponse }[];
}> {
  const replies: { chunks: ReplyChunks; response: http.ServerResponse }[] = [];
  server = http.createServer((_request, response) => {
    const chunks = new ReplyChunks(pool);
    function* pieces(): Generator<Buffer> {
      for (let k = 0; k < COUNT; k++) {
        // Half a chunk sometimes: a reused buffer may be bigger than what is asked.
        const bytes = k % 5 === 4 ? CHUNK / 2 : CHUNK;
        yield fill(chunks.take(bytes), k).subarray(0, bytes);
      }
    }
    const stream = Readable.from(chunks.carry(pieces()), { objectMode: false });
    chunks.attach(stream, response);
    replies.push({ chunks, response });
    stream.pipe(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, replies };
}

/** Checks a received body chunk by chunk against what was produced. */
function expectIntact(body: Buffer): void {
  let offset = 0;
  for (let k = 0; k < COUNT; k++) {
    const bytes = k % 5 === 4 ? CHUNK / 2 : CHUNK;
    const expected = fill(Buffer.alloc(CHUNK), k).subarray(0, bytes);
    const got = body.subarray(offset, offset + bytes);
    if (!got.equals(expected)) throw new Error(`chunk ${k} differs from what was produced`);
    offset += bytes;
  }
  expect(offset).toBe(body.length);
}

describe('ReplyChunks', () => {
  it('reuses chunks the socket has written: a reply holds a few, not one per chunk', async () => {
    const { url, replies } = await serve();
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    expectIntact(body);
    expect(replies[0]!.chunks.allocated).toBeGreaterThan(0);
    expect(replies[0]!.chunks.allocated).toBeLessThan(COUNT / 4);
  });

  it('never reuses a chunk a stalled client has not taken yet', async () => {
    const { url, replies } = await serve();
    const received: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      http
        .get(url, (response) => {
          response.pause();
          // Read nothing until the reply has backed up into the response's own buffers.
          void until(() => (replies[0]?.response.writableLength ?? 0) > 0).then(() => {
            response.on('data', (chunk: Buffer) => received.push(chunk));
            response.on('end', () => resolve(Buffer.concat(received)));
            response.resume();
          }, reject);
        })
        .on('error', reject);
    });
    expectIntact(await done);
    // Chunks were pending while the client stalled: more were allocated than a reply that flows.
    expect(replies[0]!.chunks.allocated).toBeGreaterThan(1);
  });

  it('allocates every chunk when it is not attached to a reply', () => {
    const chunks = new ReplyChunks();
    const first = chunks.take(16);
    const second = chunks.take(16);
    expect(second.buffer).not.toBe(first.buffer);
    expect(chunks.allocated).toBe(2);
  });

  it('hands a finished reply’s chunks to the next one, and keeps no more than its limit', () => {
    const pool = new ChunkPool(CHUNK);
    const first = new ReplyChunks(pool);
    const a = first.take(CHUNK / 2);
    const b = first.take(CHUNK / 2);
    first.recycle();
    // One fits the pool's limit; the other is left to the collector.
    expect(pool.kept).toBe(CHUNK);
    const next = new ReplyChunks(pool);
    const again = next.take(CHUNK / 4);
    expect([a, b]).toContain(again);
    expect(next.allocated).toBe(0);
    expect(pool.kept).toBe(CHUNK / 2);
  });

  it('sends replies sharing a pool intact, a stalled one among them, and pools their chunks after', async () => {
    const pool = new ChunkPool(16 * CHUNK);
    const { url, replies } = await serve(pool);
    const read = async () => Buffer.from(await (await fetch(url)).arrayBuffer());
    expectIntact(await read());
    await until(() => pool.kept > 0);
    const stalled = new Promise<Buffer>((resolve, reject) => {
      http
        .get(url, (response) => {
          const received: Buffer[] = [];
          response.pause();
          void until(() => replies.some((r) => r.response.writableLength > 0)).then(() => {
            response.on('data', (chunk: Buffer) => received.push(chunk));
            response.on('end', () => resolve(Buffer.concat(received)));
            response.resume();
          }, reject);
        })
        .on('error', reject);
    });
    const bodies = await Promise.all([read(), read(), stalled, read()]);
    for (const body of bodies) expectIntact(body);
    await until(() => replies.every((r) => r.response.writableFinished));
    expect(pool.kept).toBeGreaterThan(0);
    expect(pool.kept).toBeLessThanOrEqual(16 * CHUNK);
  });
});
