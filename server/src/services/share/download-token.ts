import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a download token of a password-protected link lasts. */
export const DOWNLOAD_TOKEN_SECONDS = 2 * 3600;

function signature(key: Uint8Array, hash: string, expires: number, passwordHash: string): string {
  // The password hash is part of what is signed: a token dies with the password it was earned by.
  return createHmac('sha256', key)
    .update(`share-download\n${hash}\n${expires}\n${passwordHash}`)
    .digest('base64url');
}

/**
 * A token for downloads after the password was given: bound to one link, valid for
 * DOWNLOAD_TOKEN_SECONDS, signed with the server key (nothing stored). The reference handed out a
 * stored token that never expired, so one leaked URL bypassed the password forever
 * (GHSA-3v48-283x-f2w4).
 */
export function issueDownloadToken(
  key: Uint8Array,
  hash: string,
  passwordHash: string,
  now: number,
): string {
  const expires = Math.floor(now / 1000) + DOWNLOAD_TOKEN_SECONDS;
  return `${expires}.${signature(key, hash, expires, passwordHash)}`;
}

/** Whether `token` was issued for this link and password and has not expired. */
export function isValidDownloadToken(
  key: Uint8Array,
  hash: string,
  passwordHash: string,
  token: string,
  now: number,
): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0) return false;
  const expires = Number(token.slice(0, dot));
  if (!Number.isSafeInteger(expires) || expires * 1000 <= now) return false;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(key, hash, expires, passwordHash));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
