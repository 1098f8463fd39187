import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OIDC_CODE_FRAGMENT, OidcLogoutResponse } from '@cabinet/protocol';
import type { ServerConfig } from '../src/config/options.ts';
import {
  startOidcProvider,
  type TestOidcProvider,
  type TestOidcProviderOptions,
} from '../testing/oidc-provider.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { captureLog } from './helpers/log-capture.ts';
import { fakeDist, pageConfigOf } from './helpers/web-dist.ts';

interface Setup {
  provider: TestOidcProvider;
  server: TestServer;
  lines: string[];
}

/** A provider and a Cabinet that trusts it, started in the test and stopped after it. */
const running: Setup[] = [];
async function setUp(
  config: Partial<ServerConfig> = {},
  providerOptions: TestOidcProviderOptions = {},
  now?: () => number,
): Promise<Setup> {
  const provider = await startOidcProvider(providerOptions);
  const { log, lines } = captureLog('warn');
  const server = await startTestServer({
    log,
    now,
    config: {
      oidcIssuer: provider.issuer,
      oidcClientId: provider.clientId,
      oidcClientSecret: provider.clientSecret,
      oidcScopes: 'openid profile email groups',
      ...config,
    },
  });
  provider.register(server.url);
  const setup = { provider, server, lines };
  running.push(setup);
  return setup;
}

afterEach(async () => {
  for (const { provider, server } of running.splice(0)) {
    await server.close();
    await provider.close();
  }
});

/** The login page's `sso_error` of a redirect, or null. */
function failureOf(response: Response): string | null {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!, 'http://x');
  expect(location.pathname).toBe('/login');
  return location.searchParams.get('sso_error');
}

/** The one-time code in the fragment of the callback's redirect. */
function codeOf(response: Response): string {
  expect(response.status).toBe(302);
  const location = new URL(response.headers.get('location')!, 'http://x');
  expect(location.pathname).toBe('/login');
  const code = new URLSearchParams(location.hash.slice(1)).get(OIDC_CODE_FRAGMENT);
  expect(code).toBeTruthy();
  return code!;
}

const exchange = (server: TestServer, code: string) =>
  server.fetch('/api/oidc/exchange', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'oidc-test' },
    body: JSON.stringify({ code }),
  });

/** Signs in through the provider as `login`; returns the callback's answer. */
async function signIn({ provider, server }: Setup, login: string): Promise<Response> {
  const callback = await provider.signIn(`${server.url}/api/oidc/login`, login);
  expect(callback.startsWith(`${server.url}/api/oidc/callback?`)).toBe(true);
  return fetch(callback, { redirect: 'manual' });
}

/** The whole flow: the provider, the callback, the exchange; returns Cabinet's token. */
async function tokenFor(setup: Setup, login: string): Promise<string> {
  const response = await exchange(setup.server, codeOf(await signIn(setup, login)));
  expect(response.status).toBe(200);
  return (await response.text()).trim();
}

async function me(server: TestServer, token: string) {
  const response = await server.fetch('/api/renew', { method: 'POST', token });
  expect(response.status).toBe(200);
  const payload = JSON.parse(
    Buffer.from((await response.text()).split('.')[1]!, 'base64url').toString(),
  ) as { user: { username: string; perm: { admin: boolean } } };
  return payload.user;
}

describe('single sign-on (OpenID Connect)', () => {
  it('signs a new user in through the provider, created from the defaults', async () => {
    const setup = await setUp();
    const { server } = setup;
    await server.updateSettings({
      defaults: { ...(await server.ctx.settings.get()).defaults, locale: 'de' },
    });
    const token = await tokenFor(setup, 'alice');
    const user = await server.ctx.store.users.byUsername('alice');
    expect(user).toBeDefined();
    expect(user!.locale).toBe('de');
    expect(user!.perm.admin).toBe(false);
    // The password is random and locked: the account signs in only through the provider.
    expect(user!.lockPassword).toBe(true);
    const listed = await server.fetch('/api/resources/', { token });
    expect(listed.status).toBe(200);
    expect((await me(server, token)).username).toBe('alice');
    // The session shows in the Sessions card like any other.
    const sessions = await server.ctx.store.sessions.listActive(user!.id);
    expect(sessions.map((s) => s.userAgent)).toEqual(['oidc-test']);
  });

  it('takes the user name from the UserInfo answer when the ID token lacks it', async () => {
    const setup = await setUp({}, { claimsInIdToken: false });
    setup.provider.accounts.set('sub-123', { preferred_username: 'bruno' });
    await tokenFor(setup, 'sub-123');
    expect(await setup.server.ctx.store.users.byUsername('bruno')).toBeDefined();
    expect(await setup.server.ctx.store.users.byUsername('sub-123')).toBeUndefined();
  });

  it('matches an existing user by name instead of creating another', async () => {
    const setup = await setUp();
    const existing = await setup.server.createUser({ username: 'carol' });
    const before = (await setup.server.ctx.store.users.list()).length;
    await tokenFor(setup, 'carol');
    await tokenFor(setup, 'carol');
    const users = await setup.server.ctx.store.users.list();
    expect(users).toHaveLength(before);
    expect(users.filter((u) => u.username === 'carol').map((u) => u.id)).toEqual([
      existing.user.id,
    ]);
  });

  it('makes members of the admin group administrators, and others not', async () => {
    const setup = await setUp({ oidcAdminGroup: 'cabinet-admins' });
    setup.provider.accounts.set('dora', { groups: ['staff', 'cabinet-admins'] });
    setup.provider.accounts.set('ed', { groups: ['staff'] });
    const dora = await tokenFor(setup, 'dora');
    expect((await me(setup.server, dora)).perm.admin).toBe(true);
    const users = await setup.server.fetch('/api/users', { token: dora });
    expect(users.status).toBe(200);
    const ed = await tokenFor(setup, 'ed');
    expect((await me(setup.server, ed)).perm.admin).toBe(false);
    expect((await setup.server.fetch('/api/users', { token: ed })).status).toBe(403);

    // Leaving the group at the provider takes the right away at the next sign-in.
    setup.provider.accounts.set('dora', { groups: ['staff'] });
    await tokenFor(setup, 'dora');
    const record = await setup.server.ctx.store.users.byUsername('dora');
    expect(record!.perm.admin).toBe(false);
  });

  it('gives a new user the scope named by the scope claim, and the defaults without one', async () => {
    const setup = await setUp({ oidcScopeClaim: 'cabinet_scope' });
    setup.provider.accounts.set('hana', { cabinet_scope: '/teams/blue' });
    setup.provider.accounts.set('ivo', { cabinet_scope: 42 });
    await tokenFor(setup, 'hana');
    await tokenFor(setup, 'ivo');
    const hana = await setup.server.ctx.store.users.byUsername('hana');
    expect(hana!.scope).toBe('/teams/blue');
    const ivo = await setup.server.ctx.store.users.byUsername('ivo');
    const defaults = (await setup.server.ctx.settings.get()).defaults;
    expect(ivo!.scope).not.toBe('42');
    expect(ivo!.scope).toBe(defaults.scope);
  });

  it('without an admin group, leaves admin rights to Cabinet', async () => {
    const setup = await setUp();
    setup.provider.accounts.set('fay', { groups: ['cabinet-admins'] });
    expect((await me(setup.server, await tokenFor(setup, 'fay'))).perm.admin).toBe(false);
    const admin = await tokenFor(setup, setup.server.admin.user.username);
    expect((await me(setup.server, admin)).perm.admin).toBe(true);
  });

  it('refuses an unknown user when auto-create is off, and lets a known one in', async () => {
    const setup = await setUp({ oidcAutoCreate: false });
    const before = (await setup.server.ctx.store.users.list()).length;
    expect(failureOf(await signIn(setup, 'gus'))).toBe('no-account');
    expect(await setup.server.ctx.store.users.byUsername('gus')).toBeUndefined();
    expect(await setup.server.ctx.store.users.list()).toHaveLength(before);

    await setup.server.createUser({ username: 'gus' });
    await tokenFor(setup, 'gus');
  });

  it('refuses a wrong state, and a state used a second time', async () => {
    const setup = await setUp();
    const callback = await setup.provider.signIn(`${setup.server.url}/api/oidc/login`, 'hal');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state');
    expect(failureOf(await fetch(forged, { redirect: 'manual' }))).toBe('state');
    const noState = new URL(callback);
    noState.searchParams.delete('state');
    expect(failureOf(await fetch(noState, { redirect: 'manual' }))).toBe('state');

    // The real answer works once; replayed, its state is gone.
    codeOf(await fetch(callback, { redirect: 'manual' }));
    expect(failureOf(await fetch(callback, { redirect: 'manual' }))).toBe('state');
  });

  it('refuses a state older than ten minutes', async () => {
    let offset = 0;
    const setup = await setUp({}, {}, () => Date.now() + offset);
    const callback = await setup.provider.signIn(`${setup.server.url}/api/oidc/login`, 'ida');
    offset = 11 * 60 * 1000;
    expect(failureOf(await fetch(callback, { redirect: 'manual' }))).toBe('state');
    expect(await setup.server.ctx.store.users.byUsername('ida')).toBeUndefined();
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const setup = await setUp();
    const callback = await setup.provider.signIn(`${setup.server.url}/api/oidc/login`, 'jo');
    const state = new URL(callback).searchParams.get('state')!;
    // The stored sign-in expects another nonce than the one the provider put in the token.
    const stored = (await setup.server.ctx.store.oidc.take(state, 'login', Date.now())) as Record<
      string,
      unknown
    >;
    await setup.server.ctx.store.oidc.put(
      state,
      'login',
      { ...stored, nonce: 'another-nonce' },
      Date.now() + 60_000,
      Date.now(),
    );
    expect(failureOf(await fetch(callback, { redirect: 'manual' }))).toBe('verify');
    expect(setup.lines.join('')).toContain('"claim":"nonce"');
    expect(await setup.server.ctx.store.users.byUsername('jo')).toBeUndefined();
  });

  it('refuses an expired ID token', async () => {
    let offset = 0;
    const setup = await setUp({}, { idTokenTtlSeconds: 60 }, () => Date.now() + offset);
    const callback = await setup.provider.signIn(`${setup.server.url}/api/oidc/login`, 'kim');
    // Two minutes later by Cabinet's clock (the state is still young): the token has expired.
    offset = 2 * 60 * 1000;
    expect(failureOf(await fetch(callback, { redirect: 'manual' }))).toBe('verify');
    expect(setup.lines.join('')).toContain('"claim":"exp"');
    expect(await setup.server.ctx.store.users.byUsername('kim')).toBeUndefined();
  });

  it('names a refusal at the provider', async () => {
    const setup = await setUp();
    const login = await setup.server.fetch('/api/oidc/login');
    const state = new URL(login.headers.get('location')!).searchParams.get('state')!;
    const denied = await setup.server.fetch(
      `/api/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(setup.provider.issuer)}`,
    );
    expect(failureOf(denied)).toBe('denied');
  });

  it('hands a session over once, with a code of the callback only', async () => {
    const setup = await setUp();
    const code = codeOf(await signIn(setup, 'lou'));
    expect((await exchange(setup.server, 'made-up')).status).toBe(403);
    expect((await exchange(setup.server, '')).status).toBe(403);
    const bad = await setup.server.fetch('/api/oidc/exchange', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 42 }),
    });
    expect(bad.status).toBe(400);
    expect((await exchange(setup.server, code)).status).toBe(200);
    expect((await exchange(setup.server, code)).status).toBe(403);
  });

  it('refuses a code that was not exchanged within a minute', async () => {
    let offset = 0;
    const setup = await setUp({}, {}, () => Date.now() + offset);
    const code = codeOf(await signIn(setup, 'max'));
    offset = 2 * 60 * 1000;
    expect((await exchange(setup.server, code)).status).toBe(403);
  });

  it('asks the provider with PKCE, state and nonce, and returns to a path of the app only', async () => {
    const setup = await setUp();
    const login = await setup.server.fetch('/api/oidc/login');
    expect(login.status).toBe(302);
    const url = new URL(login.headers.get('location')!);
    expect(url.origin).toBe(setup.provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${setup.server.url}/api/oidc/callback`);
    for (const name of ['state', 'nonce', 'code_challenge']) {
      expect(url.searchParams.get(name)?.length).toBeGreaterThanOrEqual(32);
    }
    expect(url.searchParams.get('scope')).toBe('openid profile email groups');

    const returnTo = async (redirect: string) => {
      const start = `${setup.server.url}/api/oidc/login?redirect=${encodeURIComponent(redirect)}`;
      const callback = await setup.provider.signIn(start, 'ned');
      const done = await fetch(callback, { redirect: 'manual' });
      const location = new URL(done.headers.get('location')!, 'http://x');
      return new URLSearchParams(location.hash.slice(1)).get('redirect');
    };
    expect(await returnTo('/files/docs/')).toBe('/files/docs/');
    expect(await returnTo('//evil.example/')).toBe('/');
    expect(await returnTo('https://evil.example/')).toBe('/');
  });

  it('tells the login page the provider, and keeps password sign-in working', async () => {
    const setup = await setUp({ oidcButtonLabel: 'Authelia', webDist: await fakeDist() });
    const page = pageConfigOf(await (await setup.server.fetch('/login')).text());
    expect(page.OidcProvider).toBe('Authelia');
    const login = await setup.server.fetch('/api/login', {
      method: 'POST',
      body: JSON.stringify({
        username: setup.server.admin.user.username,
        password: setup.server.admin.password,
      }),
    });
    expect(login.status).toBe(200);
  });

  it('ends the Cabinet session at logout and sends the browser to the provider', async () => {
    const setup = await setUp();
    const token = await tokenFor(setup, 'olga');
    const response = await setup.server.fetch('/api/oidc/logout', { method: 'POST', token });
    expect(response.status).toBe(200);
    const { redirect } = OidcLogoutResponse.parse(await response.json());
    const url = new URL(redirect);
    expect(url.origin).toBe(setup.provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${setup.server.url}/login`);
    // The provider knows the hint: its logout page asks to confirm, rather than an error.
    const providerPage = await fetch(url);
    expect(providerPage.status).toBe(200);
    // (a form that posts the confirmation at once: a wrong hint would be an error page)
    expect(await providerPage.text()).toContain('/session/end/confirm');
    expect((await setup.server.fetch('/api/resources/', { token })).status).toBe(401);
  });

  it('logs a password session out without sending it to the provider', async () => {
    const setup = await setUp();
    const token = setup.server.admin.token;
    const response = await setup.server.fetch('/api/oidc/logout', { method: 'POST', token });
    expect(OidcLogoutResponse.parse(await response.json()).redirect).toBe('');
    expect((await setup.server.fetch('/api/resources/', { token })).status).toBe(401);
    expect((await setup.server.fetch('/api/oidc/logout', { method: 'POST' })).status).toBe(401);
  });

  it('says when the provider cannot be reached', async () => {
    const provider = await startOidcProvider();
    const issuer = provider.issuer;
    await provider.close();
    const server = await startTestServer({
      config: { oidcIssuer: issuer, oidcClientId: 'cabinet' },
    });
    try {
      expect(failureOf(await server.fetch('/api/oidc/login'))).toBe('unavailable');
    } finally {
      await server.close();
    }
  });
});

describe('single sign-on when it is not configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { webDist: await fakeDist() } });
  });
  afterAll(async () => server.close());

  it('has no routes and no button', async () => {
    expect((await server.fetch('/api/oidc/login')).status).toBe(404);
    expect((await server.fetch('/api/oidc/callback?state=x&code=y')).status).toBe(404);
    expect((await exchange(server, 'x')).status).toBe(404);
    expect(pageConfigOf(await (await server.fetch('/login')).text())).not.toHaveProperty(
      'OidcProvider',
    );
  });
});
