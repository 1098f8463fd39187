import { hash, verify } from '@node-rs/argon2';

/** Hashes a password with argon2id (salted, slow). Plain passwords are never stored or logged. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** Checks a password against a stored hash; a malformed hash never matches. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** A fixed hash compared against when the username is unknown, so timing does not reveal users. */
let dummyHash: Promise<string> | undefined;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('cabinet-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
