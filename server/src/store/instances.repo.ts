import type { Db } from './db.ts';

/** One running (or crashed) instance as the database knows it. */
export interface InstanceRow {
  id: string;
  host: string;
  pid: number;
  /** Where `pid` can be checked (boot id and PID namespace), or null. */
  pidSpace: string | null;
  startedAt: number;
  expiresAt: number;
}

/**
 * Instances sharing the database and their leases. An instance is alive while its row's
 * `expires_at` lies ahead; every check is one indexed read by id.
 */
export class InstancesRepo {
  constructor(private readonly db: Db) {}

  /** Records this instance (or takes its row back) with a lease until `expiresAt`. */
  async register(row: InstanceRow): Promise<void> {
    const values = {
      id: row.id,
      host: row.host,
      pid: row.pid,
      pid_space: row.pidSpace,
      started_at: row.startedAt,
      expires_at: row.expiresAt,
    };
    await this.db
      .insertInto('instances')
      .values(values)
      .onConflict((oc) => oc.column('id').doUpdateSet({ expires_at: row.expiresAt }))
      .execute();
  }

  /** Pushes the lease of `id` to `expiresAt`; false when its row is gone (pruned as expired). */
  async renew(id: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('instances')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** The row of `id`, or undefined when no such instance ever ran or its row was removed. */
  async get(id: string): Promise<InstanceRow | undefined> {
    const row = await this.db
      .selectFrom('instances')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      host: row.host,
      pid: Number(row.pid),
      pidSpace: row.pid_space,
      startedAt: Number(row.started_at),
      expiresAt: Number(row.expires_at),
    };
  }

  /** Removes the row of an instance that stopped cleanly. */
  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('instances').where('id', '=', id).execute();
  }

  /** Forgets instances whose lease expired by `now` (a missing row reads as gone too). */
  async prune(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('instances')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
