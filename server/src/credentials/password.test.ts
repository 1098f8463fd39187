import { describe, expect, it } from 'vitest';
import { hash as argon2Hash } from '@node-rs/argon2';
import { hashPassword, isBcryptHash, needsRehash, verifyPassword } from './password.ts';
import { bcryptHash } from '../import/filebrowser-db.fixture.ts';

/** The hash filebrowser stored for admin/admin in server/test/fixtures/filebrowser-db. */
const FILEBROWSER_ADMIN = '$2a$10$jpEdkZl4m/A1QFGdnboHLeaxcg.F5vFbHYOdLQ.vY6bcZ.snORr5m';

describe('password hashes', () => {
  it('verify a bcrypt hash filebrowser wrote, as it is', async () => {
    expect(await verifyPassword(FILEBROWSER_ADMIN, 'admin')).toBe(true);
    expect(await verifyPassword(FILEBROWSER_ADMIN, 'Admin')).toBe(false);
  });

  // Made by another bcrypt (libxcrypt's crypt_blowfish, the code PHP's password_hash runs), so
  // verification does not merely agree with the hashing half of the same library.
  it.each([
    '$2a$05$abcdefghijklmnopqrstuuVMJuoYvK8M0I1b5rQJi2HZUjQt/fvgC',
    '$2b$05$abcdefghijklmnopqrstuuVMJuoYvK8M0I1b5rQJi2HZUjQt/fvgC',
    '$2y$05$abcdefghijklmnopqrstuuVMJuoYvK8M0I1b5rQJi2HZUjQt/fvgC',
  ])('verify %s, written by another implementation', async (hash) => {
    expect(await verifyPassword(hash, 'old password')).toBe(true);
    expect(await verifyPassword(hash, 'old passwore')).toBe(false);
  });

  it.each(['$2a$', '$2b$', '$2y$'] as const)('verify %s bcrypt hashes', async (prefix) => {
    const hash = await bcryptHash('old password', prefix);
    expect(hash.startsWith(prefix)).toBe(true);
    expect(isBcryptHash(hash)).toBe(true);
    expect(await verifyPassword(hash, 'old password')).toBe(true);
    expect(await verifyPassword(hash, 'old passwore')).toBe(false);
  });

  it('never match a malformed or unknown hash', async () => {
    const good = await bcryptHash('x');
    for (const hash of ['', 'x', good.slice(0, -1), good.replace('$2a$', '$2x$'), `${good}=`]) {
      expect(await verifyPassword(hash, 'x')).toBe(false);
    }
  });

  it("still verify Cabinet's argon2id hashes, which need no rehash", async () => {
    const hash = await hashPassword('new password');
    expect(await verifyPassword(hash, 'new password')).toBe(true);
    expect(isBcryptHash(hash)).toBe(false);
    expect(needsRehash(hash)).toBe(false);
    expect(needsRehash(FILEBROWSER_ADMIN)).toBe(true);
  });

  it('hash at 7 MiB and 5 passes, and make hashes of other settings again at the next login', async () => {
    const hash = await hashPassword('new password');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    // Cabinet's earlier hashes (the library's default, 19 MiB and 2 passes) still verify.
    const earlier = await argon2Hash('old password');
    expect(earlier).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(earlier, 'old password')).toBe(true);
    expect(needsRehash(earlier)).toBe(true);
  });
});
