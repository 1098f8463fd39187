import type { SessionInfo } from '@cabinet/protocol';
import type { AppContext } from '../context.ts';
import { errors } from '../errors.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { canManageAccount } from './permissions.ts';

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
