/**
 * Counts attempts (logins, signups, share passwords) per key in fixed windows, to slow guessing
 * and floods. The window of a key starts at its first attempt and lasts `windowMs`; within it the
 * key may make `max` attempts.
 */
export interface AttemptCounter {
  /** Seconds until `key` may try again, or 0 while it is under the limit. */
  retryAfter(key: string, now?: number): Promise<number>;
  /** Counts one attempt for `key`. */
  hit(key: string, now?: number): Promise<void>;
  /** Forgets windows that ended by `now` (the scheduler's prune job calls it); returns how many. */
  prune(now?: number): Promise<number>;
}

/** The fixed-window rule both implementations apply to a key's current window. */
export function secondsUntilAllowed(
  window: { count: number; resetAt: number } | undefined,
  max: number,
  now: number,
): number {
  if (!window || window.resetAt <= now || window.count < max) return 0;
  return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
}
