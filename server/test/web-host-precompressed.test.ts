import { rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { BIG_ASSET, fakeDist } from './helpers/web-dist.ts';

let dist: string;
let server: TestServer;
const ASSET = '/static/assets/big-def456.js';

/** GET with a chosen Accept-Encoding (fetch would always ask for, and undo, compression). */
function get(url: string, acceptEncoding?: string) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(
        url,
        { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
}

beforeAll(async () => {
  dist = await fakeDist();
  // The build writes these beside each asset (web/scripts/precompress.mjs); marked so the test
  // can tell the stored copies from compression on the fly.
  const marked = `${BIG_ASSET}// stored copy\n`;
  await writeFile(path.join(dist, 'assets/big-def456.js.br'), brotliCompressSync(marked));
  await writeFile(path.join(dist, 'assets/big-def456.js.gz'), gzipSync(marked));
  server = await startTestServer({ config: { webDist: dist } });
});
afterAll(async () => {
  await server.close();
  await rm(dist, { recursive: true, force: true });
});

describe('precompressed assets of the build', () => {
  it('sends the stored Brotli copy to a browser that accepts it, as JavaScript', async () => {
    const reply = await get(`${server.url}${ASSET}`, 'gzip, deflate, br, zstd');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe('br');
    expect(reply.headers['content-type']).toMatch(/javascript/);
    expect(reply.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(reply.body).toString()).toBe(`${BIG_ASSET}// stored copy\n`);
  });

  it('sends the stored gzip copy to a gzip-only client, and the plain file to others', async () => {
    const gzip = await get(`${server.url}${ASSET}`, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toBe(`${BIG_ASSET}// stored copy\n`);
    const plain = await get(`${server.url}${ASSET}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(BIG_ASSET);
  });

  it('compresses an asset without stored copies on the fly, and refuses paths out of the build', async () => {
    const reply = await get(`${server.url}/static/assets/index-abc123.js`, 'br');
    expect(reply.status).toBe(200);
    expect((await get(`${server.url}/static/assets/..%2f..%2fetc%2fpasswd`, 'br')).status).not.toBe(
      200,
    );
    expect((await get(`${server.url}/static/assets/nothing.js`, 'br')).status).toBe(404);
  });
});
