import type { Db } from './db.ts';

/** One key's fixed window: how many attempts it made and when the count restarts. */
export interface AttemptWindow {
  count: number;
  /** Milliseconds since the epoch. */
  resetAt: number;
}

/**
 * Fixed-window attempt counts shared by every instance using the database. A hit is one atomic
 * upsert, so hits counted at the same time by several instances are never lost.
 */
export class AttemptsRepo {
  constructor(private readonly db: Db) {}

  /** The window of `key` in `scope`, expired or not; undefined when it never counted. */
  async get(scope: string, key: string): Promise<AttemptWindow | undefined> {
    const row = await this.db
      .selectFrom('attempts')
      .select(['count', 'reset_at'])
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    return row && { count: Number(row.count), resetAt: Number(row.reset_at) };
  }

  /**
   * Counts one attempt at `now`: a key without a live window starts one of `windowMs` with a count
   * of 1, otherwise its count grows by one. The decision is taken by the database inside the
   * upsert, not read first, which is what makes concurrent hits add up.
   */
  async hit(scope: string, key: string, now: number, windowMs: number): Promise<void> {
    const resetAt = now + windowMs;
    await this.db
      .insertInto('attempts')
      .values({ scope, key, count: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.columns(['scope', 'key']).doUpdateSet((eb) => {
          const expired = eb('attempts.reset_at', '<=', now);
          return {
            count: eb
              .case()
              .when(expired)
              .then(1)
              .else(eb('attempts.count', '+', 1))
              .end(),
            reset_at: eb.case().when(expired).then(resetAt).else(eb.ref('attempts.reset_at')).end(),
          };
        }),
      )
      .execute();
  }

  /** Removes every window that ended by `now`, in all scopes; returns how many went. */
  async prune(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('attempts')
      .where('reset_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
