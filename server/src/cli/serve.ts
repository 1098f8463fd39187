import type { ServerConfig } from '../config/options.ts';
import { buildApp } from '../app.ts';
import { closeContext, createContext } from '../context.ts';
import { createRuntime } from '../runtime.ts';
import { createLogger } from '../logger.ts';
import { reloadTls } from '../config/tls-files.ts';
import type { Server as HttpsServer } from 'node:https';
import cluster from 'node:cluster';
import { clusterConfig, runPrimary } from './serve-cluster.ts';

/**
 * Starts the server and stops it cleanly on SIGINT/SIGTERM (10 s grace); SIGHUP reloads the TLS
 * certificate when Cabinet serves HTTPS, and stops it otherwise.
 */
export async function serve(config: ServerConfig): Promise<void> {
  // `--workers N`: this process only starts and watches the workers, which run the code below.
  config = clusterConfig(config);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config);
  const log = createLogger(config);
  const ctx = await createContext(config, log);
  const settings = await ctx.settings.get();
  if (
    settings.signup &&
    !settings.createUserDir &&
    ['', '.', '/'].includes(settings.defaults.scope)
  ) {
    // GHSA-6759-996p-gpj6: every self-registered user would see the whole root.
    log.warn(
      'signup is on, createUserDir is off and the default scope is the root: new users will see every file',
    );
  }
  const app = await buildApp(createRuntime(ctx));
  const address = await app.listen({ host: config.address, port: config.port });
  log.info(`Cabinet serving ${config.root} at ${address}${config.baseURL}/`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void app
      .close()
      .then(() => closeContext(ctx))
      .then(() => process.exit(0));
  };
  const servesTls = Boolean(config.cert && config.key);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
  // With TLS, SIGHUP loads a renewed certificate (a bad pair is logged and the old one kept);
  // without, it stops the server as before.
  process.on('SIGHUP', () => {
    if (!servesTls) return stop('SIGHUP');
    try {
      reloadTls(app.server as unknown as HttpsServer, config);
      log.info('SIGHUP received, TLS certificate reloaded');
    } catch (error) {
      log.error({ err: error }, 'SIGHUP received, TLS certificate not reloaded');
    }
  });
}
