import type { Db } from './db.ts';

export interface SessionRecord {
  id: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** Server-side sessions named by a token's jti, so that logout and password changes revoke tokens. */
export class SessionsRepo {
  constructor(private readonly db: Db) {}

  async create(session: Omit<SessionRecord, 'revokedAt'>): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        revoked_at: null,
      })
      .execute();
  }

  async get(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      userId: Number(row.user_id),
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
      revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    };
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
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  /** Revokes every session of a user except `keepId` (a password change keeps the current one). */
  async revokeAllForUser(userId: number, keepId?: string): Promise<void> {
    let query = this.db
      .updateTable('sessions')
      .set({ revoked_at: Date.now() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepId) query = query.where('id', '!=', keepId);
    await query.execute();
  }

  /** Drops sessions that expired more than a day ago. */
  async prune(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<', now - 86_400_000)
      .execute();
  }
}
