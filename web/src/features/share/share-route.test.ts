import { describe, expect, it } from 'vitest';
import { parseShareSplat, shareParent, shareRoute } from './share-route.ts';

describe('share page addresses', () => {
  it.each([
    ['abc', { hash: 'abc', sub: '/' }],
    ['abc/', { hash: 'abc', sub: '/' }],
    ['abc/sub/b.txt', { hash: 'abc', sub: '/sub/b.txt' }],
  ])('reads %s', (splat, expected) => {
    expect(parseShareSplat(splat)).toEqual(expected);
  });

  it('builds addresses with encoded names and a slash after folders', () => {
    expect(shareRoute('abc', '/a b/c#d.txt', false)).toBe('/share/abc/a%20b/c%23d.txt');
    expect(shareRoute('abc', '/sub', true)).toBe('/share/abc/sub/');
    expect(shareRoute('abc', '/', true)).toBe('/share/abc/');
  });

  it('finds the parent folder, none at the root', () => {
    expect(shareParent('/')).toBeNull();
    expect(shareParent('/sub/')).toBe('/');
    expect(shareParent('/sub/inner/')).toBe('/sub');
  });
});
