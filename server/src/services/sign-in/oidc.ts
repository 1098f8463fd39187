import { createHash, randomBytes } from 'node:crypto';
import type * as client from 'openid-client';
import type { OidcFailureCode } from '@cabinet/protocol';
import { decodeJwt } from 'jose';
import type { Store } from '../../store/store.ts';
import type { FastifyBaseLogger } from 'fastify';
import { claimedGroups, syncOidcGroups } from '../teams/oidc-groups.ts';
import type { ServerConfig } from '../../config/options.ts';
import { AppError, errors, OidcError } from '../../errors.ts';
import { skewSeconds, systemClock, type Clock } from '../../coordination/index.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import type { AuthService, SessionClient } from '../auth.service.ts';
import type { UsersService } from '../users.service.ts';
import { normalisePerm } from '../users/user-records.ts';

/** openid-client, loaded at the first sign-in, not with the server: most servers have no OIDC. */
const openidClient = () => import('openid-client');

/** How long a sign-in may stay at the provider before its state is refused. */
const LOGIN_TTL_MS = 10 * 60 * 1000;
/** How long the web app has to exchange the one-time code of a finished sign-in. */
const HANDOFF_TTL_MS = 60 * 1000;
const MAX_RETURN_PATH = 2000;

/**
 * Why a single sign-on failed, as the login page names it (`?sso_error=`): never the provider's
 * own words, which a crafted link could fill with anything.
 */
export type OidcFailure = OidcFailureCode;
// state: unknown, used or expired (start again); denied: the provider answered with an error (the
// user cancelled, or was refused); verify: the code exchange or the ID token (signature, issuer,
// audience, nonce, expiry) failed; unavailable: the provider could not be reached; username: the
// claims name no user; no-account: unknown user with auto-create off; account: creation refused.

/** Single sign-on is on when the issuer and the client id are set. */
export function isOidcEnabled(config: ServerConfig): boolean {
  return Boolean(config.oidcIssuer && config.oidcClientId);
}

/** The provider's name on the login button: the option, or the issuer's host name. */
export function oidcButtonLabel(config: ServerConfig): string {
  if (config.oidcButtonLabel) return config.oidcButtonLabel;
  try {
    return new URL(config.oidcIssuer).hostname;
  } catch {
    return config.oidcIssuer;
  }
}

/** A path inside the app to return to after signing in, or "/" for anything else. */
export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > MAX_RETURN_PATH) return '/';
  // Only same-app paths: "//host" and "/\host" would leave the site.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return '/';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(raw)) return '/';
  return raw;
}

/** Plain http to the provider is allowed only on this machine (tests, a provider beside Cabinet). */
function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

interface LoginState {
  nonce: string;
  verifier: string;
  redirectUri: string;
  returnTo: string;
}

interface Handoff {
  userId: number;
  idToken: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface OidcDeps {
  config: ServerConfig;
  store: Pick<Store, 'oidc' | 'users' | 'teams'>;
  log: FastifyBaseLogger;
}

/**
 * OpenID Connect single sign-on (docs/sso.md): the authorization code flow with PKCE, state and
 * nonce kept in the database (any instance may serve any step), the ID token verified by
 * openid-client, the claims mapped to a Cabinet user, and a one-time code that hands the web app
 * its session without a token in a URL.
 */
export class OidcService {
  /** The provider's discovered metadata, fetched on first use and again after a failure. */
  private discovered: Promise<client.ServerMetadata> | undefined;

  constructor(
    private readonly ctx: OidcDeps,
    private readonly users: UsersService,
    private readonly auth: AuthService,
    /** The clock state and ID token expiry are judged by (tests move it; default the system's). */
    private readonly now: Clock = systemClock,
  ) {}

  get enabled(): boolean {
    return isOidcEnabled(this.ctx.config);
  }

  private get issuer(): URL {
    return new URL(this.ctx.config.oidcIssuer);
  }

  private async serverMetadata(): Promise<client.ServerMetadata> {
    if (!this.discovered) {
      const client = await openidClient();
      const issuer = this.issuer;
      this.discovered = client
        .discovery(issuer, this.ctx.config.oidcClientId, undefined, undefined, {
          execute: isLoopback(issuer) ? [client.allowInsecureRequests] : [],
          timeout: 10,
        })
        .then((config) => config.serverMetadata());
      // A failed discovery is tried again by the next sign-in, not remembered.
      this.discovered.catch(() => (this.discovered = undefined));
    }
    try {
      return await this.discovered;
    } catch (error) {
      throw new OidcError('unavailable', 'the provider could not be discovered', { cause: error });
    }
  }

  /**
   * The client configuration, built per use: the skew makes openid-client judge expiry by this
   * service's clock, and the authentication method is one the provider supports.
   */
  private async configuration(): Promise<client.Configuration> {
    const client = await openidClient();
    const server = await this.serverMetadata();
    const { oidcClientId, oidcClientSecret } = this.ctx.config;
    const methods = server.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
    const auth = !oidcClientSecret
      ? client.None()
      : methods.includes('client_secret_basic')
        ? client.ClientSecretBasic(oidcClientSecret)
        : client.ClientSecretPost(oidcClientSecret);
    const config = new client.Configuration(
      server,
      oidcClientId,
      {
        ...(oidcClientSecret && { client_secret: oidcClientSecret }),
        // openid-client judges tokens by the real clock: the skew makes it judge by ours.
        [client.clockSkew]: skewSeconds(this.now),
      },
      auth,
    );
    if (isLoopback(this.issuer)) client.allowInsecureRequests(config);
    return config;
  }

  private scopes(): string {
    const scopes = this.ctx.config.oidcScopes.split(/[\s,]+/).filter(Boolean);
    if (!scopes.includes('openid')) scopes.unshift('openid');
    return scopes.join(' ');
  }

  /**
   * GET /api/oidc/login: records a new sign-in (state, nonce, PKCE verifier) and returns the
   * provider's authorization URL to redirect to.
   */
  async begin(redirectUri: string, returnTo: unknown): Promise<URL> {
    if (!this.enabled) throw errors.notFound();
    const client = await openidClient();
    const config = await this.configuration();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const verifier = client.randomPKCECodeVerifier();
    const login: LoginState = { nonce, verifier, redirectUri, returnTo: safeReturnPath(returnTo) };
    const now = this.now();
    await this.ctx.store.oidc.put(state, 'login', login, now + LOGIN_TTL_MS, now);
    return client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.scopes(),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * GET /api/oidc/callback: takes the sign-in of the state (once), exchanges the code and verifies
   * the ID token, maps the claims to a user and returns a one-time code for the web app.
   */
  async complete(query: URLSearchParams): Promise<{ code: string; returnTo: string }> {
    if (!this.enabled) throw errors.notFound();
    const client = await openidClient();
    const state = query.get('state') ?? '';
    const login = (await this.ctx.store.oidc.take(state, 'login', this.now())) as
      LoginState | undefined;
    if (!state || !login) throw new OidcError('state', 'unknown, used or expired state');
    const config = await this.configuration();
    const currentUrl = new URL(login.redirectUri);
    currentUrl.search = query.toString();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        expectedState: state,
        expectedNonce: login.nonce,
        pkceCodeVerifier: login.verifier,
      });
    } catch (error) {
      if (error instanceof client.AuthorizationResponseError) {
        throw new OidcError('denied', `the provider answered ${error.error}`, { cause: error });
      }
      if (error instanceof TypeError || (error as { name?: string }).name === 'TimeoutError') {
        throw new OidcError('unavailable', 'the provider could not be reached', { cause: error });
      }
      throw new OidcError('verify', 'the provider answer did not verify', { cause: error });
    }
    const idClaims = tokens.claims();
    if (!tokens.id_token || !idClaims) throw new OidcError('verify', 'no ID token');
    const claims = await this.withUserInfo(config, idClaims, tokens.access_token);
    const user = await this.userFor(claims);
    const code = randomBytes(32).toString('base64url');
    const handoff: Handoff = { userId: user.id, idToken: tokens.id_token };
    const now = this.now();
    await this.ctx.store.oidc.put(sha256(code), 'handoff', handoff, now + HANDOFF_TTL_MS, now);
    return { code, returnTo: login.returnTo };
  }

  /**
   * Providers that keep the ID token small (Authelia, Pocket ID) put the profile and groups in the
   * UserInfo answer only: it is asked for when a claim Cabinet maps is missing.
   */
  private async withUserInfo(
    config: client.Configuration,
    idClaims: client.IDToken,
    accessToken: string,
  ): Promise<Record<string, unknown>> {
    const { oidcUsernameClaim, oidcGroupsClaim, oidcAdminGroup } = this.ctx.config;
    const missing =
      idClaims[oidcUsernameClaim] === undefined ||
      (oidcAdminGroup !== '' && idClaims[oidcGroupsClaim] === undefined);
    if (!missing || !config.serverMetadata().userinfo_endpoint) return idClaims;
    const client = await openidClient();
    try {
      const info = await client.fetchUserInfo(config, accessToken, idClaims.sub);
      // The ID token was verified: where both carry a claim, its value wins.
      return { ...info, ...idClaims };
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'single sign-on: the UserInfo request failed');
      return idClaims;
    }
  }

  /** The user the claims name: matched by name, created when allowed, admin by group. */
  private async userFor(claims: Record<string, unknown>): Promise<UserRecord> {
    const { oidcUsernameClaim, oidcAutoCreate } = this.ctx.config;
    const raw = claims[oidcUsernameClaim];
    const username = typeof raw === 'string' ? raw.trim() : '';
    if (!username) {
      throw new OidcError('username', `the claims carry no "${oidcUsernameClaim}"`);
    }
    let user = await this.ctx.store.users.byUsername(username);
    if (!user) {
      if (!oidcAutoCreate) {
        throw new OidcError('no-account', `no user "${username}" and auto-create is off`);
      }
      user = await this.create(username, this.scopeFrom(claims));
    }
    // Memberships of the provider's groups follow each sign-in (docs/teams.md).
    const groups = claimedGroups(claims[this.ctx.config.oidcGroupsClaim]);
    if (groups) await syncOidcGroups(this.ctx.store, user.id, groups);
    return this.applyAdminGroup(user, claims);
  }

  /**
   * A new user's scope from the configured claim, when it carries a folder path; otherwise
   * undefined, and the user defaults decide. It is a path under the root like any scope, checked
   * by the user service as one typed by an administrator.
   */
  private scopeFrom(claims: Record<string, unknown>): string | undefined {
    const { oidcScopeClaim } = this.ctx.config;
    const value = oidcScopeClaim ? claims[oidcScopeClaim] : undefined;
    return typeof value === 'string' && value.trim().startsWith('/') ? value.trim() : undefined;
  }

  private async create(username: string, scope: string | undefined): Promise<UserRecord> {
    try {
      const created = await this.users.create('oidc', { username, ...(scope && { scope }) });
      this.ctx.log.info({ username, id: created.id }, 'single sign-on user provisioned');
      return created;
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') {
        // Two first sign-ins of the same new user race: the loser takes the winner's record.
        const raced = await this.ctx.store.users.byUsername(username);
        if (raced) return raced;
      }
      if (error instanceof AppError && error.status < 500) {
        throw new OidcError('account', error.reason ?? error.message, { cause: error });
      }
      throw error;
    }
  }

  /**
   * With an admin group configured, the provider decides who administers: members become
   * administrators and others stop being one, except the last administrator, who is kept so
   * that a group renamed at the provider cannot lock everyone out.
   */
  private async applyAdminGroup(
    user: UserRecord,
    claims: Record<string, unknown>,
  ): Promise<UserRecord> {
    const { oidcAdminGroup, oidcGroupsClaim } = this.ctx.config;
    if (!oidcAdminGroup) return user;
    const groups = claims[oidcGroupsClaim];
    const list = Array.isArray(groups) ? groups : typeof groups === 'string' ? [groups] : [];
    const member = list.includes(oidcAdminGroup);
    if (member === user.perm.admin) return user;
    if (!member) {
      const admins = (await this.ctx.store.users.list()).filter((u) => u.perm.admin);
      if (admins.length <= 1) {
        this.ctx.log.warn({ user: user.id }, 'single sign-on kept the last administrator');
        return user;
      }
    }
    const perm = member
      ? normalisePerm({ ...user.perm, admin: true })
      : { ...user.perm, admin: false };
    const updated = { ...user, perm };
    await this.ctx.store.users.update(updated);
    this.ctx.log.info({ user: user.id, admin: member }, 'single sign-on set the admin right');
    return (await this.ctx.store.users.byId(user.id)) ?? updated;
  }

  /**
   * POST /api/oidc/exchange: the one-time code of a finished sign-in for a Cabinet token (a new
   * session). Cabinet's two-factor step is skipped: the provider authenticated the user.
   */
  async exchange(code: string, sessionClient: SessionClient): Promise<string> {
    if (!this.enabled) throw errors.notFound();
    const handoff = code
      ? ((await this.ctx.store.oidc.take(sha256(code), 'handoff', this.now())) as
          Handoff | undefined)
      : undefined;
    if (!handoff) throw errors.forbidden('unknown, used or expired code');
    const user = await this.ctx.store.users.byId(handoff.userId);
    if (!user) throw errors.forbidden('the user no longer exists');
    const token = await this.auth.issueToken(user, sessionClient);
    const sessionId = decodeJwt(token).jti;
    if (sessionId) await this.ctx.store.oidc.rememberSession(sessionId, handoff.idToken);
    return token;
  }

  /**
   * POST /api/oidc/logout: ends the Cabinet session, and returns where the browser goes next: the
   * provider's end-session URL when the session came from single sign-on and the provider has
   * one, otherwise "" (the login page).
   */
  async logout(sessionId: string | null, postLogoutRedirectUri: string): Promise<string> {
    if (!sessionId) return '';
    const idToken = this.enabled ? await this.ctx.store.oidc.takeSession(sessionId) : undefined;
    await this.auth.logout(sessionId);
    if (!idToken) return '';
    try {
      const config = await this.configuration();
      if (!config.serverMetadata().end_session_endpoint) return '';
      const client = await openidClient();
      return client
        .buildEndSessionUrl(config, {
          id_token_hint: idToken,
          post_logout_redirect_uri: postLogoutRedirectUri,
        })
        .toString();
    } catch (error) {
      // The Cabinet session is over either way; the provider's stays.
      this.ctx.log.warn({ err: error }, 'single sign-on: no provider logout');
      return '';
    }
  }
}
