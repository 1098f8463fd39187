import type { LoginRequest, SignupRequest } from '@cabinet/protocol';
import { apiRequest, apiText } from './client.ts';

/** POST /api/login: the reply body is the token. 403 means wrong credentials or a failed bot-check. */
export async function requestLogin(credentials: LoginRequest): Promise<string> {
  const token = await apiText('/login', { method: 'POST', json: credentials, withToken: false });
  return token.trim();
}

/** POST /api/signup: 200 creates the account (no token; log in afterwards), 409 means the name is taken. */
export async function requestSignup(account: SignupRequest): Promise<void> {
  await apiRequest('/signup', { method: 'POST', json: account, withToken: false });
}

/** POST /api/logout: revokes the session of `token` on the server. */
export async function requestLogout(token: string): Promise<void> {
  await apiRequest('/logout', { method: 'POST', token });
}
