import type { Db } from './db.ts';

/**
 * Runs `work` in a transaction: a new one, or the caller's when `db` already is one (the importer
 * writes a whole import in one transaction through the same repositories), since a transaction
 * cannot open another.
 */
export function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
