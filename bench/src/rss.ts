/**
 * Peak resident memory of one process per benchmark phase: VmRSS sampled every 100 ms, plus the
 * kernel's own high-water mark (VmHWM), which is reset at the start of each phase by writing 5 to
 * /proc/<pid>/clear_refs so short spikes between two samples are not missed.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const KIB = 1024;

/** VmRSS and VmHWM of a process in bytes; undefined once the process is gone. */
export function readMemory(pid: number): { rss: number; hwm: number } | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) * KIB : 0;
  };
  return { rss: field('VmRSS'), hwm: field('VmHWM') };
}

/**
 * The lowest VmRSS over the next `windowMs` (read every 250 ms): what a process holds once the
 * garbage of a burst of work (an index build) is collected, which V8 does on its own schedule,
 * usually within a second or two. RSS read at the very end of the burst counts that garbage as
 * if it stayed; the report gives both.
 */
export async function settledRss(pid: number, windowMs = 5_000): Promise<number> {
  let lowest = readMemory(pid)?.rss ?? 0;
  for (let waited = 0; waited < windowMs; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const rss = readMemory(pid)?.rss;
    if (rss !== undefined) lowest = Math.min(lowest, rss);
  }
  return lowest;
}

export interface PhaseMemory {
  /** Highest VmRSS seen by sampling. */
  sampledPeak: number;
  /** VmHWM at the end of the phase when it could be reset at the start, else undefined. */
  kernelPeak: number | undefined;
  /** The larger of the two: the figure the report uses. */
  peak: number;
  samples: number;
}

/** Samples one process's memory for the duration of each phase. */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private peak = 0;
  private samples = 0;
  private hwmReset = false;

  constructor(readonly pid: number) {}

  /** Starts a phase: resets the kernel peak if allowed and begins 100 ms sampling. */
  start(): void {
    this.stopTimer();
    this.peak = 0;
    this.samples = 0;
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, '5');
      this.hwmReset = true;
    } catch {
      this.hwmReset = false;
    }
    this.sample();
    this.timer = setInterval(() => this.sample(), 100);
  }

  /** Ends the phase and returns its peak. */
  stop(): PhaseMemory {
    this.sample();
    this.stopTimer();
    const memory = readMemory(this.pid);
    const kernelPeak = this.hwmReset && memory ? memory.hwm : undefined;
    return {
      sampledPeak: this.peak,
      kernelPeak,
      peak: Math.max(this.peak, kernelPeak ?? 0),
      samples: this.samples,
    };
  }

  private sample(): void {
    const memory = readMemory(this.pid);
    if (!memory) return;
    this.samples++;
    this.peak = Math.max(this.peak, memory.rss);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
