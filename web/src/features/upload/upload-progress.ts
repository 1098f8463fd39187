/** Figures of the upload panel: total percentage, speed and time left. Pure, no I/O. */

/** What the totals need to know of a job. */
export interface ProgressShare {
  size: number;
  loaded: number;
}

/**
 * Total progress: loaded bytes over the total size, as a percentage rounded
 * up, so that 1 byte of 10 GB already reads 1 % and only a finished run reads 100 %.
 */
export function totalPercent(jobs: readonly ProgressShare[]): number {
  let size = 0;
  let loaded = 0;
  for (const job of jobs) {
    size += job.size;
    loaded += Math.min(job.loaded, job.size);
  }
  if (size === 0) return 0;
  return Math.min(100, Math.ceil((loaded * 100) / size));
}

/** One job's percentage, rounded down so that 100 % means every byte arrived. */
export function jobPercent(job: ProgressShare): number {
  if (job.size === 0) return 0;
  return Math.min(100, Math.floor((job.loaded * 100) / job.size));
}

/** How far back the speed looks: long enough to smooth chunk bursts, short enough to follow. */
const SPEED_WINDOW_MS = 4000;

/**
 * Bytes per second over the last few seconds of samples. Restarts (loaded going down after a
 * resumed upload) drop the older samples instead of counting negative progress.
 */
export class SpeedMeter {
  private samples: { at: number; loaded: number }[] = [];

  /** Records the loaded count at a time (ms) and returns the current speed. */
  sample(at: number, loaded: number): number {
    const last = this.samples.at(-1);
    if (last && loaded < last.loaded) this.samples = [];
    this.samples.push({ at, loaded });
    while (this.samples.length > 2 && at - this.samples[0]!.at > SPEED_WINDOW_MS) {
      this.samples.shift();
    }
    const first = this.samples[0]!;
    const elapsed = at - first.at;
    return elapsed > 0 ? ((loaded - first.loaded) * 1000) / elapsed : 0;
  }
}

/** Seconds until a job is done at its current speed; null when that cannot be told yet. */
export function secondsLeft(job: ProgressShare & { speed: number }): number | null {
  if (job.speed <= 0) return null;
  return Math.max(0, Math.ceil((job.size - job.loaded) / job.speed));
}
