import type { AttemptsRepo } from '../store/attempts.repo.ts';
import { secondsUntilAllowed, type AttemptCounter } from './attempt-counter.ts';

/**
 * Attempt counts in the database, shared by every instance: an attempt made on one counts on all.
 * `scope` names the counter, so several counters share the table without mixing their keys.
 */
export class DatabaseAttemptCounter implements AttemptCounter {
  constructor(
    private readonly repo: AttemptsRepo,
    private readonly scope: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async retryAfter(key: string, now = this.now()): Promise<number> {
    return secondsUntilAllowed(await this.repo.get(this.scope, key), this.max, now);
  }

  hit(key: string, now = this.now()): Promise<void> {
    return this.repo.hit(this.scope, key, now, this.windowMs);
  }

  /** Removes the ended windows of every scope: one call prunes the whole table. */
  prune(now = this.now()): Promise<number> {
    return this.repo.prune(now);
  }
}
