import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { seededRandom } from '../../testing/seeded-random.ts';
import { canonicalPath, isRealInside, isVirtualInside, virtualParent } from './canonical-path.ts';

const PIECES = [
  '..',
  '.',
  '',
  'a',
  'b',
  '..\\',
  '\\',
  '/',
  '//',
  'etc',
  '%2e%2e',
  '...',
  '.hidden',
  ' ',
  'ü',
];

describe('canonicalPath', () => {
  it.each([
    ['', '/', false],
    ['/', '/', false],
    ['a', '/a', false],
    ['/a/b/', '/a/b', true],
    ['/a/./b', '/a/b', false],
    ['/a//b', '/a/b', false],
    ['//etc/passwd', '/etc/passwd', false],
    ['/a/../b', '/b', false],
    ['../../etc/passwd', '/etc/passwd', false],
    ['/../../../', '/', false],
    // Backslashes are ordinary characters of names: `..\\..\\x` is one name, not two steps up.
    ['..\\..\\windows', '/..\\..\\windows', false],
    ['a\\b\\', '/a\\b\\', false],
    ['/a\\/', '/a\\', true],
    ['/x/..\\../y', '/x/..\\../y', false],
    ['/a/b/..', '/a', false],
    ['/a/b/../', '/a', true],
    ['/%2e%2e/x', '/%2e%2e/x', false],
    ['/...', '/...', false],
  ])('canonicalises %j to %j (trailing slash %s)', (raw, expected, trailing) => {
    const result = canonicalPath(raw);
    expect(result.path).toBe(expected);
    expect(result.trailingSlash).toBe(trailing);
    expect(result.segments.join('/')).toBe(expected.slice(1));
  });

  it.each(['\0', '/a\0b', '/a/\0/../b'])('refuses NUL bytes in %j with 400', (raw) => {
    expect(() => canonicalPath(raw)).toThrow(AppError);
    try {
      canonicalPath(raw);
    } catch (error) {
      expect((error as AppError).status).toBe(400);
    }
  });

  it('never decodes percent escapes a second time', () => {
    expect(canonicalPath('/%252e%252e/%2e%2e').path).toBe('/%252e%252e/%2e%2e');
  });

  it('keeps every generated path inside the root (property, 3000 runs)', () => {
    const random = seededRandom(42); // repeatable runs
    const root = '/srv/root';
    for (let run = 0; run < 3000; run++) {
      const count = Math.floor(random() * 10);
      let raw = '';
      for (let i = 0; i < count; i++) {
        raw += PIECES[Math.floor(random() * PIECES.length)];
        if (random() < 0.7) raw += random() < 0.5 ? '/' : '\\';
      }
      const { path: virtual, segments } = canonicalPath(raw);
      expect(virtual.startsWith('/')).toBe(true);
      expect(segments).not.toContain('..');
      expect(segments).not.toContain('.');
      expect(segments).not.toContain('');
      // A backslash may remain, but only inside a name: no segment is ever a step up.
      expect(segments.every((segment) => segment !== '..' && !segment.includes('/'))).toBe(true);
      const real = path.join(root, ...segments);
      expect(isRealInside(real, root)).toBe(true);
      // Canonicalisation is idempotent.
      expect(canonicalPath(virtual).path).toBe(virtual);
    }
  });
});

describe('path containment', () => {
  it.each([
    ['/uploads/x', '/uploads', true],
    ['/uploads', '/uploads', true],
    ['/uploads_backup', '/uploads', false],
    ['/anything', '/', true],
  ])('%j inside %j is %s', (inner, outer, expected) => {
    expect(isVirtualInside(inner, outer)).toBe(expected);
  });

  it('compares real paths on segment boundaries', () => {
    expect(isRealInside('/srv/root', '/srv/root')).toBe(true);
    expect(isRealInside('/srv/root/a', '/srv/root')).toBe(true);
    expect(isRealInside('/srv/root2', '/srv/root')).toBe(false);
    expect(isRealInside('/srv', '/srv/root')).toBe(false);
  });

  it('finds parents', () => {
    expect(virtualParent('/a/b')).toBe('/a');
    expect(virtualParent('/a')).toBe('/');
    expect(virtualParent('/')).toBe('/');
  });
});
