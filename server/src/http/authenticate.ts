import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors.ts';
import { isAdmin } from '../services/permissions.ts';
import type { SessionUser, SessionsService } from '../services/sessions.service.ts';
import { tokenFromRequest, type TokenSources } from './token-source.ts';
import { apiCredential } from './basic-credentials.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, re-read from the store on every request (permissions come from here). */
    user: SessionUser | null;
    /** The session id (token jti) of the signed-in user. */
    sessionId: string | null;
    /** Expiry of the presented token in seconds since the epoch. */
    tokenExp: number;
    /** The session may only enrol in two-factor sign-in until it has (docs/two-factor.md). */
    enrolOnly: boolean;
  }
}

/**
 * Resolves the request's token to a live session and user (see authenticateToken), or throws 401.
 * Sets X-Renew-Token when the token expires within an hour or the user changed after it was issued.
 */
export async function authenticateRequest(
  sessions: SessionsService,
  request: FastifyRequest,
  reply: FastifyReply,
  sources: TokenSources = {},
): Promise<void> {
  const token = tokenFromRequest(request, sources);
  // Scripts: an app password in the Authorization header (docs/webdav.md); the web's token wins.
  const appPassword = token ? undefined : apiCredential(request, sessions.looksLikeAppPassword);
  if (appPassword) {
    request.user = await sessions.authenticateAppPassword(appPassword, request.ip);
    request.sessionId = null;
    request.tokenExp = 0;
    return;
  }
  if (!token) throw errors.unauthorized();
  const signedIn = await sessions.authenticate(token);
  request.user = signedIn.user;
  request.sessionId = signedIn.sessionId;
  request.tokenExp = signedIn.tokenExp;
  request.enrolOnly = signedIn.enrolOnly;
  if (signedIn.renew) void reply.header('X-Renew-Token', 'true');
}

export interface GuardOptions {
  /**
   * Open to sessions that may only enrol in two-factor sign-in (the two-factor routes, renew and
   * logout); every other route answers them 403.
   */
  allowEnrolOnly?: boolean;
}

const enrolmentRequired = () => errors.forbidden('two-factor enrolment required');

/**
 * What a guard asks of a request, kept on the guard function itself so the OpenAPI document
 * (server/src/openapi/) says each route's sign-in from the route table rather than from a list.
 */
export interface GuardInfo {
  role: 'user' | 'admin';
  /** A GET may carry its token in `?auth=` too. */
  queryToken: boolean;
}

const GUARD_INFO = Symbol('cabinet.guard');

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function marked(guard: Guard, info: GuardInfo): Guard {
  return Object.assign(guard, { [GUARD_INFO]: info });
}

/** The guard behind a route's preHandler (a function or a list of them), if it has one. */
export function guardInfo(preHandler: unknown): GuardInfo | undefined {
  for (const handler of [preHandler].flat()) {
    if (typeof handler === 'function' && GUARD_INFO in handler) {
      return (handler as unknown as Record<symbol, GuardInfo>)[GUARD_INFO];
    }
  }
  return undefined;
}

/**
 * Fastify preHandler for routes that need a signed-in user. `sources.queryToken` lets a GET carry
 * its token in `?auth=` (downloads, previews, subtitles, the command socket only).
 */
export function requireUser(
  sessions: SessionsService,
  sources: TokenSources = {},
  options: GuardOptions = {},
) {
  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authenticateRequest(sessions, request, reply, sources);
    if (request.enrolOnly && !options.allowEnrolOnly) throw enrolmentRequired();
  };
  return marked(guard, { role: 'user', queryToken: sources.queryToken === true });
}

/** Fastify preHandler for admin-only routes: 401 without a session, 403 for non-admins. */
export function requireAdmin(sessions: SessionsService) {
  const guard = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    await authenticateRequest(sessions, request, reply);
    if (request.enrolOnly) throw enrolmentRequired();
    if (!request.user || !isAdmin(request.user)) throw errors.forbidden();
  };
  return marked(guard, { role: 'admin', queryToken: false });
}

/** The signed-in user of a request behind requireUser; throws if the guard was forgotten. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw errors.unauthorized();
  return request.user;
}
