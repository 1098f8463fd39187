import type { Db } from './db.ts';

/** One stored event of a user. */
export interface StoredEvent {
  id: number;
  userId: number;
  type: string;
  data: unknown;
}

/** The ids the table holds now: the oldest and the newest (null when it never held one). */
export interface EventRange {
  oldest: number;
  newest: number;
}

interface EventRow {
  id: number;
  user_id: number;
  type: string;
  data: string;
}

function fromRow(row: EventRow): StoredEvent {
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    type: row.type,
    data: JSON.parse(row.data) as unknown,
  };
}

/**
 * The recent events of users (docs/jobs.md): appended by any instance, read in id order by every
 * instance's event bus, replayed to a reconnecting stream, and forgotten after a few minutes. The
 * newest row is never pruned, so the table always tells how far its numbering went.
 */
export class EventsRepo {
  constructor(private readonly db: Db) {}

  /** Appends an event; returns its id. */
  async append(userId: number, type: string, data: unknown, now: number): Promise<number> {
    const row = await this.db
      .insertInto('events')
      .values({ user_id: userId, type, data: JSON.stringify(data), created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** Every event after `id`, oldest first, at most `limit`. */
  async after(id: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'user_id', 'type', 'data'])
      .where('id', '>', id)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }

  /** The events of one user after `id`, oldest first, at most `limit`. */
  async ofUserAfter(userId: number, id: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.db
      .selectFrom('events')
      .select(['id', 'user_id', 'type', 'data'])
      .where('user_id', '=', userId)
      .where('id', '>', id)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }

  /** The oldest and newest ids kept, or null before the first event. */
  async range(): Promise<EventRange | null> {
    const row = await this.db
      .selectFrom('events')
      .select((eb) => [eb.fn.min('id').as('oldest'), eb.fn.max('id').as('newest')])
      .executeTakeFirst();
    if (!row || row.oldest === null || row.newest === null) return null;
    return { oldest: Number(row.oldest), newest: Number(row.newest) };
  }

  /** Forgets events created before `before`, except the newest. */
  async prune(before: number): Promise<void> {
    const newest = await this.range();
    if (!newest) return;
    await this.db
      .deleteFrom('events')
      .where('created_at', '<', before)
      .where('id', '<', newest.newest)
      .execute();
  }
}
