import { errors } from '../../errors.ts';

/**
 * The ~49,000 most common passwords of zxcvbn-ts's common dictionary (lower case). Imported and
 * loaded once, on first use: the dictionaries are ~9 MiB of heap that a server which never sets
 * a password (and every command) would otherwise hold from its start (docs/benchmarks.md).
 */
let commonPasswords: Promise<Set<string>> | undefined;
async function isCommonPassword(password: string): Promise<boolean> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common']),
  );
  return (await commonPasswords).has(password.toLowerCase());
}

/**
 * Refuses passwords that are shorter than the configured minimum or appear in the list of common
 * passwords, with the messages filebrowser clients show verbatim (400 bodies).
 */
export async function checkPasswordPolicy(password: string, minimumLength: number): Promise<void> {
  if ([...password].length < minimumLength) {
    throw errors.badRequest(`password is too short, minimum length is ${minimumLength}`);
  }
  if (await isCommonPassword(password)) throw errors.badRequest('password is too easy');
}
