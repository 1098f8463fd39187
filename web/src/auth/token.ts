import { TokenClaims } from '@cabinet/protocol';
import { baseURL } from '../config/page-config.ts';

const STORAGE_KEY = 'jwt';

/** A token has exactly three dot-separated parts; anything else is malformed. */
export function isWellFormedToken(token: string): boolean {
  return token.split('.').length === 3;
}

function decodeBase64Url(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads the claims of a token without verifying it (the server verifies on every call); the
 * `user` claim is the client's session state. Returns null for anything that is not a Cabinet token.
 */
export function decodeToken(token: string): TokenClaims | null {
  if (!isWellFormedToken(token)) return null;
  try {
    const payload: unknown = JSON.parse(decodeBase64Url(token.split('.')[1] ?? ''));
    const parsed = TokenClaims.safeParse(payload);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

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

function cookieAttributes(): string {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  return `Path=${baseURL}/; SameSite=Strict${secure}`;
}
