import { sql } from 'kysely';
import type { Db } from './db.ts';
import { isStorableInteger, recordableText } from './engine.ts';

/** One audited action to store (docs/audit.md). */
export interface AuditRecord {
  /** Milliseconds since the epoch. */
  at: number;
  userId: number;
  username: string;
  action: string;
  target: string;
  /** The target's human name when the entry was written ('' when it has none). */
  targetName: string;
  address: string;
  outcome: string;
  details: Record<string, unknown>;
}

/** What a listing asks for; every filter optional, `before` is an id cursor. */
export interface AuditSelection {
  username?: string;
  action?: string;
  outcome?: string;
  /** Milliseconds, inclusive. */
  from?: number;
  /** Milliseconds, exclusive. */
  to?: number;
  before?: number;
  limit: number;
}

/** Rows written in one statement at most (PostgreSQL's parameter limit is 65535; 10 per row). */
const INSERT_CHUNK = 500;

/** The only code that reads and writes the audit log. */
export class AuditRepo {
  constructor(private readonly db: Db) {}

  /** Appends entries in as few statements as possible (one per 500). */
  async insertMany(records: readonly AuditRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += INSERT_CHUNK) {
      await this.db
        .insertInto('audit_log')
        .values(
          records.slice(i, i + INSERT_CHUNK).map((r) => ({
            at: r.at,
            user_id: r.userId,
            username: recordableText(r.username),
            action: r.action,
            target: recordableText(r.target),
            target_name: recordableText(r.targetName),
            address: r.address,
            outcome: r.outcome,
            details: recordableText(JSON.stringify(r.details)),
          })),
        )
        .execute();
    }
  }

  /** Entries matching the selection, newest first (by id, which follows the append order). */
  async list(selection: AuditSelection): Promise<(AuditRecord & { id: number })[]> {
    let query = this.db.selectFrom('audit_log').selectAll();
    if (selection.username !== undefined) {
      query = query.where(sql<string>`lower(username)`, '=', selection.username.toLowerCase());
    }
    if (selection.action !== undefined) query = query.where('action', '=', selection.action);
    if (selection.outcome !== undefined) query = query.where('outcome', '=', selection.outcome);
    if (selection.from !== undefined) query = query.where('at', '>=', selection.from);
    if (selection.to !== undefined) query = query.where('at', '<', selection.to);
    if (selection.before !== undefined) {
      if (!isStorableInteger(selection.before)) return [];
      query = query.where('id', '<', selection.before);
    }
    const rows = await query.orderBy('id', 'desc').limit(selection.limit).execute();
    return rows.map((row) => ({
      id: Number(row.id),
      at: Number(row.at),
      userId: Number(row.user_id),
      username: row.username,
      action: row.action,
      target: row.target,
      targetName: row.target_name,
      address: row.address,
      outcome: row.outcome,
      details: JSON.parse(row.details) as Record<string, unknown>,
    }));
  }

  /** Removes entries older than `cutoff` (milliseconds); returns how many. */
  async purgeBefore(cutoff: number): Promise<number> {
    const result = await this.db
      .deleteFrom('audit_log')
      .where('at', '<', cutoff)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
