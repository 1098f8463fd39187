import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Settings } from '@cabinet/protocol';
import { ADMIN_PASSWORD, type TestServer, type TestServerOptions } from '@cabinet/server/testing';
import { freePort, startAppServer } from './servers.ts';

/** A real server in this process that can be stopped and started again, same port and data. */
export interface RestartableServer {
  /** http://127.0.0.1:<port>, the same across restarts (a page keeps talking to it). */
  url: string;
  root: string;
  adminPassword: string;
  /** The instance started last (still there to read `url` and `root` from while stopped). */
  instance(): TestServer;
  /** Replaces parts of the global settings of the running instance. */
  updateSettings(patch: Partial<Settings>): Promise<void>;
  /** Stops the instance (uploads in flight are cut) and starts a new one on the same folders. */
  restart(): Promise<void>;
  /** Stops the instance and leaves it stopped (the server has gone away) until `start`. */
  stop(): Promise<void>;
  /** Starts it again after `stop`, on the same port and folders. */
  start(): Promise<void>;
  /** Stops it for good and removes its folders. */
  close(): Promise<void>;
}

/**
 * Like startAppServer, but on a fixed port so that a browser page survives a restart: the
 * database (sessions, upload sessions) and the files stay, as after a real restart.
 */
export async function startRestartableServer(
  options: TestServerOptions = {},
): Promise<RestartableServer> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-e2e-restart-'));
  const root = path.join(base, 'files');
  const dataDir = path.join(base, 'data');
  const port = await freePort();

  let instance: TestServer | null = null;
  let last: TestServer | null = null;
  const start = async () => {
    if (instance) return;
    instance = await startAppServer({
      ...options,
      root,
      dataDir,
      config: { ...options.config, port },
    });
    last = instance;
  };
  const stop = async () => {
    if (!instance) return;
    const running = instance;
    instance = null;
    // close() cuts uploads in flight at once, as a crash or a restart would; the folders stay.
    await running.close();
  };
  await start();

  return {
    url: `http://127.0.0.1:${port}`,
    root,
    adminPassword: ADMIN_PASSWORD,
    instance: () => last!,
    updateSettings: (patch) => instance!.updateSettings(patch),
    async restart() {
      await stop();
      await start();
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}
