import { describe, expect, it } from 'vitest';
import { jobPercent, secondsLeft, SpeedMeter, totalPercent } from './upload-progress.ts';

describe('totalPercent', () => {
  it.each([
    [[], 0],
    [[{ size: 100, loaded: 0 }], 0],
    [[{ size: 10_000_000_000, loaded: 1 }], 1],
    [
      [
        { size: 100, loaded: 50 },
        { size: 100, loaded: 0 },
      ],
      25,
    ],
    [[{ size: 3, loaded: 1 }], 34],
    [
      [
        { size: 100, loaded: 100 },
        { size: 0, loaded: 0 },
      ],
      100,
    ],
    [[{ size: 100, loaded: 250 }], 100],
  ])('sums loaded over size and rounds up: %j -> %i', (jobs, percent) => {
    expect(totalPercent(jobs)).toBe(percent);
  });
});

describe('jobPercent', () => {
  it('rounds down so that 100 means every byte', () => {
    expect(jobPercent({ size: 1000, loaded: 999 })).toBe(99);
    expect(jobPercent({ size: 1000, loaded: 1000 })).toBe(100);
    expect(jobPercent({ size: 0, loaded: 0 })).toBe(0);
  });
});

describe('SpeedMeter', () => {
  it('measures bytes per second over the recent samples', () => {
    const meter = new SpeedMeter();
    expect(meter.sample(0, 0)).toBe(0);
    expect(meter.sample(1000, 1000)).toBe(1000);
    expect(meter.sample(2000, 3000)).toBe(1500);
  });

  it('forgets samples older than its window', () => {
    const meter = new SpeedMeter();
    meter.sample(0, 0);
    meter.sample(1000, 100_000);
    meter.sample(6000, 100_500);
    expect(meter.sample(7000, 101_500)).toBeCloseTo(1000);
  });

  it('starts over when a resumed upload reports fewer bytes', () => {
    const meter = new SpeedMeter();
    meter.sample(0, 0);
    meter.sample(1000, 5000);
    expect(meter.sample(2000, 4000)).toBe(0);
    expect(meter.sample(3000, 6000)).toBe(2000);
  });
});

describe('secondsLeft', () => {
  it('divides what is left by the speed, and knows nothing without a speed', () => {
    expect(secondsLeft({ size: 1000, loaded: 400, speed: 100 })).toBe(6);
    expect(secondsLeft({ size: 1000, loaded: 400, speed: 0 })).toBeNull();
  });
});
