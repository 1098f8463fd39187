// The real server as a child process (`bin/cabinet.js serve` over given folders and database), for
// tests that kill it with SIGKILL and start it again on the same data: an in-process test server
// cannot be killed without killing the test.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD } from './test-server.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/cabinet.js');

/** A free TCP port on 127.0.0.1 (the OS picks it; the probe closes before the server binds). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface SpawnedServerOptions {
  root: string;
  dataDir: string;
  /** The `database` option: an SQLite file or a postgres:// URL (see testDatabaseFor). */
  database: string;
  port: number;
  /** More environment variables for the server (`CABINET_FROM_SOURCES: '1'` skips the bundle). */
  env?: Record<string, string>;
}

/** Starts the servers of one test and kills whatever is left of them at the end. */
export class SpawnedServers {
  private readonly children: ChildProcess[] = [];

  /** Spawns `cabinet serve` and resolves once it answers /health (a condition, polled). */
  async start(options: SpawnedServerOptions): Promise<ChildProcess> {
    const url = `http://127.0.0.1:${options.port}`;
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: {
        ...process.env,
        CABINET_ADDRESS: '127.0.0.1',
        CABINET_PORT: String(options.port),
        CABINET_ROOT: options.root,
        CABINET_DATA: options.dataDir,
        CABINET_DATABASE: options.database,
        CABINET_ADMIN_PASSWORD: ADMIN_PASSWORD,
        CABINET_LOG_LEVEL: 'warn',
        ...options.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    this.children.push(child);
    const exited = new Promise<never>((_resolve, reject) =>
      child.once('exit', (code, signal) =>
        reject(new Error(`the server exited (${code ?? signal}) before answering`)),
      ),
    );
    exited.catch(() => undefined);
    for (;;) {
      const ok = await Promise.race([
        fetch(`${url}/health`).then(
          (response) => response.ok,
          () => false,
        ),
        exited,
      ]);
      if (ok) return child;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** SIGKILL, resolved once the process is gone. */
  async kill(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await gone;
  }

  /** Kills every child still running. */
  async killAll(): Promise<void> {
    await Promise.all(this.children.splice(0).map((child) => this.kill(child)));
  }
}

/** Signs the admin in on a spawned server; returns the token. */
export async function loginAdmin(url: string): Promise<string> {
  const response = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD, recaptcha: '' }),
  });
  if (response.status !== 200) throw new Error(`admin login answered ${response.status}`);
  return (await response.text()).trim();
}
