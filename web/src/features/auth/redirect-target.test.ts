import { describe, expect, it } from 'vitest';
import { loginUrlFor, safeRedirectTarget } from './redirect-target.ts';

describe('safeRedirectTarget', () => {
  it.each(['/files/', '/settings/profile?x=1#y', '/files/a%20b/'])('keeps %s', (value) => {
    expect(safeRedirectTarget(value)).toBe(value);
  });

  it.each([null, '', 'files/', '//evil.example/', '/\\evil.example', 'https://evil.example/'])(
    'drops %s',
    (value) => {
      expect(safeRedirectTarget(value)).toBeNull();
    },
  );

  it('builds the login URL with the encoded full path', () => {
    expect(loginUrlFor('/files/a b/?q=1')).toBe('/login?redirect=%2Ffiles%2Fa%20b%2F%3Fq%3D1');
  });
});
