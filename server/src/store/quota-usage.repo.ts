import type { Db } from './db.ts';

/**
 * Rows of `quota_usage`: the bytes under one scope folder (its root-relative real path). Writes
 * adjust every row whose folder holds the written path in one statement, so concurrent writers on
 * any instance never lose an adjustment; the reconcile walk replaces a row's count.
 */
export class QuotaUsageRepo {
  constructor(private readonly db: Db) {}

  /** Bytes counted for a scope, or undefined when it is not tracked yet. */
  async used(scope: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('quota_usage')
      .select('used')
      .where('scope', '=', scope)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.used);
  }

  /** Which of the given scopes are tracked (one query for a path's ancestors). */
  async tracked(scopes: readonly string[]): Promise<string[]> {
    if (scopes.length === 0) return [];
    const rows = await this.db
      .selectFrom('quota_usage')
      .select('scope')
      .where('scope', 'in', scopes)
      .execute();
    return rows.map((r) => r.scope);
  }

  /** Every tracked scope. */
  async scopes(): Promise<string[]> {
    const rows = await this.db.selectFrom('quota_usage').select('scope').execute();
    return rows.map((r) => r.scope);
  }

  /** Replaces (or starts) a scope's count with a full count made at `now`. */
  async set(scope: string, used: number, now: number): Promise<void> {
    await this.db
      .insertInto('quota_usage')
      .values({ scope, used, counted_at: now })
      .onConflict((oc) => oc.column('scope').doUpdateSet({ used, counted_at: now }))
      .execute();
  }

  /** Starts a scope's count unless another writer already did; returns the count that stands. */
  async setIfAbsent(scope: string, used: number, now: number): Promise<number> {
    await this.db
      .insertInto('quota_usage')
      .values({ scope, used, counted_at: now })
      .onConflict((oc) => oc.column('scope').doNothing())
      .execute();
    return (await this.used(scope)) ?? used;
  }

  /** Adds `delta` bytes (negative for frees) to every tracked scope among `scopes`; never below 0. */
  async adjust(scopes: readonly string[], delta: number): Promise<void> {
    if (scopes.length === 0 || delta === 0) return;
    await this.db
      .updateTable('quota_usage')
      .set((eb) => ({
        used: eb
          .case()
          .when(eb('used', '+', delta), '<', 0)
          .then(0)
          .else(eb('used', '+', delta))
          .end(),
      }))
      .where('scope', 'in', scopes)
      .execute();
  }

  /** Forgets scopes no user with a quota has any more. */
  async forget(scopes: readonly string[]): Promise<void> {
    if (scopes.length === 0) return;
    await this.db.deleteFrom('quota_usage').where('scope', 'in', scopes).execute();
  }
}
