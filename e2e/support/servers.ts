import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer, type TestServerOptions } from '@cabinet/server/testing';
import { REPO_ROOT, WEB_DIST } from './paths.ts';

function assertWebBuilt(): void {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build -w web` (npm test does it for you)');
  }
}

/**
 * A real server in this process (@cabinet/server/testing) serving the built web app:
 * temp root, temp data folder, real SQLite. `server.url` already includes the base URL.
 */
export async function startAppServer(options: TestServerOptions = {}): Promise<TestServer> {
  assertWebBuilt();
  return startTestServer({ ...options, config: { webDist: WEB_DIST, ...options.config } });
}

/** Writes files into a server's root: keys are scope paths, a trailing slash makes a folder. */
export async function seedFiles(root: string, entries: Record<string, string>): Promise<void> {
  for (const [name, content] of Object.entries(entries)) {
    const target = path.join(root, name);
    if (name.endsWith('/')) await mkdir(target, { recursive: true });
    else {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, content);
    }
  }
}

/** Asks the OS for a port nobody listens on (the CLI needs a fixed one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface CliServer {
  /** http://127.0.0.1:<port><baseURL>, no trailing slash. */
  url: string;
  /** The admin password printed once at first start. */
  adminPassword: string;
  root: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export interface CliServerOptions {
  baseURL?: string;
  /** Extra flags, e.g. ['--auth-method', 'noauth']. */
  args?: string[];
}

/**
 * Runs the real command line, `node server/bin/cabinet.js serve`, on a free port with a fresh root
 * and data folder, and reads the admin password it prints on first start from its log.
 */
export async function spawnCabinet(options: CliServerOptions = {}): Promise<CliServer> {
  assertWebBuilt();
  const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-e2e-cli-'));
  const root = path.join(base, 'files');
  await mkdir(root, { recursive: true });
  const port = await freePort();
  const baseURL = options.baseURL ?? '';
  // Only this run's settings: a CABINET_* variable of the caller must not leak in.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('CABINET_')),
  );
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(REPO_ROOT, 'server/bin/cabinet.js'),
      'serve',
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--root',
      root,
      '--data',
      path.join(base, 'data'),
      ...(baseURL ? ['--base-url', baseURL] : []),
      '--web-dist',
      WEB_DIST,
      '--log-format',
      'json',
      ...(options.args ?? []),
    ],
    { cwd: base, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const adminPassword = await new Promise<string>((resolve, reject) => {
    let password: string | undefined;
    const timer = setTimeout(
      () => reject(new Error(`cabinet did not start within 60 s:\n${output}`)),
      60_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      password ??= /randomly generated password: (\S+?)["\s]/.exec(output)?.[1];
      if (password && output.includes('Cabinet serving')) {
        clearTimeout(timer);
        resolve(password);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cabinet exited with ${code} before it was ready:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}${baseURL}`,
    adminPassword,
    root,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(base, { recursive: true, force: true });
    },
  };
}
