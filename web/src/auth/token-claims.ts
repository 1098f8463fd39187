import { TokenClaims } from '@cabinet/protocol';

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
