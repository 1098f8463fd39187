/**
 * Upload measurements: one raw request body, the tus protocol in chunks, and the local copy they
 * are compared with. Every request has a timeout, so a stuck server cannot keep the benchmark
 * running.
 */
import { open, stat } from 'node:fs/promises';
import http from 'node:http';
import type { TransferResult } from './measure.ts';
import { mbPerSecond, now } from './stats.ts';

interface SendResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * Sends one request whose body is `length` bytes of `file` from `start` (or no body), on a
 * connection of its own unless `agent` is given.
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: { file: string; start: number; length: number } | undefined,
  timeoutMs: number,
  agent: http.Agent | false = false,
): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method,
      headers: { ...headers, 'content-length': String(body?.length ?? 0) },
      timeout: timeoutMs,
      agent,
    });
    request.on('timeout', () => request.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    // A server that refuses a body answers and closes early; the client may then see EPIPE before
    // it has read the answer, so wait a moment for the answer before reporting the socket error.
    let answered = false;
    request.on('error', (error) => {
      setTimeout(() => {
        if (!answered) reject(error);
      }, 500);
    });
    request.on('response', (response) => {
      answered = true;
      let text = '';
      response.on('data', (chunk: Buffer) => (text = (text + chunk.toString()).slice(0, 2048)));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
      response.on('error', reject);
    });
    if (!body || body.length === 0) {
      request.end();
      return;
    }
    // A server that answers early (an error) closes the request; the response still resolves.
    sendFileBody(body, request).catch((error: unknown) => request.destroy(error as Error));
  });
}

/** Read buffers of the upload client: reused, so the client is never what limits an upload. */
const CLIENT_BUFFERS = 3;
const CLIENT_BUFFER_BYTES = 1024 * 1024;

/**
 * The client's read buffers, allocated once and shared by every request body it sends (one upload
 * runs at a time). Reading into a fresh buffer per chunk (a read stream) faults new pages in for
 * every MiB, which on the benchmark machine capped uploads near 300 MB/s whatever the server, nginx
 * included; fresh buffers per TUS PATCH cost the client ~25% of its rate the same way. Requests
 * run one after another and each answer comes after its whole body was sent, so no two bodies use
 * the buffers at once.
 */
const clientBuffers: Buffer[] = Array.from({ length: CLIENT_BUFFERS }, () =>
  Buffer.allocUnsafeSlow(CLIENT_BUFFER_BYTES),
);

/** Writes part of a file as a request body through the shared read buffers. */
async function sendFileBody(
  body: { file: string; start: number; length: number },
  request: http.ClientRequest,
): Promise<void> {
  const handle = await open(body.file, 'r');
  const free = [...clientBuffers];
  const waiting: (() => void)[] = [];
  const release = (buffer: Buffer) => {
    free.push(buffer);
    waiting.shift()?.();
  };
  try {
    let position = body.start;
    const end = body.start + body.length;
    while (position < end) {
      while (free.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
      const buffer = free.pop()!;
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(buffer.length, end - position),
        position,
      );
      if (bytesRead === 0) throw new Error(`${body.file} is shorter than expected`);
      position += bytesRead;
      const accepted = request.write(buffer.subarray(0, bytesRead), () => release(buffer));
      if (!accepted) await new Promise((resolve) => request.once('drain', resolve));
    }
    request.end();
  } finally {
    await handle.close();
  }
}

/** Uploads a file as one raw request body (Cabinet's POST /api/resources, nginx's PUT). */
export async function uploadWhole(
  url: string,
  method: 'POST' | 'PUT',
  headers: Record<string, string>,
  file: string,
  bytes: number,
  maxSeconds: number,
): Promise<TransferResult> {
  const t0 = now();
  const result = await send(
    url,
    method,
    { 'content-type': 'application/octet-stream', ...headers },
    { file, start: 0, length: bytes },
    maxSeconds * 1000,
  );
  const seconds = (now() - t0) / 1000;
  if (result.status < 200 || result.status > 299)
    throw new Error(`${method} ${url} answered ${result.status}: ${result.body.trim()}`);
  return { bytes, transferred: bytes, seconds, mbps: mbPerSecond(bytes, seconds) };
}

/**
 * A tus 1.0 upload with raw requests: POST (creation with Upload-Length), then PATCH chunks of
 * `chunkBytes` with Upload-Offset, as the web client's tus-js-client does with parallelUploads 1.
 * All requests share one keep-alive connection, as the browser's do: a new connection per PATCH
 * starts every 10 MiB chunk with a small TCP window again (~20% slower on the benchmark machine).
 */
export async function uploadTus(
  createUrl: string,
  headers: Record<string, string>,
  file: string,
  bytes: number,
  chunkBytes: number,
  maxSeconds: number,
): Promise<TransferResult & { chunks: number }> {
  const tus = { ...headers, 'tus-resumable': '1.0.0' };
  const deadline = now() + maxSeconds * 1000;
  const remaining = () => Math.max(1000, deadline - now());
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await tusRequests();
  } finally {
    agent.destroy();
  }

  async function tusRequests(): Promise<TransferResult & { chunks: number }> {
    const t0 = now();
    const created = await send(
      createUrl,
      'POST',
      { ...tus, 'upload-length': String(bytes) },
      undefined,
      remaining(),
      agent,
    );
    if (created.status !== 201)
      throw new Error(`tus creation answered ${created.status}: ${created.body.trim()}`);
    const location = created.headers.location;
    if (!location) throw new Error('tus creation answered without a Location header');
    const patchUrl = new URL(location, createUrl).href;
    let offset = 0;
    let chunks = 0;
    while (offset < bytes) {
      if (now() > deadline) throw new Error(`tus upload exceeded ${maxSeconds} s at ${offset}`);
      const length = Math.min(chunkBytes, bytes - offset);
      const patched = await send(
        patchUrl,
        'PATCH',
        {
          ...tus,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        { file, start: offset, length },
        remaining(),
        agent,
      );
      if (patched.status !== 204)
        throw new Error(
          `tus PATCH at ${offset} answered ${patched.status}: ${patched.body.trim()}`,
        );
      const next = Number(patched.headers['upload-offset']);
      if (next !== offset + length)
        throw new Error(`tus PATCH at ${offset} answered Upload-Offset ${String(next)}`);
      offset = next;
      chunks++;
    }
    const seconds = (now() - t0) / 1000;
    return { bytes, transferred: bytes, seconds, mbps: mbPerSecond(bytes, seconds), chunks };
  }
}

/** The baseline for uploads: copy the same file within the file system, then fsync, timed. */
export async function localWriteWithFsync(source: string, target: string): Promise<TransferResult> {
  const t0 = now();
  // The same reading pattern as the upload client (one reused buffer), so only the write differs.
  const handle = await open(target, 'w');
  const input = await open(source, 'r');
  try {
    const buffer = Buffer.allocUnsafeSlow(CLIENT_BUFFER_BYTES);
    for (;;) {
      const { bytesRead } = await input.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      await handle.write(buffer, 0, bytesRead);
    }
    await handle.sync();
  } finally {
    await Promise.all([handle.close(), input.close()]);
  }
  const seconds = (now() - t0) / 1000;
  const { size } = await stat(target);
  return { bytes: size, transferred: size, seconds, mbps: mbPerSecond(size, seconds) };
}
