/**
 * A rolling restart under load, as docs/deploy.md describes it: while connections send listing
 * requests through the balancer, one instance is stopped (SIGINT, as `systemctl stop` sends
 * SIGTERM: Cabinet ends the requests it has and closes) and started again on the same port over
 * the same data folder and database. The balancer should send what the stopped instance cannot
 * answer to the others, so no client sees an error.
 */
import { timedPass } from './autocannon-pass.ts';
import { startCabinet, type CabinetOptions, type RunningServer } from './servers.ts';

export interface RestartResult {
  /** 2xx answers during the pass. */
  answered: number;
  /** Connection errors, timeouts and non-2xx answers seen by the clients. */
  failed: number;
  /** Seconds from the stop signal until the old process exited. */
  stopSeconds: number;
  /** Seconds from the stop signal until the new instance answered /health. */
  downSeconds: number;
}

export interface RestartOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** The instance to restart; it is replaced by the new process in `restarted`. */
  instance: RunningServer;
  /** How the instance was started (root, password, data folder, environment). */
  start: CabinetOptions;
  /** Seconds of load before the stop; the pass lasts until the new instance is up plus as long. */
  loadSeconds: number;
  restarted(server: RunningServer): void;
}

export async function rollingRestart(options: RestartOptions): Promise<RestartResult> {
  const { url, headers, connections, loadSeconds } = options;
  const port = Number(new URL(options.instance.url).port);
  let stopSeconds = Number.NaN;
  let downSeconds = Number.NaN;
  const restart = (async () => {
    await new Promise((resolve) => setTimeout(resolve, loadSeconds * 1000));
    const stopped = performance.now();
    await options.instance.stop();
    stopSeconds = (performance.now() - stopped) / 1000;
    const fresh = await startCabinet({ ...options.start, port });
    options.restarted(fresh);
    downSeconds = (performance.now() - stopped) / 1000;
  })();
  // The pass is long enough for the stop, the start (a few seconds) and as much load again.
  const pass = timedPass({ url, headers, connections, seconds: loadSeconds * 2 + 15 });
  const [result] = await Promise.all([pass, restart]);
  return {
    answered: result.requests,
    failed: result.errors + result.non2xx,
    stopSeconds,
    downSeconds,
  };
}
