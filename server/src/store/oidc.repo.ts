import type { Db } from './db.ts';
import { isStorableText } from './engine.ts';

/** What kind of single sign-on step a pending request belongs to (docs/sso.md). */
export type OidcRequestKind = 'login' | 'handoff';

/** The only code that reads and writes single sign-on rows. */
export class OidcRepo {
  constructor(private readonly db: Db) {}

  /** Stores a pending request; expired ones are removed on the way, so the table stays small. */
  async put(
    id: string,
    kind: OidcRequestKind,
    data: unknown,
    expiresAt: number,
    now: number,
  ): Promise<void> {
    await this.db.deleteFrom('oidc_requests').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('oidc_requests')
      .values({ id, kind, data: JSON.stringify(data), expires_at: expiresAt })
      .execute();
  }

  /**
   * Takes a pending request once: the row is deleted, and only the caller whose delete removed it
   * gets its data, so two instances (or a replayed callback) never both use it. An expired or
   * unknown id, or one of another kind, gives undefined.
   */
  async take(id: string, kind: OidcRequestKind, now: number): Promise<unknown> {
    if (!isStorableText(id)) return undefined;
    const row = await this.db
      .selectFrom('oidc_requests')
      .selectAll()
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (!row) return undefined;
    const deleted = await this.db
      .deleteFrom('oidc_requests')
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return undefined;
    if (Number(row.expires_at) <= now) return undefined;
    return JSON.parse(row.data) as unknown;
  }

  /** Remembers the provider's ID token of a session opened by single sign-on. */
  async rememberSession(sessionId: string, idToken: string): Promise<void> {
    await this.db
      .insertInto('oidc_sessions')
      .values({ session_id: sessionId, id_token: idToken })
      .execute();
  }

  /** Takes (and forgets) the ID token of a session; undefined for a session not opened by SSO. */
  async takeSession(sessionId: string): Promise<string | undefined> {
    if (!isStorableText(sessionId)) return undefined;
    const row = await this.db
      .selectFrom('oidc_sessions')
      .select('id_token')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return undefined;
    await this.db.deleteFrom('oidc_sessions').where('session_id', '=', sessionId).execute();
    return row.id_token;
  }
}
