import type { AttemptCounter } from '../../coordination/index.ts';
import { RateLimitedError } from '../../errors.ts';

/**
 * Throws a 429 (through RateLimitedError) when any of the keys is over its limit. Keys are
 * prefixed by kind ("ip:", "user:") so the two counts never mix.
 */
export async function assertUnderLimit(counter: AttemptCounter, keys: string[]): Promise<void> {
  const waits = await Promise.all(keys.map((key) => counter.retryAfter(key)));
  const wait = Math.max(0, ...waits);
  if (wait > 0) throw new RateLimitedError(wait);
}
