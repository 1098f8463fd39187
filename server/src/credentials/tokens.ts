import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { TokenClaims, type TokenUser } from '@cabinet/protocol';
import type { UserRecord } from '../store/users.repo.ts';

export const TOKEN_ISSUER = 'File Browser';

/** Generates a new 64-byte signing key (kept base64 in the store). */
export function generateSigningKey(): string {
  return randomBytes(64).toString('base64');
}

/** The `user` claim: what clients decode for their session. */
export function tokenUser(user: UserRecord): TokenUser {
  return {
    id: user.id,
    locale: user.locale,
    viewMode: user.viewMode,
    singleClick: user.singleClick,
    redirectAfterCopyMove: user.redirectAfterCopyMove,
    perm: user.perm,
    commands: user.commands,
    lockPassword: user.lockPassword,
    hideDotfiles: user.hideDotfiles,
    dateFormat: user.dateFormat,
    username: user.username,
    aceEditorTheme: user.aceEditorTheme,
  };
}

export interface SignedToken {
  token: string;
  sessionId: string;
  expiresAt: number;
}

/** Signs an HS256 token for a user and a session id (a new one unless given). */
export async function signToken(
  key: Uint8Array,
  user: UserRecord,
  lifetimeSeconds: number,
  sessionId: string = randomUUID(),
  issuedAtMs: number = Date.now(),
): Promise<SignedToken> {
  const now = Math.floor(issuedAtMs / 1000);
  const exp = now + Math.max(1, Math.round(lifetimeSeconds));
  const token = await new SignJWT({ user: tokenUser(user) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .setJti(sessionId)
    .sign(key);
  return { token, sessionId, expiresAt: exp * 1000 };
}

export type TokenCheck =
  { ok: true; claims: TokenClaims } | { ok: false; reason: 'malformed' | 'expired' | 'invalid' };

/**
 * Verifies a token: exactly three parts, HS256 only (so `alg: none` and key-confusion tokens fail),
 * a valid signature, an `exp` in the future and the expected claim shape.
 */
export async function verifyToken(key: Uint8Array, token: string): Promise<TokenCheck> {
  if (token.split('.').length !== 3) return { ok: false, reason: 'malformed' };
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
    });
    const parsed = TokenClaims.safeParse(payload);
    return parsed.success ? { ok: true, claims: parsed.data } : { ok: false, reason: 'invalid' };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) return { ok: false, reason: 'expired' };
    return { ok: false, reason: 'invalid' };
  }
}
