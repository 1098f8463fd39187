import type { SessionInfo } from '@cabinet/protocol';
import type { AppContext } from '../context.ts';
import { errors } from '../errors.ts';
import { verifyToken } from '../auth/tokens.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { canManageAccount } from './permissions.ts';

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
}

const RENEW_WINDOW_SECONDS = 3600;
/** "Last used" is precise to a minute, so busy clients do not write to the database per request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves a presented token to a live session and its user, or throws 401: the signature and
 * expiry, a session that exists, is not revoked and belongs to the token's user, and a user that
 * still exists. Marks the session used (at most once a minute).
 */
export async function authenticateToken(ctx: AppContext, token: string): Promise<SignedIn> {
  const check = await verifyToken(ctx.signingKey, token);
  if (!check.ok) throw errors.unauthorized();
  const { claims } = check;
  if (!claims.jti) throw errors.unauthorized();
  const session = await ctx.store.sessions.get(claims.jti);
  if (!session || session.revokedAt !== null || session.userId !== claims.user.id)
    throw errors.unauthorized();
  const user = await ctx.store.users.byId(claims.user.id);
  if (!user) throw errors.unauthorized();
  if (Date.now() - session.lastUsedAt >= TOUCH_INTERVAL_MS)
    await ctx.store.sessions.touch(session.id);
  const now = Math.floor(Date.now() / 1000);
  const renew = claims.exp - now < RENEW_WINDOW_SECONDS || user.updatedAt > claims.iat * 1000;
  return { user, sessionId: claims.jti, tokenExp: claims.exp, renew };
}

/** Users see and end their own sessions; administrators those of anyone. */
async function checkAccess(ctx: AppContext, actor: UserRecord, userId: number): Promise<void> {
  if (!canManageAccount(actor, userId)) throw errors.forbidden();
  if (!(await ctx.store.users.byId(userId))) throw errors.notFound();
}

/** GET /api/users/{id}/sessions: the user's active sessions, most recently used first. */
export async function listSessions(
  ctx: AppContext,
  actor: UserRecord,
  actorSessionId: string | null,
  userId: number,
): Promise<SessionInfo[]> {
  await checkAccess(ctx, actor, userId);
  const sessions = await ctx.store.sessions.listActive(userId);
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
export async function endSession(
  ctx: AppContext,
  actor: UserRecord,
  userId: number,
  sessionId: string,
): Promise<void> {
  await checkAccess(ctx, actor, userId);
  const session = await ctx.store.sessions.get(sessionId);
  if (!session || session.userId !== userId || session.revokedAt !== null) {
    throw errors.notFound();
  }
  if (session.expiresAt <= Date.now()) throw errors.notFound();
  await ctx.store.sessions.revoke(sessionId);
}

/**
 * DELETE /api/users/{id}/sessions: ends every session of the user but the caller's own (when
 * the caller is that user), the "log out everywhere else" of the Sessions card.
 */
export async function endOtherSessions(
  ctx: AppContext,
  actor: UserRecord,
  actorSessionId: string | null,
  userId: number,
): Promise<void> {
  await checkAccess(ctx, actor, userId);
  await ctx.store.sessions.revokeAllForUser(userId, actorSessionId ?? undefined);
}
