import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Settings } from '@cabinet/protocol';
import { buildApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config/load-config.ts';
import type { ServerConfig } from '../../server/src/config/options.ts';
import { closeContext, createContext, type AppContext } from '../../server/src/context.ts';
import { ADMIN_PASSWORD } from '../../server/test/helpers/test-server.ts';
import { WEB_DIST } from './paths.ts';
import { freePort } from './servers.ts';

/** A real server in this process that can be stopped and started again, same port and data. */
export interface RestartableServer {
  /** http://127.0.0.1:<port>, the same across restarts (a page keeps talking to it). */
  url: string;
  root: string;
  adminPassword: string;
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
export async function startRestartableServer(): Promise<RestartableServer> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-e2e-restart-'));
  const root = path.join(base, 'files');
  const dataDir = path.join(base, 'data');
  const port = await freePort();
  const config: ServerConfig = {
    ...loadConfig({}, {}, undefined, base),
    root,
    data: dataDir,
    database: path.join(dataDir, 'cabinet.db'),
    address: '127.0.0.1',
    port,
    logLevel: process.env.CABINET_TEST_LOG ?? 'silent',
    logFormat: 'json',
    adminPassword: ADMIN_PASSWORD,
    rateLimitMax: 1000,
    webDist: WEB_DIST,
  };

  let instance: { ctx: AppContext; app: FastifyInstance } | null = null;
  const start = async () => {
    if (instance) return;
    const ctx = await createContext(config, pino({ level: config.logLevel }));
    const app = await buildApp(ctx);
    await app.listen({ host: '127.0.0.1', port });
    instance = { ctx, app };
  };
  const stop = async () => {
    if (!instance) return;
    const { ctx, app } = instance;
    instance = null;
    const closing = app.close();
    // Cut uploads in flight at once, as a crash or a restart would.
    app.server.closeAllConnections();
    await closing;
    await closeContext(ctx);
  };
  await start();

  return {
    url: `http://127.0.0.1:${port}`,
    root,
    adminPassword: ADMIN_PASSWORD,
    async updateSettings(patch) {
      const settings = instance!.ctx.settings;
      await settings.save({ ...(await settings.get()), ...patch });
    },
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
