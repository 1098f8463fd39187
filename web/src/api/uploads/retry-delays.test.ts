import { describe, expect, it } from 'vitest';
import { isTransientStatus, retryDelays } from './retry-delays.ts';

describe('retryDelays', () => {
  it('waits 0, 1, 2, 4 … seconds, at most 20, one entry per retry', () => {
    expect(retryDelays(0)).toEqual([]);
    expect(retryDelays(5)).toEqual([0, 1000, 2000, 4000, 8000]);
    expect(retryDelays(8).at(-1)).toBe(20_000);
  });
});

describe('isTransientStatus', () => {
  it('retries no reply, a stopping or unreachable server, never a refusal', () => {
    for (const status of [0, 423, 502, 503, 504]) expect(isTransientStatus(status)).toBe(true);
    for (const status of [400, 403, 404, 409, 413, 500, 507]) {
      expect(isTransientStatus(status)).toBe(false);
    }
  });
});
