import { LoginRequest, SignupRequest } from '@cabinet/protocol';
import type { Store } from '../store/store.ts';
import type { ServerConfig } from '../config/options.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors, RateLimitedError, TwoFactorError } from '../errors.ts';
import {
  hashPassword,
  needsRehash,
  verifyAgainstDummy,
  verifyPassword,
} from '../credentials/password.ts';
import { signToken } from '../credentials/tokens.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { isRecaptchaEnabled, verifyRecaptcha } from './sign-in/recaptcha.ts';
import type { AttemptCounter } from '../coordination/index.ts';
import { assertUnderLimit } from './sign-in/rate-limit.ts';
import { proxyUser } from './sign-in/proxy.ts';
import type { UsersService } from './users.service.ts';
import type { TwoFactorService } from './sign-in/totp.ts';
import type { AuditLog } from './audit/audit-log.ts';
import { systemClock, type Clock } from '../coordination/index.ts';

/**
 * The attempt counters of sign-in: failed logins and every signup, per address and per username.
 * They are shared by every instance (docs/runtime.md), so a guesser gains nothing by spreading
 * attempts over them.
 */
export interface AuthLimits {
  login: AttemptCounter;
  signup: AttemptCounter;
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

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface AuthDeps {
  config: ServerConfig;
  store: Pick<Store, 'sessions' | 'users'>;
  settings: SettingsRepo;
  signingKey: Uint8Array;
  log: FastifyBaseLogger;
}

/** Signing in and out: the configured method, the attempt limits, tokens and their sessions. */
export class AuthService {
  /** Logins refused or failed since the start (the figures of /metrics). */
  failedSignIns = 0;

  constructor(
    private readonly ctx: AuthDeps,
    private readonly users: UsersService,
    private readonly limits: AuthLimits,
    private readonly twoFactor: TwoFactorService,
    private readonly audit?: AuditLog,
    private readonly now: Clock = systemClock,
  ) {}

  /**
   * Signs a token for the user and records its session (the token's jti) with the client it was
   * opened from, so that logout, password changes and the Sessions card can revoke it. Old expired
   * sessions are pruned on the way.
   */
  async issueToken(user: UserRecord, client?: SessionClient, enrolOnly = false): Promise<string> {
    const signed = await signToken(this.ctx.signingKey, user, this.ctx.config.tokenExpiration);
    await this.ctx.store.sessions.create({
      id: signed.sessionId,
      userId: user.id,
      createdAt: this.now(),
      expiresAt: signed.expiresAt,
      ...client,
      enrolOnly,
    });
    await this.ctx.store.sessions.prune();
    return signed.token;
  }

  /** json method: bot-check, then name and password; every failure is a plain 403. */
  private async loginWithPassword(attempt: AuthAttempt): Promise<UserRecord> {
    const { user, otp } = await this.checkPassword(attempt);
    // After the password, so a code is only ever tried for someone who knows it (docs/two-factor.md).
    await this.twoFactor.checkSignIn(user, otp, attempt.ip);
    return user;
  }

  private async checkPassword(attempt: AuthAttempt): Promise<{ user: UserRecord; otp: string }> {
    const limits = this.limits;
    await assertUnderLimit(limits.login, [ipKey(attempt.ip)]);
    let request: LoginRequest;
    try {
      request = LoginRequest.parse(parseJson(attempt.body) ?? {});
    } catch {
      await limits.login.hit(ipKey(attempt.ip));
      throw errors.forbidden('undecodable login body');
    }
    const nameKey = userAtIpKey(request.username, attempt.ip);
    await assertUnderLimit(limits.login, [nameKey]);
    const fail = async (reason: string) => {
      await limits.login.hit(ipKey(attempt.ip));
      await limits.login.hit(nameKey);
      return errors.forbidden(reason);
    };
    if (isRecaptchaEnabled(this.ctx.config)) {
      try {
        await verifyRecaptcha(this.ctx.config, request.recaptcha);
      } catch (error) {
        if (error instanceof AppError && error.status === 403) throw await fail(error.message);
        throw error;
      }
    }
    const user = request.username
      ? await this.ctx.store.users.byUsername(request.username)
      : undefined;
    // Unknown names cost a hash comparison too, so timing does not tell which names exist.
    const ok = user
      ? await verifyPassword(user.passwordHash, request.password)
      : await verifyAgainstDummy(request.password);
    // The reason is told to the audit log and the server log only; the client sees a plain 403.
    if (!user || !ok) throw await fail(user ? 'wrong password' : 'unknown user');
    if (needsRehash(user.passwordHash)) {
      return { user: await this.rehash(user, request.password), otp: request.otp };
    }
    return { user, otp: request.otp };
  }

  /**
   * An account imported from filebrowser keeps its bcrypt hash until its first successful login,
   * when the password just typed is stored again as an argon2id hash (docs/migrate.md); so does a
   * hash of Cabinet's earlier argon2 settings (credentials/password.ts). A failed
   * write keeps the old hash, which still verifies; the login goes on either way.
   */
  private async rehash(user: UserRecord, password: string): Promise<UserRecord> {
    try {
      const passwordHash = await hashPassword(password);
      // Re-read, so a password an administrator set meanwhile is never replaced by the old one.
      const current = await this.ctx.store.users.byId(user.id);
      if (!current || current.passwordHash !== user.passwordHash) return current ?? user;
      const rehashed = { ...current, passwordHash };
      await this.ctx.store.users.update(rehashed);
      return rehashed;
    } catch (error) {
      this.ctx.log.warn({ err: error, user: user.id }, 'could not rehash a password');
      return user;
    }
  }

  /** noauth: every login is user 1 (or the oldest remaining user when 1 was deleted). */
  private async noAuthUser(): Promise<UserRecord> {
    const user = (await this.ctx.store.users.byId(1)) ?? (await this.ctx.store.users.list())[0];
    if (!user) throw errors.internal('noauth: there is no user to sign in as');
    return user;
  }

  /** POST /api/login for the configured method; returns the signed token. Audited either way. */
  async login(attempt: AuthAttempt): Promise<string> {
    try {
      const { token, user } = await this.signIn(attempt);
      this.audit?.record({
        action: 'login',
        outcome: 'ok',
        actor: { id: user.id, username: user.username },
        address: attempt.ip,
      });
      return token;
    } catch (error) {
      const failure = loginFailure(error);
      this.failedSignIns++;
      this.audit?.record({
        action: 'login',
        outcome: failure.outcome,
        actor: { id: 0, username: triedUsername(attempt) },
        address: attempt.ip,
        details: { reason: failure.reason },
      });
      throw error;
    }
  }

  private async signIn(attempt: AuthAttempt): Promise<{ token: string; user: UserRecord }> {
    let user: UserRecord;
    let enrolOnly = false;
    switch (this.ctx.config.authMethod) {
      case 'proxy':
        user = await proxyUser(this.ctx, this.users, attempt.headers);
        break;
      case 'noauth':
        user = await this.noAuthUser();
        break;
      default:
        user = await this.loginWithPassword(attempt);
        enrolOnly = await this.twoFactor.enrolOnly(user);
    }
    const agent = attempt.headers['user-agent'];
    const token = await this.issueToken(
      user,
      {
        userAgent: typeof agent === 'string' ? agent : '',
        address: attempt.ip,
      },
      enrolOnly,
    );
    return { token, user };
  }

  /**
   * POST /api/renew: a new token from the current user record for the same session, whose
   * expiry moves forward with it.
   */
  async renew(user: UserRecord, sessionId: string | null): Promise<string> {
    if (!sessionId) throw errors.unauthorized();
    const signed = await signToken(
      this.ctx.signingKey,
      user,
      this.ctx.config.tokenExpiration,
      sessionId,
    );
    await this.ctx.store.sessions.extend(sessionId, signed.expiresAt);
    return signed.token;
  }

  /** POST /api/logout: the session of the presented token stops working at once. */
  async logout(sessionId: string | null): Promise<void> {
    if (sessionId) await this.ctx.store.sessions.revoke(sessionId);
  }

  /**
   * POST /api/signup: only when enabled (405 otherwise). The new user gets the defaults but never
   * admin, execute or commands; a taken name or home folder is a 409.
   */
  async signup(attempt: AuthAttempt): Promise<void> {
    const limits = this.limits;
    if (!(await this.ctx.settings.get()).signup) throw errors.methodNotAllowed();
    await assertUnderLimit(limits.signup, [ipKey(attempt.ip)]);
    await limits.signup.hit(ipKey(attempt.ip));
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
    await assertUnderLimit(limits.signup, [userKey(username)]);
    await limits.signup.hit(userKey(username));
    await this.users.create('signup', { username, password });
  }
}

/** Why a login failed, in the audit log's words (docs/audit.md). */
function loginFailure(error: unknown): { outcome: 'refused' | 'failed'; reason: string } {
  if (error instanceof RateLimitedError) return { outcome: 'refused', reason: 'throttled' };
  if (error instanceof TwoFactorError) {
    return {
      outcome: 'refused',
      reason: error.kind === 'required' ? 'two-factor code needed' : 'wrong two-factor code',
    };
  }
  if (error instanceof AppError && (error.status === 401 || error.status === 403)) {
    return { outcome: 'refused', reason: error.reason ?? 'refused' };
  }
  return { outcome: 'failed', reason: error instanceof Error ? error.message : 'error' };
}

/** The name a login tried, when its body says one (an audit entry of a failed login keeps it). */
function triedUsername(attempt: AuthAttempt): string {
  try {
    const parsed = LoginRequest.safeParse(parseJson(attempt.body) ?? {});
    return parsed.success ? parsed.data.username.slice(0, 256) : '';
  } catch {
    return '';
  }
}

function parseJson(body: string | undefined): unknown {
  if (body === undefined || body.trim() === '') return undefined;
  return JSON.parse(body) as unknown;
}
