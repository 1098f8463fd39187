/**
 * Runs at most `limit` tasks at once; the rest wait in arrival order. Image conversions decode
 * whole images into memory and keep a core busy, so their number is bounded (imageProcessors).
 */
export class Limiter {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new Error('limit must be at least 1');
  }

  /** Tasks running right now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  /** Runs `task` when a slot is free; a task that throws frees its slot too. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task, so the count never dips in between.
      if (next) next();
      else this.running--;
    }
  }
}
