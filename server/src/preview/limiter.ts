/** `high`: a picture someone is looking at; `low`: a prefetch of the next tiles. */
export type Priority = 'high' | 'low';

/**
 * Runs at most `limit` tasks at once; the rest wait, high priority first and each priority in
 * arrival order. Conversions decode whole images into memory and keep a core busy, so their
 * number is bounded (imageProcessors); what is on screen goes before what may be scrolled to.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: Record<Priority, (() => void)[]> = { high: [], low: [] };

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new Error('limit must be at least 1');
  }

  /** Tasks running right now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.high.length + this.waiting.low.length;
  }

  /**
   * Runs `task` when a slot is free; a task that throws frees its slot too. While a low-priority
   * task waits, `ticket.promote()` moves it among the high ones (someone is now looking at it).
   */
  async run<T>(
    task: () => Promise<T>,
    priority: Priority = 'high',
    ticket?: { promote?: () => void },
  ): Promise<T> {
    if (this.running >= this.limit) {
      await new Promise<void>((resolve) => {
        this.waiting[priority].push(resolve);
        if (priority === 'low' && ticket) {
          ticket.promote = () => {
            const at = this.waiting.low.indexOf(resolve);
            if (at < 0) return;
            this.waiting.low.splice(at, 1);
            this.waiting.high.push(resolve);
          };
        }
      });
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.high.shift() ?? this.waiting.low.shift();
      // The slot passes straight to the next task, so the count never dips in between.
      if (next) next();
      else this.running--;
    }
  }
}
