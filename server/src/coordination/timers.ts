/**
 * The one clock: milliseconds since the epoch. Services never read `Date.now()` themselves; the
 * runtime hands them this (tests hand them one they move), so every expiry, rate and timestamp
 * follows one time (eslint.config.js keeps it so).
 */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * How far `clock` is ahead of the system's, in whole seconds: for libraries that judge time by the
 * real clock and take a skew (openid-client), so they judge by the runtime's clock instead.
 */
export function skewSeconds(clock: Clock): number {
  return Math.round((clock() - Date.now()) / 1000);
}

/**
 * The waits the coordination primitives and the services make (polling a lease, refreshing it, waking the
 * scheduler), behind an interface so tests can drive them. The real ones never keep the process
 * alive on their own.
 */
export interface Timers {
  /** Calls `fn` once after `ms`; the returned function cancels the call. */
  after(ms: number, fn: () => void): () => void;
  /** Resolves after `ms`. */
  sleep(ms: number): Promise<void>;
}

export const realTimers: Timers = {
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
  sleep(ms) {
    // Not unref'd: a caller is waiting on it, and the wait is short.
    return new Promise((resolve) => setTimeout(resolve, ms));
  },
};

/** How a waiter polls: the first pause, doubled after each miss up to the longest. */
export interface Backoff {
  firstMs: number;
  maxMs: number;
}

/** A few milliseconds at first (a lock held briefly), growing to ~100 ms (one held for long). */
export const DEFAULT_BACKOFF: Backoff = { firstMs: 5, maxMs: 100 };

/** The pause after `previousMs` under `backoff`. */
export function nextPause(previousMs: number, backoff: Backoff): number {
  return Math.min(backoff.maxMs, previousMs * 2);
}

/**
 * Calls `fn` every `ms` until the returned function is called. A call that is still running when
 * the next is due delays it: calls never overlap.
 */
export function repeat(timers: Timers, ms: number, fn: () => Promise<void>): () => void {
  let stopped = false;
  let cancel = timers.after(ms, tick);
  function tick(): void {
    // `fn` reports its own errors; one that escapes must not stop the repetition.
    void fn()
      .catch(() => undefined)
      .finally(() => {
        if (!stopped) cancel = timers.after(ms, tick);
      });
  }
  return () => {
    stopped = true;
    cancel();
  };
}
