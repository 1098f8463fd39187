import { afterAll, describe, expect, it } from 'vitest';
import { formatTime } from './file-info.ts';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?(Z|[+-]\d\d:\d\d)$/;

describe('formatTime', () => {
  const zone = process.env.TZ;
  afterAll(() => {
    // Test files share their worker (vitest.config.ts): the next one gets the zone it started with.
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  // formatTime keeps each hour's offset (the server's zone does not change while it runs), so the
  // random instants below stay out of the hours the zone test checks in other zones.
  const zoneTestHours = new Set(
    [Date.UTC(2024, 6, 1, 10), Date.UTC(2024, 0, 15, 23, 30), Date.UTC(2023, 0, 1, 2, 0, 1)].map(
      (ms) => Math.floor(ms / 3_600_000),
    ),
  );

  it('names the same instant as the file time, to the millisecond, for any day', () => {
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor(Math.random() * 4e12) - 1e12 + Math.random();
      if (zoneTestHours.has(Math.floor(ms / 3_600_000))) continue;
      const text = formatTime(ms);
      expect(text).toMatch(RFC3339);
      // Microseconds are rounded, which may carry into the next millisecond.
      expect(Math.abs(Date.parse(text) - ms)).toBeLessThanOrEqual(1);
    }
  });

  it('keeps microseconds and trims trailing zeros', () => {
    process.env.TZ = 'UTC';
    expect(formatTime(Date.UTC(2001, 0, 2, 3, 4, 5) + 0.25)).toBe('2001-01-02T03:04:05.00025Z');
    expect(formatTime(Date.UTC(2001, 0, 2, 3, 4, 6, 500))).toBe('2001-01-02T03:04:06.5Z');
    expect(formatTime(Date.UTC(1969, 11, 31, 23, 59, 59))).toBe('1969-12-31T23:59:59Z');
  });

  it('uses the server offset of that instant, summer and winter', () => {
    process.env.TZ = 'Europe/Berlin';
    expect(formatTime(Date.UTC(2024, 6, 1, 10))).toBe('2024-07-01T12:00:00+02:00');
    expect(formatTime(Date.UTC(2024, 0, 15, 23, 30))).toBe('2024-01-16T00:30:00+01:00');
    process.env.TZ = 'America/St_Johns';
    expect(formatTime(Date.UTC(2023, 0, 1, 2, 0, 1))).toBe('2022-12-31T22:30:01-03:30');
  });
});
