import type { GrantAccess, TokenUser } from '@cabinet/protocol';

/**
 * The user as seen inside a shared folder: their own permissions ∩ the grant's access
 * (docs/teams.md), so a read-only folder hides the actions the server would refuse. Outside
 * shared folders (`access` undefined) the user is unchanged.
 */
export function withGrant(
  user: TokenUser | null,
  access: GrantAccess | undefined,
): TokenUser | null {
  if (!user || !access) return user;
  const own = (name: keyof GrantAccess) => (user.perm.admin || user.perm[name]) && access[name];
  return {
    ...user,
    perm: {
      ...user.perm,
      // An administrator's admin flag would imply every permission again (hasPerm).
      admin: false,
      create: own('create'),
      rename: own('rename'),
      modify: own('modify'),
      delete: own('delete'),
      share: own('share'),
      download: user.perm.admin || user.perm.download,
      execute: user.perm.admin || user.perm.execute,
    },
  };
}
