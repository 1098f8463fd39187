interface Window {
  count: number;
  resetAt: number;
}

/**
 * A fixed-window counter per key (an address or a username), kept in memory. It slows password
 * guessing and signup floods; each instance counts on its own, which is documented in docs/api.md.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or 0 when it is under the limit. */
  retryAfter(key: string, now = Date.now()): number {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now || window.count < this.max) return 0;
    return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
  }

  /** Counts one attempt for `key`. */
  hit(key: string, now = Date.now()): void {
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
export function assertUnderLimit(limiter: AttemptLimiter, keys: string[]): void {
  const wait = Math.max(0, ...keys.map((key) => limiter.retryAfter(key)));
  if (wait > 0) throw new RateLimitedError(wait);
}
