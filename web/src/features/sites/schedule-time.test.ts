import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoToLocalInputs, localToIsoWithOffset } from './schedule-time.ts';

// A zone with daylight saving, so both offsets and the spring gap are exercised.
const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process!.env;
const zone = env.TZ;
beforeAll(() => {
  env.TZ = 'Europe/Paris';
});
afterAll(() => {
  env.TZ = zone;
});

describe('localToIsoWithOffset', () => {
  it('carries the winter and the summer offset of the zone', () => {
    expect(localToIsoWithOffset('2026-11-27', '14:30')).toBe('2026-11-27T14:30:00+01:00');
    expect(localToIsoWithOffset('2026-07-01', '09:05')).toBe('2026-07-01T09:05:00+02:00');
  });

  it('names the same instant as the local time', () => {
    const iso = localToIsoWithOffset('2026-11-27', '23:59')!;
    expect(new Date(iso).getTime()).toBe(new Date(2026, 10, 27, 23, 59).getTime());
  });

  it.each([
    ['', '10:00'],
    ['2026-11-27', ''],
    ['2026-02-30', '10:00'],
    ['2026-11-27', '25:00'],
    ['27/11/2026', '10:00'],
    // 02:30 does not exist in Paris on the morning clocks go forward.
    ['2026-03-29', '02:30'],
  ])('refuses %j %j', (date, time) => {
    expect(localToIsoWithOffset(date, time)).toBeNull();
  });
});

describe('isoToLocalInputs', () => {
  it('gives the inputs of a moment in the zone', () => {
    expect(isoToLocalInputs(new Date('2026-11-27T13:30:00Z'))).toEqual(['2026-11-27', '14:30']);
  });

  it('round-trips', () => {
    const [date, time] = isoToLocalInputs(new Date('2026-07-01T07:05:00Z'));
    expect(localToIsoWithOffset(date, time)).toBe('2026-07-01T09:05:00+02:00');
  });
});
