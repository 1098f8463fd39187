import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import type { Db } from './db.ts';
import type { Database, ScheduledJobsTable } from './schema.ts';

/** A scheduled job as stored; the payload stays JSON text (the scheduler parses it). */
export interface JobRecord {
  id: string;
  kind: string;
  /** Scheduling with the same key replaces the pending job; null for unkeyed jobs. */
  key: string | null;
  /** Milliseconds since the epoch; due from then on. */
  runAt: number;
  /** Milliseconds between runs of a recurring job; null for a one-off. */
  intervalMs: number | null;
  payload: string;
  /** The claim of the run in progress (instance id and a random part), if any. */
  claimedBy: string | null;
  claimedUntil: number | null;
  /** Failed runs since the last success. */
  attempts: number;
  lastError: string | null;
  /** When the job used up its attempts; a failed one-off is kept for administrators. */
  failedAt: number | null;
  createdAt: number;
}

/** What a new job is made of. */
export interface NewJob {
  id: string;
  kind: string;
  key: string | null;
  runAt: number;
  payload: string;
  createdAt: number;
}

/** How a failed run is recorded: the next try (or none) and the error. */
export interface JobFailure {
  attempts: number;
  lastError: string;
  runAt: number;
  /** Set when the job used up its attempts. */
  failedAt: number | null;
}

function toRecord(row: Selectable<ScheduledJobsTable>): JobRecord {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    runAt: Number(row.run_at),
    intervalMs: row.interval_ms === null ? null : Number(row.interval_ms),
    payload: row.payload,
    claimedBy: row.claimed_by,
    claimedUntil: row.claimed_until === null ? null : Number(row.claimed_until),
    attempts: Number(row.attempts),
    lastError: row.last_error,
    failedAt: row.failed_at === null ? null : Number(row.failed_at),
    createdAt: Number(row.created_at),
  };
}

type JobsExpression = ExpressionBuilder<Database, 'scheduled_jobs'>;

/**
 * A job another run may take at `now`: not claimed (or its claim lapsed: the claimant died), and
 * not a one-off that used up its attempts. Recurring jobs stay claimable after failures.
 */
function claimable(eb: JobsExpression, now: number): Expression<SqlBool> {
  return eb.and([
    eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]),
    eb.or([eb('failed_at', 'is', null), eb('interval_ms', 'is not', null)]),
  ]);
}

/**
 * The scheduler's jobs, shared by every instance using the database. A run is claimed by a
 * conditional update that only one instance can win; every later change of the job is made on
 * behalf of that claim (`claimed_by`), so a run whose claim lapsed or whose job was replaced or
 * cancelled meanwhile changes nothing.
 */
export class JobsRepo {
  constructor(private readonly db: Db) {}

  /** Adds a job; with a key, replaces the pending job of that key (any run in progress keeps going). */
  async put(job: NewJob): Promise<void> {
    const values = {
      id: job.id,
      kind: job.kind,
      key: job.key,
      run_at: job.runAt,
      interval_ms: null,
      payload: job.payload,
      claimed_by: null,
      claimed_until: null,
      attempts: 0,
      last_error: null,
      failed_at: null,
      created_at: job.createdAt,
    };
    if (job.key === null) {
      await this.db.insertInto('scheduled_jobs').values(values).execute();
      return;
    }
    // The replacement gets the new id and no claim, so a run of the old job still in progress
    // can neither delete nor reschedule it when it ends.
    await this.db
      .insertInto('scheduled_jobs')
      .values(values)
      .onConflict((oc) => oc.column('key').doUpdateSet(values))
      .execute();
  }

  /**
   * Makes sure the recurring job of `key` exists with `intervalMs`. A new one first runs at
   * `firstRunAt`; an existing one keeps its schedule, brought forward to `now + intervalMs` if
   * that is sooner (the interval shrank), or to `firstRunAt` when `runNow` is set.
   */
  async putRecurring(
    job: NewJob & { intervalMs: number; now: number; runNow: boolean },
  ): Promise<void> {
    const latest = job.now + job.intervalMs;
    await this.db
      .insertInto('scheduled_jobs')
      .values({
        id: job.id,
        kind: job.kind,
        key: job.key,
        run_at: job.runAt,
        interval_ms: job.intervalMs,
        payload: job.payload,
        claimed_by: null,
        claimed_until: null,
        attempts: 0,
        last_error: null,
        failed_at: null,
        created_at: job.createdAt,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          kind: job.kind,
          interval_ms: job.intervalMs,
          payload: job.payload,
          run_at: job.runNow
            ? job.runAt
            : eb
                .case()
                .when('scheduled_jobs.run_at', '>', latest)
                .then(latest)
                .else(eb.ref('scheduled_jobs.run_at'))
                .end(),
        })),
      )
      .execute();
  }

  /** Removes the job of `key`; true when there was one. */
  async deleteByKey(key: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('scheduled_jobs')
      .where('key', '=', key)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async byId(id: string): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async byKey(key: string): Promise<JobRecord | undefined> {
    const row = await this.db
      .selectFrom('scheduled_jobs')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Every job (of `kind`, when given), soonest first: for administrators. */
  async list(kind?: string): Promise<JobRecord[]> {
    let query = this.db.selectFrom('scheduled_jobs').selectAll();
    if (kind !== undefined) query = query.where('kind', '=', kind);
    const rows = await query.orderBy('run_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  /** Ids of jobs of `kinds` that are due and claimable at `now`, soonest first. */
  async due(now: number, kinds: readonly string[], limit: number): Promise<string[]> {
    if (kinds.length === 0) return [];
    const rows = await this.db
      .selectFrom('scheduled_jobs')
      .select('id')
      .where('kind', 'in', kinds)
      .where('run_at', '<=', now)
      .where((eb) => claimable(eb, now))
      .orderBy('run_at')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** The earliest `run_at` among claimable jobs of `kinds`, or undefined when there is none. */
  async nextRunAt(now: number, kinds: readonly string[]): Promise<number | undefined> {
    if (kinds.length === 0) return undefined;
    const row = await this.db
      .selectFrom('scheduled_jobs')
      .select((eb) => eb.fn.min('run_at').as('next'))
      .where('kind', 'in', kinds)
      .where((eb) => claimable(eb, now))
      .executeTakeFirst();
    return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
  }

  /**
   * Claims job `id` for `claimant` until `until` if it is still due and claimable at `now`. Only
   * one of several instances trying at once can win; true when this call did.
   */
  async claim(id: string, claimant: string, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduled_jobs')
      .set({ claimed_by: claimant, claimed_until: until })
      .where('id', '=', id)
      .where('run_at', '<=', now)
      .where((eb) => claimable(eb, now))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Extends a claim while its handler runs; false when the claim was lost (job gone or retaken). */
  async extendClaim(id: string, claimant: string, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduled_jobs')
      .set({ claimed_until: until })
      .where('id', '=', id)
      .where('claimed_by', '=', claimant)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** A one-off run succeeded: the job is done. */
  async deleteClaimed(id: string, claimant: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('scheduled_jobs')
      .where('id', '=', id)
      .where('claimed_by', '=', claimant)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * A recurring run succeeded: the next one is due `interval_ms` after `now` (the interval as
   * stored now, in case it changed during the run), and the failure record is cleared.
   */
  async completeRecurring(id: string, claimant: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduled_jobs')
      .set((eb) => ({
        // Never null: the update is limited to rows with an interval.
        run_at: eb('interval_ms', '+', now).$notNull(),
        claimed_by: null,
        claimed_until: null,
        attempts: 0,
        last_error: null,
        failed_at: null,
      }))
      .where('id', '=', id)
      .where('claimed_by', '=', claimant)
      .where('interval_ms', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a failed run and when to try again (or that the job failed for good). */
  async recordFailure(id: string, claimant: string, failure: JobFailure): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduled_jobs')
      .set({
        claimed_by: null,
        claimed_until: null,
        attempts: failure.attempts,
        last_error: failure.lastError,
        run_at: failure.runAt,
        failed_at: failure.failedAt,
      })
      .where('id', '=', id)
      .where('claimed_by', '=', claimant)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a claim back without a verdict (the instance is stopping): the job runs again. */
  async releaseClaim(id: string, claimant: string): Promise<boolean> {
    const result = await this.db
      .updateTable('scheduled_jobs')
      .set({ claimed_by: null, claimed_until: null })
      .where('id', '=', id)
      .where('claimed_by', '=', claimant)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
