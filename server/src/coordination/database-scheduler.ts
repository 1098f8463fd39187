import { randomUUID } from 'node:crypto';
import type { JobRecord, JobsRepo } from '../store/jobs.repo.ts';
import { silentLog, type CoordinationLog } from './log.ts';
import type { EveryOptions, Job, JobHandler, ScheduleOptions, Scheduler } from './scheduler.ts';
import { realTimers, repeat, type Timers } from './timers.ts';

export interface DatabaseSchedulerOptions {
  jobs: JobsRepo;
  /** This instance, written into the claims it makes. */
  instanceId: string;
  now?: () => number;
  /** The longest sleep of the poll loop: how soon jobs scheduled by other instances are seen. */
  pollMs?: number;
  /** How long a claim outlives its last extension: how soon a crashed instance's runs are retaken. */
  claimMs?: number;
  /** Runs a failing job gets before it is marked failed. */
  maxAttempts?: number;
  /** The pause after the first failure, doubled after each further one, up to `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Jobs claimed by one poll at most. */
  batch?: number;
  timers?: Timers;
  log?: CoordinationLog;
}

export const SCHEDULER_DEFAULTS = {
  pollMs: 30_000,
  claimMs: 5 * 60_000,
  maxAttempts: 5,
  retryBaseMs: 10_000,
  retryMaxMs: 60 * 60_000,
  batch: 100,
};

/** The shortest sleep of the poll loop, so a burst of due jobs cannot spin it. */
const MIN_SLEEP_MS = 10;
/** Longer errors are cut: the record is for administrators, not a log. */
const MAX_ERROR_LENGTH = 2000;

interface Claimed {
  record: JobRecord;
  /** The value of `claimed_by`: this instance and this run. */
  claimant: string;
}

/**
 * The job as handlers and administrators see it. A payload that is not JSON throws for a run (a
 * failure, recorded) and shows as its raw text in a list.
 */
function toJob(record: JobRecord, forList = false): Job {
  let payload: unknown;
  try {
    payload = JSON.parse(record.payload);
  } catch (error) {
    if (!forList) throw error;
    payload = record.payload;
  }
  return {
    id: record.id,
    kind: record.kind,
    key: record.key,
    runAt: record.runAt,
    intervalMs: record.intervalMs,
    payload,
    attempts: record.attempts,
    lastError: record.lastError,
    failedAt: record.failedAt,
    createdAt: record.createdAt,
    claimedBy: record.claimedBy,
    claimedUntil: record.claimedUntil,
  };
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** The key of the one recurring job of `kind`. */
export const recurringKey = (kind: string): string => `every:${kind}`;

/**
 * The scheduler over the `scheduled_jobs` table, for one instance or many (docs/runtime.md). A
 * run is claimed by a conditional update that only one instance wins; the claim is extended every
 * third of `claimMs` while the handler runs, so the job of a crashed instance is retaken once its
 * claim lapses. Afterwards a one-off is deleted and a recurring job moves one interval on; a
 * failure is recorded and retried after a growing pause, until `maxAttempts`.
 */
export class DatabaseScheduler implements Scheduler {
  private readonly handlers = new Map<string, JobHandler>();
  /** Runs in progress on this instance, by claimant. */
  private readonly running = new Map<
    string,
    { controller: AbortController; done: Promise<void> }
  >();
  private readonly jobs: JobsRepo;
  private readonly instanceId: string;
  private readonly now: () => number;
  private readonly options: typeof SCHEDULER_DEFAULTS;
  private readonly timers: Timers;
  private readonly log: CoordinationLog;
  private started = false;
  private stopped = false;
  /** Cancels the next wake; undefined while none is scheduled. */
  private cancelWake: (() => void) | undefined;
  /** When (by `now`) the next wake is scheduled. */
  private wakeAt = Infinity;
  /** The poll in progress; a wake asked for meanwhile follows it. */
  private polling: Promise<void> | undefined;
  private pollAgain = false;

  constructor(options: DatabaseSchedulerOptions) {
    this.jobs = options.jobs;
    this.instanceId = options.instanceId;
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? realTimers;
    this.log = options.log ?? silentLog;
    this.options = {
      pollMs: options.pollMs ?? SCHEDULER_DEFAULTS.pollMs,
      claimMs: options.claimMs ?? SCHEDULER_DEFAULTS.claimMs,
      maxAttempts: options.maxAttempts ?? SCHEDULER_DEFAULTS.maxAttempts,
      retryBaseMs: options.retryBaseMs ?? SCHEDULER_DEFAULTS.retryBaseMs,
      retryMaxMs: options.retryMaxMs ?? SCHEDULER_DEFAULTS.retryMaxMs,
      batch: options.batch ?? SCHEDULER_DEFAULTS.batch,
    };
  }

  handle(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`a handler for ${kind} is already registered`);
    this.handlers.set(kind, handler);
    this.wakeBy(this.now());
  }

  async every(kind: string, intervalMs: number, options: EveryOptions = {}): Promise<void> {
    if (!(intervalMs > 0)) throw new Error(`the interval of ${kind} must be positive`);
    const now = this.now();
    const runAt = options.runAtStart ? now : now + intervalMs;
    await this.jobs.putRecurring({
      id: randomUUID(),
      kind,
      key: recurringKey(kind),
      runAt,
      payload: JSON.stringify(options.payload ?? null),
      createdAt: now,
      intervalMs,
      now,
      runNow: options.runAtStart ?? false,
    });
    this.wakeBy(runAt);
  }

  async schedule(
    kind: string,
    runAt: number,
    payload: unknown = null,
    options: ScheduleOptions = {},
  ): Promise<string> {
    const id = randomUUID();
    await this.jobs.put({
      id,
      kind,
      key: options.key ?? null,
      runAt,
      payload: JSON.stringify(payload),
      createdAt: this.now(),
    });
    this.wakeBy(runAt);
    return id;
  }

  cancel(key: string): Promise<boolean> {
    return this.jobs.deleteByKey(key);
  }

  async list(kind?: string): Promise<Job[]> {
    return (await this.jobs.list(kind)).map((record) => toJob(record, true));
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.wakeBy(this.now());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelWake?.();
    this.cancelWake = undefined;
    await this.polling;
    const runs = [...this.running.values()];
    for (const run of runs) run.controller.abort(new Error('the scheduler is stopping'));
    await Promise.all(runs.map((run) => run.done));
  }

  async runDue(): Promise<number> {
    const claimed = await this.claimDue();
    await Promise.all(claimed.map((job) => this.run(job)));
    return claimed.length;
  }

  /** Claims what is due now, for the kinds this instance handles. */
  private async claimDue(): Promise<Claimed[]> {
    if (this.stopped) return [];
    const now = this.now();
    const ids = await this.jobs.due(now, [...this.handlers.keys()], this.options.batch);
    const claimed: Claimed[] = [];
    for (const id of ids) {
      const claimant = `${this.instanceId}:${randomUUID()}`;
      if (!(await this.jobs.claim(id, claimant, now, now + this.options.claimMs))) continue;
      if (this.stopped) {
        // Stopped while claiming: `stop()` no longer waits for new runs, so none starts.
        await this.jobs.releaseClaim(id, claimant);
        continue;
      }
      const record = await this.jobs.byId(id);
      if (record?.claimedBy === claimant) claimed.push({ record, claimant });
    }
    return claimed;
  }

  /** Runs one claimed job and records the outcome; never rejects. */
  private run(claimed: Claimed): Promise<void> {
    const controller = new AbortController();
    const done = this.execute(claimed, controller).finally(() => {
      this.running.delete(claimed.claimant);
      // A recurring job moved on, a failure set a retry: the next wake may be sooner.
      this.wakeBy(this.now());
    });
    this.running.set(claimed.claimant, { controller, done });
    return done;
  }

  private async execute({ record, claimant }: Claimed, controller: AbortController): Promise<void> {
    const stopExtending = repeat(this.timers, Math.floor(this.options.claimMs / 3), async () => {
      try {
        const until = this.now() + this.options.claimMs;
        if (!(await this.jobs.extendClaim(record.id, claimant, until))) {
          controller.abort(new Error('the job was cancelled, replaced or taken over'));
        }
      } catch (error) {
        // The claim lasts until it lapses; the next extension tries again.
        this.log.warn(
          { err: error, job: record.id, kind: record.kind },
          'could not extend a claim',
        );
      }
    });
    let failure: { error: unknown } | undefined;
    try {
      const handler = this.handlers.get(record.kind);
      if (!handler) throw new Error(`no handler for ${record.kind}`);
      await handler(toJob(record), controller.signal);
    } catch (error) {
      failure = { error };
    } finally {
      stopExtending();
    }
    try {
      await this.settle(record, claimant, failure, controller.signal);
    } catch (error) {
      // The claim lapses and the job runs again: at least once, rather than lost.
      this.log.error(
        { err: error, job: record.id, kind: record.kind },
        'could not record a job run',
      );
    }
  }

  /** Records how a run ended, on behalf of its claim only. */
  private async settle(
    record: JobRecord,
    claimant: string,
    failure: { error: unknown } | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const now = this.now();
    if (!failure) {
      if (record.intervalMs === null) await this.jobs.deleteClaimed(record.id, claimant);
      else await this.jobs.completeRecurring(record.id, claimant, now);
      return;
    }
    if (this.stopped && signal.aborted) {
      // Cut short by the shutdown, not failed: free to run again at once, here or elsewhere.
      await this.jobs.releaseClaim(record.id, claimant);
      return;
    }
    const attempts = record.attempts + 1;
    const exhausted = attempts >= this.options.maxAttempts;
    const pause = Math.min(this.options.retryMaxMs, this.options.retryBaseMs * 2 ** (attempts - 1));
    let runAt: number;
    if (record.intervalMs === null) runAt = exhausted ? record.runAt : now + pause;
    // A recurring job keeps running: after its retries, at its interval again.
    else runAt = now + (exhausted ? record.intervalMs : Math.min(pause, record.intervalMs));
    this.log.warn(
      { err: failure.error, job: record.id, kind: record.kind, attempts },
      exhausted ? 'a scheduled job failed for good' : 'a scheduled job failed; it will be retried',
    );
    await this.jobs.recordFailure(record.id, claimant, {
      attempts,
      lastError: errorText(failure.error),
      runAt,
      failedAt: exhausted ? now : null,
    });
  }

  /** Makes sure the poll loop wakes by `at` (when started). */
  private wakeBy(at: number): void {
    if (!this.started || this.stopped) return;
    if (this.polling) {
      if (at <= this.now()) this.pollAgain = true;
      else if (!this.cancelWake || at < this.wakeAt) this.armWake(at);
      return;
    }
    if (this.cancelWake && this.wakeAt <= at) return;
    this.armWake(at);
  }

  private armWake(at: number): void {
    this.cancelWake?.();
    // Never longer than the poll interval: jobs other instances schedule are found, and a clock
    // that jumps cannot leave the loop asleep.
    const now = this.now();
    const delay = Math.min(this.options.pollMs, Math.max(0, at - now));
    this.wakeAt = now + delay;
    this.cancelWake = this.timers.after(delay, () => {
      this.cancelWake = undefined;
      this.wakeAt = Infinity;
      // Polls never overlap: one due while another runs follows it.
      if (this.polling) {
        this.pollAgain = true;
        return;
      }
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        if (this.pollAgain) {
          this.pollAgain = false;
          this.wakeBy(this.now());
        }
      });
    });
  }

  /** One turn of the loop: claim and start what is due, then sleep until the next due job. */
  private async poll(): Promise<void> {
    let sleepMs = this.options.pollMs;
    try {
      for (const claimed of await this.claimDue()) void this.run(claimed);
      const now = this.now();
      const next = await this.jobs.nextRunAt(now, [...this.handlers.keys()]);
      if (next !== undefined) {
        sleepMs = Math.min(sleepMs, Math.max(MIN_SLEEP_MS, next - now));
      }
    } catch (error) {
      this.log.error({ err: error }, 'the scheduler could not poll its jobs');
    }
    this.wakeBy(this.now() + sleepMs);
  }
}
