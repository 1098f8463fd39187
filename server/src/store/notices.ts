import { sql } from 'kysely';
import type { Db } from './db.ts';

/** What a listening connection tells its owner. */
export interface NoticeHandlers {
  /** A notification arrived on one of the channels listened to. */
  notice(channel: string, payload: string): void;
  /**
   * The connection broke: notifications sent until it is back are lost to this instance. It is
   * opened again by calling `listen` again.
   */
  lost(error: unknown): void;
}

/** One dedicated PostgreSQL connection in `LISTEN` on some channels. */
export interface NoticeListener {
  close(): Promise<void>;
}

/**
 * Opens a connection of its own (a pooled one would lose its `LISTEN` when handed back) and
 * listens on `channels`. Resolves once PostgreSQL has registered them: every notification
 * committed after that is delivered, in commit order across channels (PostgreSQL's NOTIFY queue).
 */
export async function listenPostgres(
  url: string,
  channels: readonly string[],
  handlers: NoticeHandlers,
): Promise<NoticeListener> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  let closed = false;
  let reported = false;
  const lost = (error: unknown) => {
    if (closed || reported) return;
    reported = true;
    handlers.lost(error);
  };
  client.on('notification', (message) => handlers.notice(message.channel, message.payload ?? ''));
  client.on('error', lost);
  client.on('end', () => lost(new Error('the listening connection ended')));
  try {
    await client.connect();
    for (const channel of channels) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
  } catch (error) {
    closed = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    async close() {
      closed = true;
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Sends a notification through the pool. It is committed when this resolves, so a listener that
 * then asks for a later one of its own receives this one first. One round trip: a notification
 * takes a transaction id, whose commit would otherwise wait for a WAL flush, and a notification
 * needs no durability (it is delivered at commit, never replayed), so the commit is asynchronous.
 */
export async function notifyPostgres(db: Db, channel: string, payload: string): Promise<void> {
  const { default: pg } = await import('pg');
  const call = `select pg_notify(${pg.escapeLiteral(channel)}, ${pg.escapeLiteral(payload)})`;
  await db.connection().execute(async (connection) => {
    try {
      await sql
        .raw(`begin; set local synchronous_commit to off; ${call}; commit`)
        .execute(connection);
    } catch (error) {
      // A statement failed inside the block: the pooled connection must not go back in it.
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}

/** The channel on which a published event wakes the event bus of every instance. */
export const EVENTS_CHANNEL = 'cabinet_events';

/** The event bus's wake-ups over PostgreSQL (coordination/database-event-bus.ts). */
export function postgresEventWakeups(url: string, db: Db) {
  return {
    listen: (wake: () => void, lost: (error: unknown) => void) =>
      listenPostgres(url, [EVENTS_CHANNEL], { notice: wake, lost }),
    notify: () => notifyPostgres(db, EVENTS_CHANNEL, ''),
  };
}
