import { Command } from 'commander';
import { hashPassword } from '../credentials/password.ts';
import type { CliIO } from './admin-context.ts';

/**
 * `cabinet hash-password <password>`: prints the argon2id hash Cabinet stores, e.g. to give
 * `--admin-password` an already-hashed value so the plain password never sits in a config file.
 */
export function hashPasswordCommand(io: CliIO): Command {
  return new Command('hash-password')
    .description('Print the argon2id hash of a password (usable as --admin-password)')
    .argument('<password>', 'the password to hash')
    .action(async (password: string) => {
      io.out(await hashPassword(password));
    });
}
