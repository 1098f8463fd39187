import { formatter } from './formatters.ts';

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "in 2 days" in the interface language. */
export function formatRelativeTime(date: Date, locale: string, now = Date.now()): string {
  let value = (date.getTime() - now) / 1000;
  const format = formatter(Intl.RelativeTimeFormat, locale, { numeric: 'auto' });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), 'year');
}

/** A full date and time in the interface language, e.g. for tooltips. */
export function formatDateTime(date: Date, locale: string): string {
  return formatter(Intl.DateTimeFormat, locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}
