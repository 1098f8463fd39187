/**
 * The load and download measurements (uploads are in measure-upload.ts). Every loop is bounded
 * both in count and in time, and every request has a timeout, so a slow or stuck server cannot keep
 * the benchmark running.
 */
import { spawn } from 'node:child_process';
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
