// The provider ships no types: its declaration comes with this file into every project that
// compiles it (the server's and the browser tests').
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider-types.d.ts" />
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestOidcProviderOptions {
  /** Seconds an ID token lives (default one hour). */
  idTokenTtlSeconds?: number;
  /**
   * false puts the profile and group claims in the UserInfo answer only, as providers that keep
   * ID tokens small do (oidc-provider's conformIdTokenClaims); default true: in the ID token.
   */
  claimsInIdToken?: boolean;
}

/** A real OpenID provider (`oidc-provider`) on a 127.0.0.1 port, for server and browser tests. */
export interface TestOidcProvider {
  /** http://127.0.0.1:<port>: what Cabinet's `oidcIssuer` is set to. */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * Claims of the accounts by login name. The provider's development login form takes any name
   * (and any password); a name not listed here gets only `preferred_username` = the name.
   */
  readonly accounts: Map<string, Record<string, unknown>>;
  /**
   * Registers Cabinet's client, whose callback (`<cabinetUrl>/api/oidc/callback`) and post-logout
   * page (`<cabinetUrl>/login`) are known once Cabinet listens. Until then the provider answers 503.
   */
  register(cabinetUrl: string): void;
  /**
   * Signs in at the provider the way a browser would, with fetch: follows the redirects from
   * `startUrl` (Cabinet's /api/oidc/login), submits the login form as `login` and the consent form,
   * and returns the URL the provider sent the browser back to (Cabinet's callback) unvisited.
   */
  signIn(startUrl: string, login: string): Promise<string>;
  close(): Promise<void>;
}

const CLIENT_ID = 'cabinet';
const CLIENT_SECRET = 'cabinet-test-client-secret-0123456789';

/** Starts the provider; Cabinet's client is added by `register` once Cabinet's URL is known. */
export async function startOidcProvider(
  options: TestOidcProviderOptions = {},
): Promise<TestOidcProvider> {
  let handler: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server = createServer((request, response) => {
    if (handler) return handler(request, response);
    response.writeHead(503).end('the test provider has no client yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, Record<string, unknown>>();

  // Loaded here, not at the top: the test kit's other users need not load the provider (which
  // also warns, on import, that it prefers Node 22).
  const { default: Provider } = await import('oidc-provider');

  const register = (cabinetUrl: string) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [`${cabinetUrl}/api/oidc/callback`],
          post_logout_redirect_uris: [`${cabinetUrl}/login`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
      async findAccount(_ctx: unknown, id: string) {
        return {
          accountId: id,
          async claims() {
            return { sub: id, preferred_username: id, ...accounts.get(id) };
          },
        };
      },
      claims: {
        openid: ['sub'],
        // cabinet_scope: a custom claim for the scope mapping (--oidc-scope-claim).
        profile: ['preferred_username', 'name', 'cabinet_scope'],
        email: ['email'],
        groups: ['groups'],
      },
      scopes: ['openid', 'profile', 'email', 'groups'],
      conformIdTokenClaims: options.claimsInIdToken === false,
      features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
      pkce: { required: () => true },
      cookies: { keys: ['cabinet-test-provider-cookie-key'] },
      ttl: {
        IdToken: options.idTokenTtlSeconds ?? 3600,
        AccessToken: 3600,
        AuthorizationCode: 60,
        Interaction: 600,
        Session: 3600,
        Grant: 3600,
      },
    });
    handler = provider.callback();
  };

  const signIn = async (startUrl: string, login: string): Promise<string> => {
    const cookies = new Map<string, string>();
    const providerOrigin = new URL(issuer).origin;
    const request = async (url: URL, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      if (url.origin === providerOrigin && cookies.size > 0) {
        headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
      }
      const response = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
      }
      return response;
    };
    let url = new URL(startUrl);
    let response = await request(url);
    for (let step = 0; step < 20; step++) {
      if (response.status >= 300 && response.status < 400) {
        const next = new URL(response.headers.get('location')!, url);
        await response.body?.cancel();
        // Back at the client: the browser would now visit Cabinet's callback.
        if (next.origin !== providerOrigin) return next.toString();
        url = next;
        response = await request(url);
        continue;
      }
      const html = await response.text();
      if (response.status !== 200) {
        throw new Error(`the provider answered ${response.status}: ${html.slice(0, 500)}`);
      }
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`no interaction form: ${html.slice(0, 500)}`);
      const form = new URLSearchParams({ prompt });
      if (prompt === 'login') {
        form.set('login', login);
        form.set('password', 'any password');
      }
      url = new URL(action.replaceAll('&amp;', '&'), url);
      response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    }
    throw new Error('the sign-in at the provider did not end');
  };

  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    accounts,
    register,
    signIn,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
