import { describe, expect, it } from 'vitest';
import {
  LoginRequest,
  PERM_NAMES,
  Resource,
  Settings,
  Sorting,
  TokenClaims,
  User,
  UserWriteRequest,
} from './index.ts';

const perm = {
  admin: false,
  execute: true,
  create: true,
  rename: true,
  modify: true,
  delete: true,
  share: true,
  download: true,
};

describe('protocol schemas', () => {
  it('fill the defaults of the login body', () => {
    expect(LoginRequest.parse({})).toEqual({
      username: '',
      password: '',
      recaptcha: '',
      otp: '',
    });
    expect(LoginRequest.safeParse({ username: 1 }).success).toBe(false);
  });

  it('name the eight permissions in order', () => {
    expect(PERM_NAMES).toEqual([
      'admin',
      'execute',
      'create',
      'rename',
      'modify',
      'delete',
      'share',
      'download',
    ]);
  });

  it('check lengths and integers', () => {
    expect(Sorting.safeParse({ by: 'name', asc: true }).success).toBe(true);
    expect(Sorting.safeParse({ by: 'x'.repeat(33), asc: true }).success).toBe(false);
    const user = {
      id: 1,
      username: 'ann',
      password: '',
      scope: '.',
      locale: 'en',
      lockPassword: false,
      viewMode: 'list',
      singleClick: false,
      redirectAfterCopyMove: true,
      perm,
      commands: [],
      sorting: { by: 'name', asc: false },
      rules: [{ regex: false, allow: true, path: '/a', regexp: null }],
      hideDotfiles: false,
      dateFormat: false,
      aceEditorTheme: '',
    };
    expect(User.parse(user)).toEqual(user);
    expect(User.safeParse({ ...user, id: 1.5 }).success).toBe(false);
    expect(User.safeParse({ ...user, id: -1 }).success).toBe(false);
  });

  it('accept partial user writes and default `which`', () => {
    const request = UserWriteRequest.parse({
      what: 'user',
      data: { perm: { admin: true }, sorting: { asc: true } },
    });
    expect(request).toEqual({
      what: 'user',
      which: [],
      data: { perm: { admin: true }, sorting: { asc: true } },
    });
    expect(UserWriteRequest.safeParse({ what: 'user', data: { perm: { admin: 1 } } }).success).toBe(
      false,
    );
  });

  it('read listings with optional fields and drop unknown keys', () => {
    const item = {
      path: '/a',
      name: 'a',
      size: 0,
      extension: '',
      modified: '2026-01-01T00:00:00Z',
      mode: 2147484141,
      isDir: true,
      isSymlink: false,
      type: '',
    };
    expect(Resource.parse({ ...item, items: [item], numDirs: 1, extra: true })).toEqual({
      ...item,
      items: [item],
      numDirs: 1,
    });
    expect(Resource.safeParse({ ...item, items: [{ ...item, size: '0' }] }).success).toBe(false);
  });

  it('refuse settings with a negative or fractional number', () => {
    const result = Settings.safeParse({ minimumPasswordLength: -1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((issue) => issue.path[0] === 'minimumPasswordLength')).toBe(
      true,
    );
  });

  it('read token claims', () => {
    const user = {
      id: 1,
      locale: 'en',
      viewMode: 'list',
      singleClick: false,
      redirectAfterCopyMove: true,
      perm,
      commands: [],
      lockPassword: false,
      hideDotfiles: false,
      dateFormat: false,
      username: 'ann',
      aceEditorTheme: '',
    };
    expect(TokenClaims.safeParse({ user, iat: 1, exp: 2 }).success).toBe(true);
    expect(TokenClaims.safeParse({ user, iat: 1 }).success).toBe(false);
  });
});
