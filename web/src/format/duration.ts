import { formatter } from './formatters.ts';

/** "42 sec", "3 min", "2 hr" in the user's language, rounded to the largest unit that fits. */
export function formatDuration(seconds: number, locale: string): string {
  const [value, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.round(seconds / 60), 'minute']
        : [Math.round(seconds / 360) / 10, 'hour'];
  return formatter(Intl.NumberFormat, locale, { style: 'unit', unit, unitDisplay: 'short' }).format(
    value,
  );
}

/** "1 day", "30 days", "30 Tage" in the user's language: a whole number of days, written out. */
export function formatDays(days: number, locale: string): string {
  return formatter(Intl.NumberFormat, locale, {
    style: 'unit',
    unit: 'day',
    unitDisplay: 'long',
  }).format(days);
}
