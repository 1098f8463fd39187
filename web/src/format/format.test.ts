import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './date-time.ts';
import { formatDays, formatDuration } from './duration.ts';
import { formatFileSize } from './file-size.ts';

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [812, '812 B'],
    [1024, '1.0 KiB'],
    [4300, '4.2 KiB'],
    [150 * 1024 * 1024, '150 MiB'],
    [1.5 * 1024 ** 3, '1.5 GiB'],
  ])('%i bytes → %s', (bytes, text) => {
    expect(formatFileSize(bytes, 'en')).toBe(text);
  });
});

describe('formatRelativeTime', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  it.each([
    ['2026-05-01T11:59:30Z', '30 seconds ago'],
    ['2026-05-01T11:00:00Z', '1 hour ago'],
    ['2026-04-30T12:00:00Z', 'yesterday'],
    ['2025-05-01T12:00:00Z', 'last year'],
  ])('%s → %s', (date, text) => {
    expect(formatRelativeTime(new Date(date), 'en', now)).toBe(text);
  });
});

describe('formatDuration', () => {
  it('uses the largest unit that fits', () => {
    expect(formatDuration(42, 'en')).toBe('42 sec');
    expect(formatDuration(150, 'en')).toBe('3 min');
    expect(formatDuration(5400, 'en')).toBe('1.5 hr');
  });
});

describe('formatDays', () => {
  it('writes the days out, one or many, in the language', () => {
    expect(formatDays(1, 'en')).toBe('1 day');
    expect(formatDays(30, 'en')).toBe('30 days');
    expect(formatDays(30, 'de')).toBe('30 Tage');
  });
});
