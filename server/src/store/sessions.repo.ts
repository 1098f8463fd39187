import type { Db } from './db.ts';
import { isStorableInteger, isStorableText } from './engine.ts';
import type { SessionsTable } from './schema.ts';
import type { Selectable } from 'kysely';

export interface SessionRecord {
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** User-Agent of the login request ("" when unknown). */
  userAgent: string;
  /** Client address of the login request ("" when unknown). */
  address: string;
  /** Milliseconds of the last authenticated request (the creation time until then). */
  lastUsedAt: number;
  /** The session may only enrol in two-factor sign-in (docs/two-factor.md). */
  enrolOnly: boolean;
}

/** What a new session records; the client details are optional (the CLI and tests have none). */
export type NewSession = Pick<SessionRecord, 'id' | 'userId' | 'createdAt' | 'expiresAt'> &
  Partial<Pick<SessionRecord, 'userAgent' | 'address' | 'enrolOnly'>>;

const MAX_USER_AGENT = 512;

function toRecord(row: Selectable<SessionsTable>): SessionRecord {
  const createdAt = Number(row.created_at);
  return {
    id: row.id,
    userId: Number(row.user_id),
    createdAt,
    expiresAt: Number(row.expires_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    userAgent: row.user_agent,
    address: row.address,
    lastUsedAt: row.last_used_at === null ? createdAt : Number(row.last_used_at),
    enrolOnly: Number(row.enrol_only) === 1,
  };
}

/** Server-side sessions named by a token's jti, so that logout and password changes revoke tokens. */
export class SessionsRepo {
  constructor(private readonly db: Db) {}

  async create(session: NewSession): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        revoked_at: null,
        user_agent: (session.userAgent ?? '').slice(0, MAX_USER_AGENT),
        address: session.address ?? '',
        last_used_at: session.createdAt,
        enrol_only: session.enrolOnly ? 1 : 0,
      })
      .execute();
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    if (!isStorableText(id)) return undefined;
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** A user's sessions that still work (not revoked, not expired), most recently used first. */
  async listActive(userId: number, now = Date.now()): Promise<SessionRecord[]> {
    if (!isStorableInteger(userId)) return [];
    const rows = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
    return rows.map(toRecord).sort((a, b) => b.lastUsedAt - a.lastUsedAt);
  }

  /** Records that the session was used now. */
  async touch(id: string, now = Date.now()): Promise<void> {
    await this.db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  /** Extends a session when its token is renewed. */
  async extend(id: string, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  }

  async revoke(id: string): Promise<void> {
    if (!isStorableText(id)) return;
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  /** Revokes every session of a user except `keepId` (a password change keeps the current one). */
  async revokeAllForUser(userId: number, keepId?: string): Promise<void> {
    if (!isStorableInteger(userId)) return;
    let query = this.db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepId && isStorableText(keepId)) query = query.where('id', '!=', keepId);
    await query.execute();
  }

  /** Lifts the enrol-only restriction from the user's sessions once they enrolled. */
  async clearEnrolOnly(userId: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ enrol_only: 0 })
      .where('user_id', '=', userId)
      .where('enrol_only', '=', 1)
      .execute();
  }

  /** Drops sessions that expired more than a day ago. */
  async prune(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<', now - 86_400_000)
      .execute();
  }
}
