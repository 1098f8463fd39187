/** A scheduled job as its handler and administrators see it. */
export interface Job {
  id: string;
  kind: string;
  /** Scheduling with the same key replaces the pending job; recurring jobs use `every:<kind>`. */
  key: string | null;
  /** Milliseconds since the epoch; due from then on. */
  runAt: number;
  /** Milliseconds between runs of a recurring job; null for a one-off. */
  intervalMs: number | null;
  /** What `schedule` was given (JSON round-tripped). */
  payload: unknown;
  /** Failed runs since the last success. */
  attempts: number;
  lastError: string | null;
  /** When the job used up its attempts: a one-off then stays, not run again, for administrators. */
  failedAt: number | null;
  createdAt: number;
  /** The instance (and run) holding the job now, if a run is in progress. */
  claimedBy: string | null;
  claimedUntil: number | null;
}

/**
 * Runs a job. `signal` aborts when the run should stop early: the instance is stopping (the job
 * then runs again later, here or elsewhere) or the claim was lost (the job was cancelled or
 * replaced, or this instance stalled so long that another took the job over). Throwing counts as
 * a failure, retried with a growing pause.
 */
export type JobHandler = (job: Job, signal: AbortSignal) => Promise<void>;

export interface ScheduleOptions {
  /** A job with the same key that has not run yet is replaced by this one. */
  key?: string;
}

export interface EveryOptions {
  /** Run as soon as the scheduler polls (each start of an instance), then every interval. */
  runAtStart?: boolean;
  /** Handed to every run. */
  payload?: unknown;
}

/**
 * Durable timed work: jobs are database rows, so they survive restarts, and each run happens on
 * exactly one of the instances sharing the database (one that has a handler for the kind).
 */
export interface Scheduler {
  /** Registers the handler of `kind` on this instance; jobs of kinds without one are left alone. */
  handle(kind: string, handler: JobHandler): void;
  /**
   * Makes sure `kind` runs every `intervalMs`: one recurring job across instances, whose interval
   * is updated if it changed. The first run is one interval from now unless `runAtStart`.
   */
  every(kind: string, intervalMs: number, options?: EveryOptions): Promise<void>;
  /** Adds a one-off job due at `runAt`; returns its id. */
  schedule(
    kind: string,
    runAt: number,
    payload?: unknown,
    options?: ScheduleOptions,
  ): Promise<string>;
  /**
   * Removes the job of `key`; true if there was one. A run in progress learns it at its next claim
   * extension, through its signal.
   */
  cancel(key: string): Promise<boolean>;
  /** Every job (of `kind`, when given), soonest first. */
  list(kind?: string): Promise<Job[]>;
  /** Starts polling: wakes when the next job is due, and at least every poll interval. */
  start(): void;
  /** Stops polling, aborts and awaits the runs in progress; runs that stop early run again later. */
  stop(): Promise<void>;
  /** Claims every job due now and runs them; resolves with how many ran once they have ended. */
  runDue(): Promise<number>;
}
