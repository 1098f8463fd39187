/**
 * The part of autocannon 8's API the benchmark uses (the package ships no types). Field meanings
 * are from its README ("API" and "Results").
 */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Requests to send in all; the run ends when they have been answered (overrides duration). */
    amount?: number;
    /** Seconds to wait for each response. */
    timeout?: number;
    headers?: Record<string, string>;
    method?: string;
  }

  export interface Result {
    /** Seconds the run took. */
    duration: number;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    /** Milliseconds per request (2xx responses only). */
    latency: Histogram;
    /** Responses per one-second sample; `total` is every completed response. */
    requests: Histogram & { total: number; sent: number };
    /** Response bytes per one-second sample. */
    throughput: Histogram & { total: number };
  }

  /** Without a callback the run is a promise of its result. */
  export interface Instance extends PromiseLike<Result> {
    /** Ends the run at its next one-second tick. */
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
