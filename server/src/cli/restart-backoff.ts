/**
 * How long the cluster primary waits before replacing a worker that died. A worker that crashes
 * again and again (a bad config read at start, a full disk, a port taken) would otherwise be
 * re-forked at once in a tight loop, filling the log and holding a core; one that ran for a while
 * and then died is replaced at once, as before.
 */
export class RestartBackoff {
  private quickExits = 0;

  constructor(
    private readonly policy: {
      /** A worker that lived at least this long counts as healthy: the next restart is immediate. */
      healthyAfterMs: number;
      /** Delay after the first quick exit; doubled for each further one in a row. */
      firstDelayMs: number;
      /** The longest delay. */
      maxDelayMs: number;
    } = { healthyAfterMs: 30_000, firstDelayMs: 500, maxDelayMs: 30_000 },
  ) {}

  /** The delay before the next fork, given how long the worker that died had lived. */
  delayAfterExit(livedMs: number): number {
    if (livedMs >= this.policy.healthyAfterMs) {
      this.quickExits = 0;
      return 0;
    }
    this.quickExits += 1;
    const delay = this.policy.firstDelayMs * 2 ** (this.quickExits - 1);
    return Math.min(delay, this.policy.maxDelayMs);
  }
}
