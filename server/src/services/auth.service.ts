import { LoginRequest, SignupRequest } from '@cabinet/protocol';
import type { AppContext } from '../context.ts';
import { AppError, errors } from '../errors.ts';
import { verifyAgainstDummy, verifyPassword } from '../auth/password.ts';
import { signToken } from '../auth/tokens.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { isRecaptchaEnabled, verifyRecaptcha } from './auth/recaptcha.ts';
import { AttemptLimiter, assertUnderLimit } from './auth/rate-limit.ts';
import { proxyUser } from './auth/proxy.ts';
import { createUser } from './users/user-records.ts';

/** One limiter per server: failed logins and every signup, per address and per username. */
export interface AuthLimits {
  login: AttemptLimiter;
  signup: AttemptLimiter;
}

export function createAuthLimits(config: AppContext['config']): AuthLimits {
  const windowMs = config.rateLimitWindow * 1000;
  return {
    login: new AttemptLimiter(config.rateLimitMax, windowMs),
    signup: new AttemptLimiter(config.rateLimitMax, windowMs),
  };
}

/** What a login or signup request brings: the client address, headers and the raw body. */
export interface AuthAttempt {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  body: string | undefined;
}

const userKey = (username: string) => `user:${username.toLowerCase()}`;
const ipKey = (ip: string) => `ip:${ip}`;
/**
 * Failed logins count per address and per (username, address), never per username alone: a
 * guesser elsewhere must not be able to lock a known user out (docs/reverse-proxy.md).
 */
const userAtIpKey = (username: string, ip: string) => `user:${username.toLowerCase()}@${ip}`;

/** The client a session was opened from, shown in the Sessions card. */
export interface SessionClient {
  userAgent: string;
  address: string;
}

/**
 * Signs a token for the user and records its session (the token's jti) with the client it was
 * opened from, so that logout, password changes and the Sessions card can revoke it. Old expired
 * sessions are pruned on the way.
 */
export async function issueToken(
  ctx: AppContext,
  user: UserRecord,
  client?: SessionClient,
): Promise<string> {
  const signed = await signToken(ctx.signingKey, user, ctx.config.tokenExpiration);
  await ctx.store.sessions.create({
    id: signed.sessionId,
    userId: user.id,
    createdAt: Date.now(),
    expiresAt: signed.expiresAt,
    ...client,
  });
  await ctx.store.sessions.prune();
  return signed.token;
}

function parseJson(body: string | undefined): unknown {
  if (body === undefined || body.trim() === '') return undefined;
  return JSON.parse(body) as unknown;
}

/** json method: bot-check, then name and password; every failure is a plain 403. */
async function loginWithPassword(
  ctx: AppContext,
  limits: AuthLimits,
  attempt: AuthAttempt,
): Promise<UserRecord> {
  assertUnderLimit(limits.login, [ipKey(attempt.ip)]);
  let request: LoginRequest;
  try {
    request = LoginRequest.parse(parseJson(attempt.body) ?? {});
  } catch {
    limits.login.hit(ipKey(attempt.ip));
    throw errors.forbidden('undecodable login body');
  }
  const nameKey = userAtIpKey(request.username, attempt.ip);
  assertUnderLimit(limits.login, [nameKey]);
  const fail = (reason: string) => {
    limits.login.hit(ipKey(attempt.ip));
    limits.login.hit(nameKey);
    return errors.forbidden(reason);
  };
  if (isRecaptchaEnabled(ctx.config)) {
    try {
      await verifyRecaptcha(ctx.config, request.recaptcha);
    } catch (error) {
      if (error instanceof AppError && error.status === 403) throw fail(error.message);
      throw error;
    }
  }
  const user = request.username ? await ctx.store.users.byUsername(request.username) : undefined;
  // Unknown names cost a hash comparison too, so timing does not tell which names exist.
  const ok = user
    ? await verifyPassword(user.passwordHash, request.password)
    : await verifyAgainstDummy(request.password);
  if (!user || !ok) throw fail('wrong credentials');
  return user;
}

/** noauth: every login is user 1 (or the oldest remaining user when 1 was deleted). */
async function noAuthUser(ctx: AppContext): Promise<UserRecord> {
  const user = (await ctx.store.users.byId(1)) ?? (await ctx.store.users.list())[0];
  if (!user) throw errors.internal('noauth: there is no user to sign in as');
  return user;
}

/** POST /api/login for the configured method; returns the signed token. */
export async function login(
  ctx: AppContext,
  limits: AuthLimits,
  attempt: AuthAttempt,
): Promise<string> {
  let user: UserRecord;
  switch (ctx.config.authMethod) {
    case 'proxy':
      user = await proxyUser(ctx, attempt.headers);
      break;
    case 'noauth':
      user = await noAuthUser(ctx);
      break;
    default:
      user = await loginWithPassword(ctx, limits, attempt);
  }
  const agent = attempt.headers['user-agent'];
  return issueToken(ctx, user, {
    userAgent: typeof agent === 'string' ? agent : '',
    address: attempt.ip,
  });
}

/**
 * POST /api/renew: a new token from the current user record for the same session, whose
 * expiry moves forward with it.
 */
export async function renew(
  ctx: AppContext,
  user: UserRecord,
  sessionId: string | null,
): Promise<string> {
  if (!sessionId) throw errors.unauthorized();
  const signed = await signToken(ctx.signingKey, user, ctx.config.tokenExpiration, sessionId);
  await ctx.store.sessions.extend(sessionId, signed.expiresAt);
  return signed.token;
}

/** POST /api/logout: the session of the presented token stops working at once. */
export async function logout(ctx: AppContext, sessionId: string | null): Promise<void> {
  if (sessionId) await ctx.store.sessions.revoke(sessionId);
}

/**
 * POST /api/signup: only when enabled (405 otherwise). The new user gets the defaults but never
 * admin, execute or commands; a taken name or home folder is a 409.
 */
export async function signup(
  ctx: AppContext,
  limits: AuthLimits,
  attempt: AuthAttempt,
): Promise<void> {
  if (!(await ctx.settings.get()).signup) throw errors.methodNotAllowed();
  assertUnderLimit(limits.signup, [ipKey(attempt.ip)]);
  limits.signup.hit(ipKey(attempt.ip));
  let body: unknown;
  try {
    body = parseJson(attempt.body);
  } catch {
    throw errors.badRequest('invalid JSON');
  }
  const parsed = SignupRequest.safeParse(body ?? {});
  if (!parsed.success) throw errors.badRequest('username and password must be strings');
  const { username, password } = parsed.data;
  if (!username || !password) throw errors.badRequest('username and password are required');
  assertUnderLimit(limits.signup, [userKey(username)]);
  limits.signup.hit(userKey(username));
  await createUser(ctx, 'signup', { username, password });
}
