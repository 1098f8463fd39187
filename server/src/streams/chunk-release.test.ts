import { randomBytes } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { limitBytes } from '../services/quota/byte-limit.ts';
import { ownsChunks, releaseChunk, releasingWrites } from './chunk-release.ts';
import { scope, useScopedTree, view } from '../fs/scoped-fs.fixture.ts';

useScopedTree();

let server: http.Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/**
 * Sends `body` in 64 KiB writes to a server on 127.0.0.1 whose handler is `handle`; resolves with
 * what the handler resolved and every chunk the handler read from the request.
 */
async function receive<T>(
  body: Buffer,
  handle: (request: IncomingMessage) => Promise<T>,
): Promise<{ result: T; chunks: Buffer[] }> {
  let done!: (value: { result: T; chunks: Buffer[] }) => void;
  let failed!: (error: unknown) => void;
  const received = new Promise<{ result: T; chunks: Buffer[] }>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  server = http.createServer((request, response) => {
    // What the body's reader is handed: chunks as the parser made them, or several joined when
    // the reader fell behind.
    const chunks: Buffer[] = [];
    const read = request.read.bind(request);
    request.read = (size?: number) => {
      const chunk: unknown = read(size);
      if (Buffer.isBuffer(chunk)) chunks.push(chunk);
      return chunk;
    };
    handle(request).then(
      (result) => {
        response.end();
        done({ result, chunks });
      },
      (error: unknown) => {
        response.statusCode = 500;
        response.end();
        failed(error);
      },
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server!.address() as AddressInfo;
  const request = http.request({ host: '127.0.0.1', port, method: 'PUT', path: '/' });
  for (let at = 0; at < body.length; at += 65_536) request.write(body.subarray(at, at + 65_536));
  request.end();
  await new Promise<void>((resolve, reject) => {
    request.on('response', (response) => response.resume().on('end', resolve));
    request.on('error', reject);
  });
  return received;
}

describe('chunks given back once copied or written', () => {
  it('runs where ArrayBuffer.prototype.transfer exists, as the server is started', () => {
    // The test workers get the server's --harmony-rab-gsab-transfer (vitest.config.ts).
    expect(typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer).toBe('function');
  });

  it('empties a chunk that spans its buffer and leaves slices of shared buffers alone', () => {
    const own = Buffer.from(randomBytes(70_000));
    const shared = Buffer.allocUnsafeSlow(8192).fill(7);
    const slice = shared.subarray(0, 4096);
    const pooled = Buffer.from('a small chunk from the pool');
    releaseChunk(own);
    releaseChunk(slice);
    releaseChunk(pooled);
    expect(own.length).toBe(0);
    expect(slice.length).toBe(4096);
    expect(shared[8191]).toBe(7);
    expect(pooled.toString()).toBe('a small chunk from the pool');
  });

  it('owns only an HTTP request body', async () => {
    expect(ownsChunks(Readable.from([Buffer.alloc(10)]))).toBe(false);
    expect(ownsChunks(Buffer.alloc(10))).toBe(false);
    const { result } = await receive(Buffer.alloc(10), async (request) => {
      request.resume();
      return ownsChunks(request);
    });
    expect(result).toBe(true);
  });

  it('writes an upload byte for byte and gives every chunk back once copied', async () => {
    const fs = await view();
    const body = randomBytes(3 * 1024 * 1024 + 123);
    const { chunks } = await receive(body, (request) => fs.writeFile('/up.bin', request));
    expect(readFileSync(path.join(scope, 'up.bin')).equals(body)).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.filter((chunk) => chunk.length > 0)).toEqual([]);
  });

  it('gives a chunk back under a quota once the write asks for the next one', async () => {
    const body = randomBytes(1024 * 1024);
    const { result, chunks } = await receive(body, async (request) => {
      const copies: Buffer[] = [];
      for await (const chunk of limitBytes(request, body.length, () => new Error('over'))) {
        copies.push(Buffer.from(chunk)); // the copy a writer makes
      }
      return Buffer.concat(copies);
    });
    expect(result.equals(body)).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.filter((chunk) => chunk.length > 0)).toEqual([]);
  });

  it('writes a program-like stream of fresh chunks to a file and empties each once written', async () => {
    const body = randomBytes(1024 * 1024); // 16 chunks of their own (a small one is pooled)
    const chunks: Buffer[] = [];
    for (let at = 0; at < body.length; at += 65_536) {
      chunks.push(Buffer.from(body.subarray(at, at + 65_536)));
    }
    const file = path.join(scope, 'out.bin');
    await pipeline(Readable.from(chunks), releasingWrites(createWriteStream(file)));
    expect(readFileSync(file).equals(body)).toBe(true);
    expect(chunks.filter((chunk) => chunk.length > 0)).toEqual([]);
  });
});
