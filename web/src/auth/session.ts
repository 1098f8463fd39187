import { requestLogin, requestLogout } from '../api/auth-requests.ts';
import { cancelSessionCalls, renewSession } from '../api/client.ts';
import { ApiError } from '../api/api-error.ts';
import { hasLoginPage, pageConfig } from '../config/page-config.ts';
import { requestSsoLogout } from '../features/sso/index.ts';
import { useSessionStore } from '../stores/session-store.ts';
import { isWellFormedToken } from './token-claims.ts';
import { clearStoredToken, loadStoredToken } from './token-storage.ts';

/** A stored token closer than this to its expiry is renewed before the app opens. */
const RENEW_FIRST_MS = 60_000;

/**
 * Start-up: a stored token is renewed; if none is stored nothing happens. A
 * malformed token, or one the server refuses to renew, leaves the user logged out with a console
 * warning. Without a login page (proxy and noauth methods) the app logs in with empty credentials.
 *
 * A stored token with time left opens the app at once, as the user it names, while the renewal
 * runs: on a busy server the renewal can take a second, which the first screen need not wait for.
 * The server checks every request anyway; the renewed claims (a changed permission or language)
 * replace the stored ones when it answers, and a refusal logs out then (docs/benchmarks.md,
 * "First rows without waiting").
 */
export async function restoreSession(): Promise<void> {
  const stored = loadStoredToken();
  if (stored) {
    if (!isWellFormedToken(stored)) {
      console.warn('Cabinet: the stored token is malformed; logging out');
      clearStoredToken();
    } else if (!useSessionStore.getState().setToken(stored)) {
      console.warn('Cabinet: the stored token cannot be read; logging out');
      clearStoredToken();
    } else {
      const renewed = renewSession();
      const left = useSessionStore.getState().expiresAt * 1000 - Date.now();
      // Without a login page a refused session must log in again before anything shows.
      if (left < RENEW_FIRST_MS || !hasLoginPage) await renewed;
    }
  }
  if (!useSessionStore.getState().user && !hasLoginPage) await logIn('', '', '').catch(() => {});
  watchExpiry();
}

/** Logs in and adopts the returned token. Throws ApiError (403 for wrong credentials). */
export async function logIn(
  username: string,
  password: string,
  recaptcha: string,
  otp = '',
): Promise<void> {
  const token = await requestLogin({ username, password, recaptcha, otp });
  if (!useSessionStore.getState().setToken(token)) {
    throw new ApiError(500, 'The server sent an unreadable token', 'bad-reply');
  }
}

/**
 * Ends the session: the page forgets the token and cookie, then the server revokes it. The caller
 * navigates to the login page, or to the URL returned: the provider's logout, for a session that
 * single sign-on opened (docs/sso.md). A server that cannot be reached does not keep the user
 * logged in.
 */
export async function logOut(): Promise<string> {
  const token = useSessionStore.getState().token;
  // The page lets go of the session first: what is still loading is cancelled, and nothing new
  // (the event stream's reconnect, a query) asks with a token the server is about to refuse.
  cancelSessionCalls();
  useSessionStore.getState().clear();
  if (!token) return '';
  if (pageConfig.OidcProvider) return requestSsoLogout(token).catch(() => '');
  await requestLogout(token).catch(() => {});
  return '';
}

let expiryTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Logs the user out when the token expires (a user who keeps working gets fresh tokens through
 * X-Renew-Token long before that). Browsers cap timers at ~24.8 days, hence the clamp.
 */
function watchExpiry(): void {
  useSessionStore.subscribe((state, previous) => {
    if (state.expiresAt === previous.expiresAt) return;
    scheduleExpiry(state.expiresAt);
  });
  scheduleExpiry(useSessionStore.getState().expiresAt);
}

function scheduleExpiry(expiresAt: number): void {
  clearTimeout(expiryTimer);
  if (!expiresAt) return;
  const delay = Math.min(expiresAt * 1000 - Date.now(), 2 ** 31 - 1);
  expiryTimer = setTimeout(
    () => {
      if (useSessionStore.getState().expiresAt === expiresAt) {
        console.warn('Cabinet: the session expired; logging out');
        useSessionStore.getState().clear();
      }
    },
    Math.max(delay, 0),
  );
}
