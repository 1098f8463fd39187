import type { SessionInfo } from '@cabinet/protocol';
import type { Store } from '../store/store.ts';
import { errors } from '../errors.ts';
import { verifyToken } from '../credentials/tokens.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { canManageAccount } from './permissions.ts';
import {
  looksLikeAppPassword,
  type AppPasswordsService,
  type CredentialUser,
} from './app-passwords.service.ts';
import { systemClock, type Clock } from '../coordination/index.ts';

/** The user a request acts as: the stored record (permissions, scope, rules), re-read per request. */
export type SessionUser = UserRecord;

/** A token that resolved to a live session. */
export interface SignedIn {
  user: SessionUser;
  /** The session id (the token's jti). */
  sessionId: string;
  /** Expiry of the token in seconds since the epoch. */
  tokenExp: number;
  /** The client should fetch a fresh token: this one expires within an hour, or the user changed. */
  renew: boolean;
  /** The session may only enrol in two-factor sign-in (docs/two-factor.md). */
  enrolOnly: boolean;
}

const RENEW_WINDOW_SECONDS = 3600;
/** "Last used" is precise to a minute, so busy clients do not write to the database per request. */
const TOUCH_INTERVAL_MS = 60_000;

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface SessionsDeps {
  store: Pick<Store, 'sessions' | 'users'>;
  signingKey: Uint8Array;
}

/** Sessions: what a presented token stands for, and the Sessions card's list and revocations. */
export class SessionsService {
  constructor(
    private readonly ctx: SessionsDeps,
    /** App passwords as API credentials for scripts (docs/webdav.md). */
    private readonly appPasswords?: AppPasswordsService,
    private readonly now: Clock = systemClock,
  ) {}

  /** Whether a credential has the shape of an app password. */
  readonly looksLikeAppPassword = looksLikeAppPassword;

  /** The (narrowed) user of an app password used on the API, or 401. */
  async authenticateAppPassword(password: string, ip: string): Promise<CredentialUser> {
    if (!this.appPasswords) throw errors.unauthorized();
    return this.appPasswords.authenticate(password, ip);
  }

  /**
   * Resolves a presented token to a live session and its user, or throws 401: the signature and
   * expiry, a session that exists, is not revoked and belongs to the token's user, and a user that
   * still exists. Marks the session used (at most once a minute).
   */
  async authenticate(token: string): Promise<SignedIn> {
    const check = await verifyToken(this.ctx.signingKey, token);
    if (!check.ok) throw errors.unauthorized();
    const { claims } = check;
    if (!claims.jti) throw errors.unauthorized();
    const session = await this.ctx.store.sessions.get(claims.jti);
    if (!session || session.revokedAt !== null || session.userId !== claims.user.id)
      throw errors.unauthorized();
    const user = await this.ctx.store.users.byId(claims.user.id);
    if (!user) throw errors.unauthorized();
    if (this.now() - session.lastUsedAt >= TOUCH_INTERVAL_MS)
      await this.ctx.store.sessions.touch(session.id);
    const now = Math.floor(this.now() / 1000);
    // The issued-at claim has whole seconds: a token issued in the same second as the change
    // already carries it, so the comparison is in seconds too.
    const renew =
      claims.exp - now < RENEW_WINDOW_SECONDS || Math.floor(user.updatedAt / 1000) > claims.iat;
    return {
      user,
      sessionId: claims.jti,
      tokenExp: claims.exp,
      renew,
      enrolOnly: session.enrolOnly,
    };
  }

  /** Users see and end their own sessions; administrators those of anyone. */
  private async checkAccess(actor: UserRecord, userId: number): Promise<void> {
    if (!canManageAccount(actor, userId)) throw errors.forbidden();
    if (!(await this.ctx.store.users.byId(userId))) throw errors.notFound();
  }

  /** GET /api/users/{id}/sessions: the user's active sessions, most recently used first. */
  async list(
    actor: UserRecord,
    actorSessionId: string | null,
    userId: number,
  ): Promise<SessionInfo[]> {
    await this.checkAccess(actor, userId);
    const sessions = await this.ctx.store.sessions.listActive(userId);
    return sessions.map((s) => ({
      id: s.id,
      userAgent: s.userAgent,
      address: s.address,
      createdAt: s.createdAt,
      lastUsedAt: s.lastUsedAt,
      expiresAt: s.expiresAt,
      current: s.id === actorSessionId,
    }));
  }

  /**
   * DELETE /api/users/{id}/sessions/{sid}: ends one session; its token answers 401 from the next
   * request on. An id that is not an active session of that user is a 404, so ids of other users'
   * sessions cannot be probed.
   */
  async end(actor: UserRecord, userId: number, sessionId: string): Promise<void> {
    await this.checkAccess(actor, userId);
    const session = await this.ctx.store.sessions.get(sessionId);
    if (!session || session.userId !== userId || session.revokedAt !== null) {
      throw errors.notFound();
    }
    if (session.expiresAt <= this.now()) throw errors.notFound();
    await this.ctx.store.sessions.revoke(sessionId);
  }

  /**
   * DELETE /api/users/{id}/sessions: ends every session of the user but the caller's own (when
   * the caller is that user), the "log out everywhere else" of the Sessions card.
   */
  async endOthers(actor: UserRecord, actorSessionId: string | null, userId: number): Promise<void> {
    await this.checkAccess(actor, userId);
    await this.ctx.store.sessions.revokeAllForUser(userId, actorSessionId ?? undefined);
  }
}
