import type { AttemptCounter } from '../../coordination-ports.ts';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed-window counter per key (an address or a username), kept in memory. It slows password
 * guessing and signup floods; each instance counts on its own, which is documented in docs/api.md.
 */
export class AttemptLimiter implements AttemptCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under the limit. */
  async retryAfter(key: string, now = Date.now()): Promise<number> {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now || window.count < this.max) return 0;
    return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  }

  /** Counts one attempt for `key`. */
  async hit(key: string, now = Date.now()): Promise<void> {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.windows.size > 10_000) this.prune(now);
    } else {
      window.count += 1;
    }
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/** Thrown when an address or a username has used up its attempts; carries Retry-After. */
export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too many attempts');
  }
}

/**
 * Throws a 429 (through RateLimitedError) when any of the keys is over its limit. Keys are
 * prefixed by kind ("ip:", "user:") so the two counts never mix.
 */
export async function assertUnderLimit(counter: AttemptCounter, keys: string[]): Promise<void> {
  const waits = await Promise.all(keys.map((key) => counter.retryAfter(key)));
  const wait = Math.max(0, ...waits);
  if (wait > 0) throw new RateLimitedError(wait);
}
