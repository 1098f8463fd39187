import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { errors } from '../errors.ts';
import { verifyToken } from '../auth/tokens.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { tokenFromRequest, type TokenSources } from './token-source.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, re-read from the store on every request (permissions come from here). */
    user: UserRecord | null;
    /** The session id (token jti) of the signed-in user. */
    sessionId: string | null;
    /** Expiry of the presented token in seconds since the epoch. */
    tokenExp: number;
  }
}

const RENEW_WINDOW_SECONDS = 3600;
/** "Last used" is precise to a minute, so busy clients do not write to the database per request. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Resolves the request's token to a live session and user, or throws 401. Sets X-Renew-Token when
 * the token expires within an hour or the user changed after it was issued.
 */
export async function authenticateRequest(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  sources: TokenSources = {},
): Promise<void> {
  const token = tokenFromRequest(request, sources);
  if (!token) throw errors.unauthorized();
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
  request.user = user;
  request.sessionId = claims.jti;
  request.tokenExp = claims.exp;
  const now = Math.floor(Date.now() / 1000);
  if (claims.exp - now < RENEW_WINDOW_SECONDS || user.updatedAt > claims.iat * 1000) {
    void reply.header('X-Renew-Token', 'true');
  }
}

/**
 * Fastify preHandler for routes that need a signed-in user. `sources.queryToken` lets a GET carry
 * its token in `?auth=` (downloads, previews, subtitles, the command socket only).
 */
export function requireUser(ctx: AppContext, sources: TokenSources = {}) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authenticateRequest(ctx, request, reply, sources);
  };
}

/** Fastify preHandler for admin-only routes: 401 without a session, 403 for non-admins. */
export function requireAdmin(ctx: AppContext) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authenticateRequest(ctx, request, reply);
    if (!request.user?.perm.admin) throw errors.forbidden();
  };
}

/** The signed-in user of a request behind requireUser; throws if the guard was forgotten. */
export function currentUser(request: FastifyRequest): UserRecord {
  if (!request.user) throw errors.unauthorized();
  return request.user;
}
