import { describe, expect, it } from 'vitest';
import { sweepInterval } from './expiry-sweeper.ts';

describe('expiry sweep interval', () => {
  it('is a quarter of the lifetime, between one second and ten minutes', () => {
    expect(sweepInterval(24 * 3600 * 1000)).toBe(600_000);
    expect(sweepInterval(60_000)).toBe(15_000);
    expect(sweepInterval(100)).toBe(1000);
  });
});
