import { describe, expect, it } from 'vitest';
import { decodeToken, isWellFormedToken } from './token-claims.ts';

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const user = {
  id: 3,
  locale: 'pt-br',
  viewMode: 'list',
  singleClick: false,
  redirectAfterCopyMove: true,
  perm: {
    admin: false,
    execute: false,
    create: true,
    rename: true,
    modify: true,
    delete: true,
    share: true,
    download: true,
  },
  commands: [],
  lockPassword: false,
  hideDotfiles: false,
  dateFormat: false,
  username: 'zoë',
  aceEditorTheme: '',
};

const tokenWith = (payload: unknown) =>
  `${base64url('{"alg":"HS256"}')}.${base64url(JSON.stringify(payload))}.signature`;

describe('decodeToken', () => {
  it('reads the user claim and expiry (UTF-8 names included)', () => {
    const claims = decodeToken(tokenWith({ user, iat: 1, exp: 2 }));
    expect(claims?.user.username).toBe('zoë');
    expect(claims?.exp).toBe(2);
  });

  it.each([
    ['two parts', 'a.b'],
    ['four parts', 'a.b.c.d'],
    ['not base64 JSON', 'a.!!!.c'],
    ['no user claim', tokenWith({ iat: 1, exp: 2 })],
    ['no expiry', tokenWith({ user, iat: 1 })],
    [
      'a user without permissions',
      tokenWith({ user: { ...user, perm: undefined }, iat: 1, exp: 2 }),
    ],
  ])('refuses %s', (_label, token) => {
    expect(decodeToken(token)).toBeNull();
  });

  it('calls a token malformed unless it has three parts', () => {
    expect(isWellFormedToken('a.b.c')).toBe(true);
    expect(isWellFormedToken('abc')).toBe(false);
    expect(isWellFormedToken('a.b.c.d')).toBe(false);
  });
});
