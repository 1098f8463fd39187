import type { Perm, TokenUser } from '@cabinet/protocol';

/** Whether the user holds a permission; admin implies every other one. */
export function hasPerm(user: TokenUser | null, name: keyof Perm): boolean {
  if (!user) return false;
  return user.perm.admin || user.perm[name];
}
