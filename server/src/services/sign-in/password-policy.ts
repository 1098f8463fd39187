import { dictionary } from '@zxcvbn-ts/language-common';
import { errors } from '../../errors.ts';

/**
 * The ~49,000 most common passwords of zxcvbn-ts's common dictionary (lower case). Loaded once,
 * on first use, so that commands which never check a password do not pay for it.
 */
let commonPasswords: Set<string> | undefined;
function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary['passwords-common']);
  return commonPasswords.has(password.toLowerCase());
}

/**
 * Refuses passwords that are shorter than the configured minimum or appear in the list of common
 * passwords, with the messages filebrowser clients show verbatim (400 bodies).
 */
export function checkPasswordPolicy(password: string, minimumLength: number): void {
  if ([...password].length < minimumLength) {
    throw errors.badRequest(`password is too short, minimum length is ${minimumLength}`);
  }
  if (isCommonPassword(password)) throw errors.badRequest('password is too easy');
}
