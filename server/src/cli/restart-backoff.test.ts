import { describe, expect, it } from 'vitest';
import { RestartBackoff } from './restart-backoff.ts';

describe('RestartBackoff', () => {
  const policy = { healthyAfterMs: 30_000, firstDelayMs: 500, maxDelayMs: 4_000 };

  it('replaces a worker that ran for a while at once', () => {
    const backoff = new RestartBackoff(policy);
    expect(backoff.delayAfterExit(60_000)).toBe(0);
    expect(backoff.delayAfterExit(30_000)).toBe(0);
  });

  it('waits longer after each quick exit in a row, up to the cap', () => {
    const backoff = new RestartBackoff(policy);
    const delays = [1, 2, 3, 4, 5].map(() => backoff.delayAfterExit(100));
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
  });

  it('starts over once a worker has lived long enough', () => {
    const backoff = new RestartBackoff(policy);
    backoff.delayAfterExit(100);
    backoff.delayAfterExit(100);
    expect(backoff.delayAfterExit(45_000)).toBe(0);
    expect(backoff.delayAfterExit(100)).toBe(500);
  });
});
