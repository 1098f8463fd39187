import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer, type TestUser } from '../../testing/test-server.ts';

/** Helpers for the resumable-upload tests: raw requests, staging files, digests. */

/** A server, a user allowed every file operation, and a folder outside the server's root. */
export async function startTusServer(): Promise<{
  server: TestServer;
  alice: TestUser;
  outside: string;
  close(): Promise<void>;
}> {
  const server = await startTestServer();
  const alice = await server.createUser({
    perm: { create: true, modify: true, delete: true, rename: true, download: true },
  });
  const outside = await mkdtemp(path.join(os.tmpdir(), 'cabinet-outside-'));
  return {
    server,
    alice,
    outside,
    async close() {
      await server.close();
      await rm(outside, { recursive: true, force: true });
    },
  };
}

export const TUS = { 'Tus-Resumable': '1.0.0' } as const;
export const OFFSET_CT = 'application/offset+octet-stream';

/** Random content of `size` bytes. */
export function randomContent(size: number): Buffer {
  return randomBytes(size);
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function sha256File(file: string): Promise<string> {
  return sha256(await readFile(file));
}

/** POST /api/tus<path> with Upload-Length (and any extra headers). */
export function createUpload(
  server: TestServer,
  token: string,
  virtual: string,
  length: number | undefined,
  headers: Record<string, string> = {},
  query = '',
): Promise<Response> {
  const h: Record<string, string> = { ...TUS, ...headers };
  if (length !== undefined) h['Upload-Length'] = String(length);
  return server.fetch(`/api/tus${encodePath(virtual)}${query}`, {
    method: 'POST',
    token,
    headers: h,
  });
}

/** PATCH a chunk at `offset`. */
export function patchChunk(
  server: TestServer,
  token: string,
  virtual: string,
  offset: number,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<Response> {
  return server.fetch(`/api/tus${encodePath(virtual)}`, {
    method: 'PATCH',
    token,
    headers: {
      ...TUS,
      'Content-Type': OFFSET_CT,
      'Upload-Offset': String(offset),
      ...headers,
    },
    body: new Uint8Array(body),
  });
}

/** HEAD the upload. */
export function headUpload(server: TestServer, token: string, virtual: string): Promise<Response> {
  return server.fetch(`/api/tus${encodePath(virtual)}`, { method: 'HEAD', token, headers: TUS });
}

export function encodePath(virtual: string): string {
  return virtual
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** Names in a folder of the root (real file system), staging files included. */
export async function namesIn(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch {
    return [];
  }
}

/** The staging files (`.cabinet-tmp-tus-*`) in a folder. */
export async function stagingFiles(folder: string): Promise<string[]> {
  return (await namesIn(folder)).filter((name) => name.startsWith('.cabinet-tmp-tus-'));
}

export async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Sends the headers and the first `send` bytes of a PATCH over a raw socket, waits until they are
 * flushed, then destroys the socket: a client that drops mid-chunk.
 */
export async function patchThenDrop(
  server: TestServer,
  token: string,
  virtual: string,
  offset: number,
  declaredLength: number,
  part: Buffer,
): Promise<void> {
  const url = new URL(`${server.url}/api/tus${encodePath(virtual)}`);
  await new Promise<void>((resolve, reject) => {
    const request = http.request(url, {
      method: 'PATCH',
      headers: {
        ...TUS,
        'X-Auth': token,
        'Content-Type': OFFSET_CT,
        'Upload-Offset': String(offset),
        'Content-Length': String(declaredLength),
      },
    });
    request.on('error', () => undefined);
    request.flushHeaders();
    request.write(part, (error) => {
      if (error) return reject(error);
      // Give the bytes to the kernel, then hang up without finishing the body.
      setImmediate(() => {
        request.destroy();
        resolve();
      });
    });
  });
}

/** A raw request with an unnormalised path (fetch would resolve `..` itself). */
export function rawRequest(
  server: TestServer,
  method: string,
  rawPath: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders }> {
  const base = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: base.hostname, port: base.port, method, path: rawPath, headers },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** Polls `check` until it returns true (or fails after `timeoutMs`): for work the server finishes on its own. */
export async function eventually(
  check: () => Promise<boolean>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Joins a virtual path onto a real folder. */
export function realOf(root: string, virtual: string): string {
  return path.join(root, ...virtual.split('/').filter(Boolean));
}

/**
 * Starts a PATCH, sends `part` and keeps the connection open without finishing the body: a client
 * the server has not seen go away. Returns a function that resolves when that request has ended.
 */
export async function patchAndHang(
  server: TestServer,
  token: string,
  virtual: string,
  offset: number,
  declaredLength: number,
  part: Buffer,
): Promise<{ ended: Promise<void> }> {
  const url = new URL(`${server.url}/api/tus${encodePath(virtual)}`);
  const request = http.request(url, {
    method: 'PATCH',
    agent: false,
    headers: {
      ...TUS,
      'X-Auth': token,
      'Content-Type': OFFSET_CT,
      'Upload-Offset': String(offset),
      'Content-Length': String(declaredLength),
    },
  });
  const ended = new Promise<void>((resolve) => {
    request.on('error', () => resolve());
    request.on('response', (response) => {
      response.resume();
      response.on('end', resolve);
    });
    request.on('close', resolve);
  });
  request.flushHeaders();
  await new Promise<void>((resolve, reject) =>
    request.write(part, (error) => (error ? reject(error) : resolve())),
  );
  return { ended };
}
