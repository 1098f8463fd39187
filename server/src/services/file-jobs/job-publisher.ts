import { FILE_JOB_EVENT, type FileJob } from '@cabinet/protocol';
import {
  realTimers,
  systemClock,
  type Clock,
  type EventBus,
  type Timers,
} from '../../coordination/index.ts';

/** At most this many progress events per job and second reach the event stream. */
export const EVENTS_PER_SECOND = 10;
const SPACING_MS = 1000 / EVENTS_PER_SECOND;

/**
 * Sends one job's updates to its owner's event streams, at most one per SPACING_MS: an update that
 * comes sooner waits (replaced by any newer one) until the spacing has passed, so the newest state
 * always arrives and the events stay in order. One publisher per job and run.
 */
export class JobPublisher {
  private lastSentAt = -Infinity;
  private pending: FileJob | undefined;
  /** Cancels the timed send of the update that waits. */
  private timer: (() => void) | undefined;
  /** The send in progress: sends are chained so they reach the bus in order. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly events: EventBus,
    private readonly userId: number,
    private readonly now: Clock = systemClock,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Sends `job` now, or as soon as the spacing allows (replacing an update still waiting). */
  send(job: FileJob): void {
    this.pending = job;
    if (this.timer) return;
    const wait = this.lastSentAt + SPACING_MS - this.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = this.timers.after(wait, () => {
      this.timer = undefined;
      this.flush();
    });
  }

  /** Sends `job` as the last update, once the spacing allows, and resolves when it is out. */
  async last(job: FileJob): Promise<void> {
    this.timer?.();
    this.timer = undefined;
    this.pending = job;
    const wait = this.lastSentAt + SPACING_MS - this.now();
    if (wait > 0) await this.timers.sleep(wait);
    this.flush();
    await this.chain;
  }

  private flush(): void {
    const job = this.pending;
    this.pending = undefined;
    if (!job) return;
    this.lastSentAt = this.now();
    this.chain = this.chain
      .then(() => this.events.publish(this.userId, FILE_JOB_EVENT, job))
      .then(
        () => undefined,
        () => undefined, // A lost update is superseded by the next one; GET /api/jobs has the truth.
      );
  }
}
