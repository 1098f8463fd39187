import { secondsUntilAllowed, type AttemptCounter } from './attempt-counter.ts';

interface Window {
  count: number;
  resetAt: number;
}

/** Past this many keys a new window first drops the ended ones, so a flood cannot grow the map. */
const PRUNE_ABOVE = 10_000;

/** Attempt counts in this process's memory: one instance counts on its own. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  retryAfter(key: string, now = this.now()): Promise<number> {
    return Promise.resolve(secondsUntilAllowed(this.windows.get(key), this.max, now));
  }

  hit(key: string, now = this.now()): Promise<void> {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.windows.size > PRUNE_ABOVE) this.dropEnded(now);
    } else {
      window.count += 1;
    }
    return Promise.resolve();
  }

  prune(now = this.now()): Promise<number> {
    return Promise.resolve(this.dropEnded(now));
  }

  /** How many keys have a window, ended or not (tests look at the pruning). */
  get size(): number {
    return this.windows.size;
  }

  private dropEnded(now: number): number {
    let dropped = 0;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) {
        this.windows.delete(key);
        dropped++;
      }
    }
    return dropped;
  }
}
