/**
 * The measurements themselves. Every loop is bounded both in count and in time, and every request
 * has a timeout, so a slow or stuck server cannot keep the benchmark running.
 */
import { spawn } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import http from 'node:http';
import { mbPerSecond, now, percentile } from './stats.ts';

export interface LoadResult {
  requests: number;
  errors: number;
  /** Wall time of the whole loop, seconds. */
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Response body size of the last successful request. */
  bodyBytes: number;
  /** The first error message, if any request failed. */
  firstError?: string;
}

interface GetResult {
  status: number;
  bytes: number;
  body?: Buffer;
}

/** GET with a keep-alive agent; reads the body fully (keeping it only when asked). */
function get(
  url: string,
  headers: Record<string, string>,
  agent: http.Agent,
  keepBody: boolean,
  timeoutMs: number,
): Promise<GetResult> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keepBody) chunks.push(chunk);
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          bytes,
          ...(keepBody && { body: Buffer.concat(chunks) }),
        }),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

/** Fetches a URL once and returns its JSON body (used to check listings before timing them). */
export async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  const agent = new http.Agent({ keepAlive: false });
  const result = await get(url, headers, agent, true, 120_000);
  if (result.status !== 200) throw new Error(`GET ${url} answered ${result.status}`);
  return JSON.parse((result.body as Buffer).toString('utf8'));
}

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Parallel keep-alive connections, each sending its next request when the last one ends. */
  connections: number;
  maxRequests: number;
  maxSeconds: number;
}

/** Closed-loop GET load: latency percentiles (time to the last byte) and requests per second. */
export async function loadLoop(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  let bodyBytes = 0;
  let firstError: string | undefined;
  const started = now();
  const deadline = started + options.maxSeconds * 1000;
  const worker = async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (issued < options.maxRequests && now() < deadline) {
        issued++;
        const t0 = now();
        try {
          const result = await get(options.url, options.headers, agent, false, 60_000);
          if (result.status !== 200) throw new Error(`status ${result.status}`);
          latencies.push(now() - t0);
          bodyBytes = result.bytes;
        } catch (error) {
          errors++;
          firstError ??= (error as Error).message;
        }
      }
    } finally {
      agent.destroy();
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  const seconds = (now() - started) / 1000;
  return {
    requests: latencies.length,
    errors,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    bodyBytes,
    ...(firstError !== undefined && { firstError }),
  };
}

export interface TransferResult {
  /** Bytes the measurement is about (the file or the source folder), for MB/s. */
  bytes: number;
  /** Bytes that actually crossed the wire or pipe (archive size for archives). */
  transferred: number;
  seconds: number;
  mbps: number;
}

/** Runs a program, returning its stdout; rejects on a non-zero exit or after `timeoutMs`. */
function run(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4096)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} exited ${code ?? signal}: ${stderr.trim().slice(0, 500)}`));
    });
  });
}

/**
 * Downloads `url` with curl into /dev/null (curl is a lean C client, so the client is not the
 * bottleneck); `sourceBytes` is the figure MB/s is computed from.
 */
export async function curlDownload(
  url: string,
  headers: Record<string, string>,
  sourceBytes: number,
  maxSeconds: number,
): Promise<TransferResult> {
  const args = ['-sS', '-o', '/dev/null', '--max-time', String(maxSeconds)];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push('-w', '%{http_code} %{size_download} %{time_total}', url);
  const { stdout } = await run('curl', args, (maxSeconds + 10) * 1000);
  const [status, size, total] = stdout.trim().split(' ');
  if (status !== '200') throw new Error(`GET ${url} answered ${status}`);
  const seconds = Number(total);
  return {
    bytes: sourceBytes,
    transferred: Number(size),
    seconds,
    mbps: mbPerSecond(sourceBytes, seconds),
  };
}

/**
 * Runs a shell pipeline that reads `sourceBytes` of data and writes to stdout, counting its output
 * with `wc -c` (e.g. `tar cf - dir`): the pipe matters, as GNU tar skips reading files when its
 * archive is /dev/null itself.
 */
export async function timedShell(
  script: string,
  cwd: string,
  sourceBytes: number,
  maxSeconds: number,
): Promise<TransferResult> {
  const t0 = now();
  const { stdout } = await run(
    'sh',
    ['-c', `cd "$0" && ${script} | wc -c`, cwd],
    maxSeconds * 1000,
  );
  const seconds = (now() - t0) / 1000;
  const transferred = Number(stdout.trim());
  if (!Number.isFinite(transferred) || transferred === 0)
    throw new Error(`${script} wrote no output`);
  return { bytes: sourceBytes, transferred, seconds, mbps: mbPerSecond(sourceBytes, seconds) };
}

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
