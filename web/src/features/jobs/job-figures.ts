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

/** The last segment of a path: what a job row is named after. */
export function baseName(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? '/';
}
