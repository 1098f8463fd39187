import { baseURL, pageConfig } from '../config/page-config.ts';

const STORAGE_KEY = 'jwt';

/** The token kept from an earlier visit, if any. */
export function loadStoredToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * Keeps the token for the next visit and mirrors it into the `auth` cookie, which the server
 * accepts on GET only, so that <img>, <video> and downloads are authorised without putting the
 * token in a URL. SameSite=Strict keeps other sites from riding on it.
 */
export function storeToken(token: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Private modes may refuse storage; the session then lasts for this page only.
  }
  document.cookie = `auth=${token}; ${cookieAttributes()}`;
}

/** Forgets the token and expires the cookie. */
export function clearStoredToken(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
  document.cookie = `auth=; Max-Age=0; ${cookieAttributes()}`;
}

/**
 * Secure whenever the page is on https: as this browser sees it, or as the server saw it behind a
 * TLS-terminating proxy it trusts (docs/reverse-proxy.md).
 */
function cookieAttributes(): string {
  const https = window.location.protocol === 'https:' || pageConfig.SecureCookies === true;
  const secure = https ? '; Secure' : '';
  return `Path=${baseURL}/; SameSite=Strict${secure}`;
}
