import type { Db } from './db.ts';

/** One lease row: who holds `name` until when, and whether someone asked for it. */
export interface Lease {
  name: string;
  holder: string;
  /** Milliseconds since the epoch; past it the lease may be taken over. */
  expiresAt: number;
  /** Another instance asked the holder to give the lease up. */
  takeover: boolean;
}

/** The largest `IN (…)` list sent at once, well under both engines' parameter limits. */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Leases on names, shared by every instance using the database. Every change is a conditional
 * statement whose affected-row count says whether this caller won, so two instances never both
 * believe they hold a name.
 */
export class LeasesRepo {
  constructor(private readonly db: Db) {}

  /**
   * Takes `name` for `holder` until `expiresAt` when it is free or its lease expired by `now`.
   * True when this call took it.
   */
  async tryAcquire(name: string, holder: string, now: number, expiresAt: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('leases')
      .values({ name, holder, expires_at: expiresAt, takeover: 0 })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const taken = await this.db
      .updateTable('leases')
      .set({ holder, expires_at: expiresAt, takeover: 0 })
      .where('name', '=', name)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /** Pushes the expiry of every lease still held by one of `holders`; returns how many. */
  async renew(holders: readonly string[], expiresAt: number): Promise<number> {
    let renewed = 0;
    for (const part of chunks(holders)) {
      const result = await this.db
        .updateTable('leases')
        .set({ expires_at: expiresAt })
        .where('holder', 'in', part)
        .executeTakeFirst();
      renewed += Number(result.numUpdatedRows);
    }
    return renewed;
  }

  /** Gives `name` back if `holder` still holds it; true when this call removed the row. */
  async release(name: string, holder: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('leases')
      .where('name', '=', name)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /**
   * Asks the live holder of `name` to give it up (it polls for this). True when a live lease was
   * flagged; false when there is none or it expired (then it can simply be taken).
   */
  async requestTakeover(name: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('leases')
      .set({ takeover: 1 })
      .where('name', '=', name)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The lease rows still held by `holders` (any that are missing were lost). */
  async heldBy(holders: readonly string[]): Promise<Lease[]> {
    const leases: Lease[] = [];
    for (const part of chunks(holders)) {
      const rows = await this.db
        .selectFrom('leases')
        .selectAll()
        .where('holder', 'in', part)
        .execute();
      for (const row of rows) {
        leases.push({
          name: row.name,
          holder: row.holder,
          expiresAt: Number(row.expires_at),
          takeover: Number(row.takeover) === 1,
        });
      }
    }
    return leases;
  }

  /** True while some holder has a lease on `name` that has not expired at `now`. */
  async isLive(name: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('leases')
      .select('name')
      .where('name', '=', name)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The holder of `name`, live or expired; undefined when nobody holds it. */
  async holderOf(name: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('leases')
      .select('holder')
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.holder;
  }

  /**
   * Takes `name` from `from` for `holder` until `expiresAt`, whether or not its lease expired: for
   * a holder known to be gone. True when this call took it (`from` still held it).
   */
  async takeFrom(name: string, from: string, holder: string, expiresAt: number): Promise<boolean> {
    const taken = await this.db
      .updateTable('leases')
      .set({ holder, expires_at: expiresAt, takeover: 0 })
      .where('name', '=', name)
      .where('holder', '=', from)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }

  /** Removes leases expired by `now` (their holders died); returns how many went. */
  async prune(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('leases')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
