import { isBcryptHash } from '../credentials/password.ts';
import { asObject, count, text } from './json-fields.ts';

/** A filebrowser share link as Cabinet will store it, still owned by a filebrowser user id. */
export interface MappedShare {
  hash: string;
  path: string;
  sourceUserId: number;
  /** Unix seconds; 0 = never. */
  expire: number;
  /** The bcrypt hash of the link's password ('' = none), kept so the same password opens it. */
  passwordHash: string;
}

export type ShareMapping = { share: MappedShare } | { skipped: { what: string; reason: string } };

/**
 * A hash must stay the last segment of `/share/{hash}` and of the public API's paths: filebrowser
 * makes them from URL-safe base64, and anything else is refused rather than stored unreachable.
 */
const HASH = /^[A-Za-z0-9_=-]{1,128}$/;

/**
 * Maps one decoded filebrowser share link (`share.Link`: hash, path, userID, expire,
 * password_hash, token). The hash is kept as it is so old URLs keep working. The stored `token`
 * is dropped: Cabinet hands out signed download tokens that expire (docs/migrate.md). A link that
 * expired already, or whose password hash Cabinet cannot check, is skipped: importing the latter
 * without its password would open it to anyone.
 */
export function mapShare(json: unknown, label: string, nowMs: number): ShareMapping {
  const raw = asObject(json);
  if (!raw) return { skipped: { what: label, reason: 'the record is not a JSON object' } };
  const hash = text(raw, 'hash');
  const what = hash ? `share ${hash}` : label;
  if (!HASH.test(hash)) {
    return { skipped: { what, reason: 'its hash is not a URL-safe link id' } };
  }
  const path = text(raw, 'path');
  if (!path || path.includes('\0')) {
    return { skipped: { what, reason: 'it names no usable path' } };
  }
  const sourceUserId = count(raw, 'userID');
  if (sourceUserId === undefined) return { skipped: { what, reason: 'it names no owner' } };
  const expireValue = raw.expire;
  const expire =
    typeof expireValue === 'number' && Number.isSafeInteger(expireValue) && expireValue > 0
      ? expireValue
      : 0;
  if (expire !== 0 && expire * 1000 <= nowMs) {
    return { skipped: { what, reason: 'it has expired' } };
  }
  const passwordHash = text(raw, 'password_hash');
  if (passwordHash && !isBcryptHash(passwordHash)) {
    return {
      skipped: { what, reason: 'its password hash is not one Cabinet can check' },
    };
  }
  return { share: { hash, path, sourceUserId, expire, passwordHash } };
}
