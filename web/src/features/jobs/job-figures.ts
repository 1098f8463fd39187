import type { FileJob } from '@cabinet/protocol';

/** How far a job is, 0–100, by bytes (by files when it has no bytes). */
export function jobPercent(job: FileJob): number {
  if (job.state === 'done') return 100;
  if (job.bytesTotal > 0) return Math.min(100, Math.floor((job.bytesDone / job.bytesTotal) * 100));
  if (job.filesTotal > 0) return Math.min(100, Math.floor((job.filesDone / job.filesTotal) * 100));
  return 0;
}

/** Seconds until the job ends at its current rate, or null when there is no rate yet. */
export function jobSecondsLeft(job: FileJob): number | null {
  if (job.state !== 'running' || job.rate <= 0 || job.bytesTotal <= 0) return null;
  return Math.max(0, Math.ceil((job.bytesTotal - job.bytesDone) / job.rate));
}

/** "42 sec", "3 min", "2 hr" in the user's language, rounded to the largest unit that fits. */
export function formatSeconds(seconds: number, locale: string): string {
  const [value, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.round(seconds / 60), 'minute']
        : [Math.round(seconds / 360) / 10, 'hour'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}

/** The last segment of a path: what a job row is named after. */
export function baseName(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? '/';
}
