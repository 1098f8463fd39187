import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id at 7 MiB, 5 passes, one lane: one of the settings OWASP's password storage cheat sheet
 * lists as equal in strength (19 MiB and 2 passes, 12 MiB and 3, 9 MiB and 4, 7 MiB and 5), the
 * one that holds least memory while a hash is made. Every login and every password set holds it
 * for the ~40 ms of the hash; at the library's default of 19 MiB a login lifted the server's RSS
 * by ~21 MiB, beyond the 200 MiB budget of issue #37 (docs/security.md, "Password hashes"). The
 * algorithm is the library's default, argon2id (its `Algorithm` is a const enum, not importable).
 */
const ARGON2 = { memoryCost: 7168, timeCost: 5, parallelism: 1 };
/** How hashes made with ARGON2 begin: any other argon2 hash is made again at the next login. */
const ARGON2_PREFIX = `$argon2id$v=19$m=${ARGON2.memoryCost},t=${ARGON2.timeCost},p=${ARGON2.parallelism}$`;

/** Hashes a password with argon2id (salted, slow). Plain passwords are never stored or logged. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/**
 * A bcrypt hash as filebrowser stores them: `$2a$` (Go's x/crypto), `$2b$`, or `$2y$` (PHP's name
 * for the same algorithm), a two-digit cost and 53 characters of salt and digest. `$2x$` (the
 * flawed pre-2011 variant) is not one.
 */
const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;

/** True for a hash in the bcrypt format accounts imported from filebrowser carry. */
export function isBcryptHash(storedHash: string): boolean {
  return BCRYPT_HASH.test(storedHash);
}

/**
 * Checks a password against a stored hash: argon2 (Cabinet's own) or bcrypt (imported from
 * filebrowser, verified as it is). A malformed hash never matches.
 */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    if (isBcryptHash(storedHash)) {
      // Only accounts imported from filebrowser have such hashes: the native module (~3 MiB of
      // RSS) is loaded at the first one, not at start.
      const bcrypt = await import('@node-rs/bcrypt');
      return await bcrypt.verify(password, storedHash);
    }
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/**
 * Whether a hash that just verified should be replaced by an argon2id hash of the same password:
 * true for anything not made by hashPassword as it is now (bcrypt hashes imported from
 * filebrowser, argon2 hashes of other settings such as Cabinet's earlier 19 MiB ones).
 */
export function needsRehash(storedHash: string): boolean {
  return !storedHash.startsWith(ARGON2_PREFIX);
}

/** A fixed hash compared against when the username is unknown, so timing does not reveal users. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('cabinet-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
