/**
 * The two servers under test, each a child process on 127.0.0.1: Cabinet (`node server/bin/cabinet.js
 * serve`, so its memory is its own) and nginx (Debian package, foreground, current user, JSON
 * autoindex, sendfile, a WebDAV PUT location for an informational upload figure).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS, serverEnvironment } from '../../server/scripts/node-flags.mjs';
import { REPO_ROOT } from './layout.ts';
import { now } from './stats.ts';

export interface RunningServer {
  name: string;
  /** http://127.0.0.1:<port> */
  url: string;
  pid: number;
  /** Last lines the process wrote to stderr/stdout, for error messages. */
  output(): string;
  stop(): Promise<void>;
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Keeps the last ~8 KiB a child prints. */
export function captureOutput(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-8192);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

/** Polls `url` until it answers `expected`, the child exits, or `timeoutMs` passes. */
export async function waitForHttp(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  output: () => string,
  expected = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === expected) return;
      lastError = `status ${response.status}`;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${lastError}):\n${output()}`);
}

/** Sends `signal`, then SIGKILL if the process has not exited within `graceMs`. */
export function stopChild(
  child: ChildProcess,
  signal: NodeJS.Signals,
  graceMs = 10_000,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill(signal);
  });
}

export interface CabinetOptions {
  root: string;
  password: string;
  /** Extra node flags for the server process, e.g. ["--cpu-prof", "--cpu-prof-dir=..."]. */
  nodeFlags?: string[];
  /** Cabinet's launcher (default server/bin/cabinet.js of this checkout), e.g. for A/B runs. */
  bin?: string;
  /** A data folder to use and keep (restart measurements); default a temp one, removed at stop. */
  dataDir?: string;
  /** More environment for the server, e.g. `CABINET_LOG_LEVEL`. */
  env?: Record<string, string>;
  /** Port to listen on (default a free one), e.g. to restart an instance behind a balancer. */
  port?: number;
}

/** Starts Cabinet with a temp data folder; resolves once /health answers. */
export async function startCabinet(options: CabinetOptions): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-'));
  const child = spawn(
    process.execPath,
    [
      // As `npm start` runs it.
      ...SERVER_NODE_FLAGS,
      ...(options.nodeFlags ?? []),
      options.bin ?? path.join(REPO_ROOT, 'server/bin/cabinet.js'),
      'serve',
    ],
    {
      cwd: dataDir,
      env: {
        // As `npm start` runs it: its V8 flags above, glibc's settings here.
        ...serverEnvironment(),
        CABINET_ADDRESS: '127.0.0.1',
        CABINET_PORT: String(port),
        CABINET_ROOT: options.root,
        CABINET_DATA: dataDir,
        CABINET_ADMIN_PASSWORD: options.password,
        CABINET_LOG_LEVEL: 'warn',
        CABINET_LOG_FORMAT: 'json',
        NODE_ENV: 'production',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = captureOutput(child);
  // BENCH_SERVER_LOG=<file>: everything Cabinet prints (e.g. with BENCH_NODE_FLAGS=--trace-gc).
  if (process.env.BENCH_SERVER_LOG) {
    const log = createWriteStream(process.env.BENCH_SERVER_LOG);
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    // SIGINT: Cabinet closes cleanly (and --cpu-prof writes its profile on a clean exit).
    await stopChild(child, 'SIGINT');
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}/health`, child, 60_000, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name: 'cabinet', url, pid: child.pid as number, output, stop };
}

/** Logs in through POST /api/login and returns the token. */
export async function login(url: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password, recaptcha: '' }),
  });
  const body = await response.text();
  if (response.status !== 200)
    throw new Error(`POST /api/login answered ${response.status}: ${body.slice(0, 200)}`);
  return body.trim();
}

/** nginx's version line, or undefined when nginx is not installed. */
export function nginxVersion(): string | undefined {
  const result = spawnSync('nginx', ['-v'], { encoding: 'utf8' });
  if (result.error) return undefined;
  return (result.stderr || result.stdout).trim();
}

export interface NginxOptions {
  root: string;
  /** Folder nginx may write uploads into (WebDAV PUT under /upload/). */
  uploadDir: string;
  /** Same file system as uploadDir, for nginx's request-body temp files. */
  scratch: string;
  workers: number;
}

/** Starts nginx in the foreground with a generated config; resolves once it answers. */
export async function startNginx(options: NginxOptions): Promise<RunningServer> {
  if (!nginxVersion())
    throw new Error('nginx is not installed: apt-get install -y nginx (see docs/benchmarks.md)');
  const port = await freePort();
  const prefix = mkdtempSync(path.join(os.tmpdir(), 'cabinet-bench-nginx-'));
  const bodyTemp = path.join(options.scratch, 'nginx-body');
  mkdirSync(bodyTemp, { recursive: true });
  mkdirSync(options.uploadDir, { recursive: true });
  const isRoot = process.getuid?.() === 0;
  const conf = `
${isRoot ? 'user root;' : ''}
daemon off;
master_process on;
worker_processes ${options.workers};
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 100000;
  client_body_temp_path ${bodyTemp};
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${options.root};
    location / {
      autoindex on;
      autoindex_format json;
    }
    location /upload/ {
      alias ${options.uploadDir}/;
      dav_methods PUT;
      create_full_put_path on;
      client_max_body_size 0;
      client_body_buffer_size 1m;
    }
  }
}
`;
  return { name: 'nginx', ...(await launchNginx(prefix, conf, port, '/')) };
}

/** A foreground nginx started by launchNginx. */
export interface LaunchedNginx {
  url: string;
  pid: number;
  /** What nginx printed and the end of its error log, for failure messages. */
  output: () => string;
  /** Stops nginx (graceful SIGQUIT) and removes its prefix folder. */
  stop: () => Promise<void>;
}

/**
 * Writes `config` into the prefix folder, starts nginx in the foreground on it and resolves once
 * `healthPath` answers on `port`; on failure nginx is stopped and its folder removed.
 */
export async function launchNginx(
  prefix: string,
  config: string,
  port: number,
  healthPath: string,
): Promise<LaunchedNginx> {
  const configFile = path.join(prefix, 'nginx.conf');
  writeFileSync(configFile, config);
  const child = spawn('nginx', ['-p', prefix, '-c', configFile, '-e', `${prefix}/error.log`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const captured = captureOutput(child);
  const output = () => {
    let log = '';
    try {
      log = readFileSync(path.join(prefix, 'error.log'), 'utf8').slice(-4096);
    } catch {
      // no log yet
    }
    return `${captured()}${log}`;
  };
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child, 'SIGQUIT');
    rmSync(prefix, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${url}${healthPath}`, child, 15_000, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, pid: child.pid as number, output, stop };
}

/** Waits until the server's output holds `text`; returns the matching JSON log line. */
export async function waitForLog(server: RunningServer, text: string, timeoutMs: number) {
  const deadline = now() + timeoutMs;
  while (now() < deadline) {
    const line = server
      .output()
      .split('\n')
      .find((row) => row.includes(text));
    if (line)
      return JSON.parse(line) as { ms: number; entries: number; bytes: number; folders: number };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "${text}" in the server log within ${timeoutMs} ms:\n${server.output()}`);
}
