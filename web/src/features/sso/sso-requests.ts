import { OidcLogoutResponse } from '@cabinet/protocol';
import { apiJson, apiText, apiUrl } from '../../api/client.ts';

/** Where the "Sign in with …" button leads: the server redirects on to the provider. */
export function ssoLoginUrl(returnTo: string): string {
  return `${apiUrl('/oidc/login')}?redirect=${encodeURIComponent(returnTo)}`;
}

/** POST /api/oidc/exchange: the one-time code of a finished sign-in for a token. */
export async function requestSsoExchange(code: string): Promise<string> {
  const token = await apiText('/oidc/exchange', {
    method: 'POST',
    json: { code },
    withToken: false,
  });
  return token.trim();
}

/** POST /api/oidc/logout: ends the session; the answer is the provider's logout URL, or "". */
export async function requestSsoLogout(token: string): Promise<string> {
  return (await apiJson('/oidc/logout', OidcLogoutResponse, { method: 'POST', token })).redirect;
}
