/**
 * Closed-loop GET passes with autocannon: a fixed number of keep-alive connections, each sending
 * its next request when the last answer ended. A timed pass runs for a fixed time; a warm-up sends
 * a fixed number of requests and ends when all are answered, so nothing of it is still running on
 * the server when a timed pass starts. Both are bounded (a time limit, autocannon's per-request
 * timeout).
 */
import autocannon from 'autocannon';

export interface PassResult {
  connections: number;
  /** Seconds the pass ran. */
  seconds: number;
  /**
   * Connections ÷ mean time per answer (Little's law for a closed loop, where each connection
   * always has one request out): the server's rate, not lowered by the requests still running when
   * the time is up, which `answeredPerSecond` leaves out.
   */
  requestsPerSecond: number;
  /** 2xx answers completed within the pass, per second of it (autocannon's own count). */
  answeredPerSecond: number;
  /** Time to the last byte of 2xx answers, ms. */
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  /** 2xx answers. */
  requests: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers that were not 2xx. */
  non2xx: number;
  /** Mean size of an answer, bytes (status line and headers included). */
  bytesPerResponse: number;
}

export interface PassOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
}

/** Seconds autocannon waits for one answer before it counts a timeout and reconnects. */
const REQUEST_TIMEOUT_S = 60;

export async function timedPass(options: PassOptions & { seconds: number }): Promise<PassResult> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.seconds,
    timeout: REQUEST_TIMEOUT_S,
  });
  const completed = result.requests.total;
  return {
    connections: options.connections,
    seconds: result.duration,
    requestsPerSecond:
      result['2xx'] > 0 ? options.connections / (result.latency.average / 1000) : 0,
    answeredPerSecond: result['2xx'] / result.duration,
    meanMs: result.latency.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result['2xx'],
    errors: result.errors,
    non2xx: result.non2xx,
    bytesPerResponse: completed > 0 ? result.throughput.total / completed : 0,
  };
}

/**
 * `perConnection` requests on each connection, all answered (or the pass stopped after
 * `maxSeconds`); returns how many failed.
 */
export async function warmUp(
  options: PassOptions & { perConnection: number; maxSeconds: number },
): Promise<number> {
  const run = autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    amount: options.connections * options.perConnection,
    timeout: REQUEST_TIMEOUT_S,
  });
  const limit = setTimeout(() => run.stop(), options.maxSeconds * 1000);
  try {
    const result = await run;
    return result.errors + result.non2xx;
  } finally {
    clearTimeout(limit);
  }
}
