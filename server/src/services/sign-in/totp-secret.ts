import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * TOTP secrets are stored encrypted (AES-256-GCM) with a key derived from the signing key, so a
 * copy of the users' rows alone (a leaked backup of one table, a log of a query) does not give
 * away anyone's second factor. The signing key lives in the same database; this protects against
 * partial leaks, not against a full copy of the database.
 */
function keyFrom(signingKey: Uint8Array): Buffer {
  return Buffer.from(
    hkdfSync('sha256', signingKey, Buffer.alloc(0), 'cabinet two-factor secret', 32),
  );
}

/** "v1.<iv>.<tag>.<ciphertext>", each part base64url. */
export function encryptSecret(signingKey: Uint8Array, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(signingKey), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v1', iv, tag, data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decryptSecret(signingKey: Uint8Array, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined)
    throw new Error('unknown secret format');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    keyFrom(signingKey),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
