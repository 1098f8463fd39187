import type { Selectable } from 'kysely';
import type { Db } from './db.ts';
import { isStorableText } from './engine.ts';
import type { DavLocksTable } from './schema.ts';

/** One WebDAV lock as stored (see coordination/dav-locks.ts). */
export interface DavLockRow {
  token: string;
  path: string;
  deep: boolean;
  shared: boolean;
  owner: string;
  userId: number;
  timeoutSeconds: number;
  expiresAt: number;
}

function toRow(row: Selectable<DavLocksTable>): DavLockRow {
  return {
    token: row.token,
    path: row.path,
    deep: Number(row.deep) === 1,
    shared: Number(row.shared) === 1,
    owner: row.owner,
    userId: Number(row.user_id),
    timeoutSeconds: Number(row.timeout_seconds),
    expiresAt: Number(row.expires_at),
  };
}

/** WebDAV locks shared by every instance over the database. */
export class DavLocksRepo {
  constructor(private readonly db: Db) {}

  /** Every live lock (expired rows are deleted first); lock counts stay small. */
  async live(now: number): Promise<DavLockRow[]> {
    await this.db.deleteFrom('dav_locks').where('expires_at', '<=', now).execute();
    const rows = await this.db.selectFrom('dav_locks').selectAll().execute();
    return rows.map(toRow);
  }

  async insert(lock: DavLockRow): Promise<void> {
    await this.db
      .insertInto('dav_locks')
      .values({
        token: lock.token,
        path: lock.path,
        deep: lock.deep ? 1 : 0,
        shared: lock.shared ? 1 : 0,
        owner: lock.owner,
        user_id: lock.userId,
        timeout_seconds: lock.timeoutSeconds,
        expires_at: lock.expiresAt,
      })
      .execute();
  }

  async refresh(token: string, timeoutSeconds: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('dav_locks')
      .set({ timeout_seconds: timeoutSeconds, expires_at: expiresAt })
      .where('token', '=', token)
      .execute();
  }

  async remove(tokens: readonly string[]): Promise<void> {
    const valid = tokens.filter((t) => isStorableText(t));
    if (valid.length === 0) return;
    await this.db.deleteFrom('dav_locks').where('token', 'in', valid).execute();
  }
}
