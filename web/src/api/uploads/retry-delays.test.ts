import { describe, expect, it } from 'vitest';
import { retryDelays } from './retry-delays.ts';

describe('retryDelays', () => {
  it('waits 0, 1, 2, 4 … seconds, at most 20, one entry per retry', () => {
    expect(retryDelays(0)).toEqual([]);
    expect(retryDelays(5)).toEqual([0, 1000, 2000, 4000, 8000]);
    expect(retryDelays(8).at(-1)).toBe(20_000);
  });
});
