import type { FastifyBaseLogger } from 'fastify';

/** Shortest and longest pause between two sweeps. */
const MIN_INTERVAL_MS = 1000;
const MAX_INTERVAL_MS = 10 * 60 * 1000;

/**
 * How often abandoned uploads are looked for: a quarter of their lifetime, so an upload is gone at
 * most 25 % after it expired, but never more often than every second nor less than every 10 min.
 */
export function sweepInterval(expiryMs: number): number {
  return Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, Math.floor(expiryMs / 4)));
}

/**
 * Runs `sweep` once at start and then periodically. Runs never overlap, failures are logged and
 * retried at the next tick, and the timer never keeps the process alive on its own.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly sweep: () => Promise<number>,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Sweeps now (awaited, so a restarted server starts clean) and schedules the next runs. */
  async start(): Promise<void> {
    await this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a sweep in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep, unless one is already under way (then that one is awaited). */
  runOnce(): Promise<void> {
    this.running ??= this.sweep()
      .then((removed) => {
        if (removed > 0) this.log.info({ removed }, 'removed abandoned uploads');
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'upload expiry sweep failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}
