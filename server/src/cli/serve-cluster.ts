import cluster, { type Worker } from 'node:cluster';
import type { ServerConfig } from '../config/options.ts';
import { createLogger } from '../logger.ts';
import { checkDatabaseVersion } from '../store/db.ts';
import { RestartBackoff } from './restart-backoff.ts';

/**
 * `--workers N` (docs/architecture.md, "Several cores"): the shared state several processes need.
 * Each worker is a whole Cabinet instance, so `auto` means the database (as for instances behind a
 * balancer, docs/runtime.md); a `process` chosen explicitly would give each worker its own login
 * counters and locks, which is refused.
 */
export function clusterConfig(config: ServerConfig): ServerConfig {
  if (config.workers <= 1) return config;
  if (config.sharedState === 'process') {
    throw new Error('--workers above 1 needs --shared-state database (or auto)');
  }
  return { ...config, sharedState: 'database' };
}

/**
 * The primary of `--workers N`: serves nothing itself. It starts one worker and waits until it
 * listens (that one runs migrations and first-start set-up alone), then the others; node:cluster
 * hands the shared port's connections to the workers in turn. A worker that dies is replaced, at
 * once after a healthy run and with a growing delay when workers keep dying soon after start
 * (RestartBackoff); on
 * SIGINT/SIGTERM every worker is asked to stop (each drains as a single server does) and the
 * primary exits once they all have.
 */
export async function runPrimary(config: ServerConfig): Promise<void> {
  const log = createLogger(config).child({ area: 'cluster' });
  let stopping = false;
  const live = new Set<Worker>();
  const backoff = new RestartBackoff();

  const fork = (): Promise<void> =>
    new Promise((resolve) => {
      const worker = cluster.fork();
      const started = performance.now();
      live.add(worker);
      worker.once('listening', () => resolve());
      worker.once('exit', (code, signal) => {
        live.delete(worker);
        resolve();
        if (stopping) {
          if (live.size === 0) process.exit(0);
          return;
        }
        const delay = backoff.delayAfterExit(performance.now() - started);
        log.error(
          { code, signal, restartInMs: delay },
          'a server worker stopped; starting another',
        );
        setTimeout(() => {
          if (!stopping) void fork();
        }, delay);
      });
    });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received, stopping ${live.size} workers`);
    if (live.size === 0) process.exit(0);
    for (const worker of live) worker.process.kill('SIGTERM');
    // The workers' own grace is 10 s; past it, the primary does not wait any longer.
    setTimeout(() => process.exit(1), 12_000).unref();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop);
  // With TLS each worker reloads its certificate on SIGHUP; without, SIGHUP stops, as one server.
  process.on('SIGHUP', () => {
    if (!(config.cert && config.key)) return stop('SIGHUP');
    for (const worker of live) worker.process.kill('SIGHUP');
  });

  // Workers refused by a database a newer version migrated would be replaced for ever: the
  // primary refuses it itself, once, before starting any.
  await checkDatabaseVersion(config.database);
  await fork();
  await Promise.all(Array.from({ length: config.workers - 1 }, () => fork()));
  log.info(`${live.size} server workers share the port`);
}
