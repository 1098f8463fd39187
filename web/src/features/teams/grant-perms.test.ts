import type { TokenUser } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { hasPerm } from '../../auth/permissions.ts';
import { withGrant } from './grant-perms.ts';

const perm = {
  admin: false,
  execute: false,
  create: true,
  rename: true,
  modify: true,
  delete: true,
  share: true,
  download: true,
};
const user = { id: 2, perm } as unknown as TokenUser;

describe('permissions inside a shared folder', () => {
  it("are the user's own ∩ the grant's: a view-only folder allows no writes", () => {
    const inside = withGrant(user, {
      create: false,
      rename: false,
      modify: false,
      delete: false,
      share: false,
    });
    for (const name of ['create', 'rename', 'modify', 'delete', 'share'] as const) {
      expect(hasPerm(inside, name), name).toBe(false);
    }
    expect(hasPerm(inside, 'download')).toBe(true);
  });

  it("never give what the user's own permissions lack, even for an administrator's grant", () => {
    const noDelete = { ...user, perm: { ...perm, delete: false } } as TokenUser;
    const all = { create: true, rename: true, modify: true, delete: true, share: true };
    expect(hasPerm(withGrant(noDelete, all), 'delete')).toBe(false);
    const admin = { ...user, perm: { ...perm, admin: true } } as TokenUser;
    expect(hasPerm(withGrant(admin, { ...all, delete: false }), 'delete')).toBe(false);
    expect(withGrant(user, undefined)).toBe(user);
  });
});
