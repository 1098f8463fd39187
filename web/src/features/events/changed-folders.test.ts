import { describe, expect, it } from 'vitest';
import { isAffected, parentOf } from './changed-folders.ts';

describe('which shown resources a change on disk affects', () => {
  it('finds the parent folder of a path', () => {
    expect(parentOf('/a.txt')).toBe('/');
    expect(parentOf('/docs/a.txt')).toBe('/docs');
    expect(parentOf('/docs/sub/')).toBe('/docs');
  });

  it('re-reads the folder holding the changed entry, the entry itself and what lies below a changed folder', () => {
    expect(isAffected('/docs/', '/docs/new.txt')).toBe(true);
    expect(isAffected('/', '/new.txt')).toBe(true);
    expect(isAffected('/docs/a.txt', '/docs/a.txt')).toBe(true);
    expect(isAffected('/docs/sub/deep/', '/docs')).toBe(true);
    expect(isAffected('/docs/', '/')).toBe(true);
  });

  it('leaves other folders alone', () => {
    expect(isAffected('/docs/', '/docs/sub/deep.txt')).toBe(false);
    expect(isAffected('/docs/', '/documents/a.txt')).toBe(false);
    expect(isAffected('/docs/', '/other/a.txt')).toBe(false);
    expect(isAffected('/', '/docs/a.txt')).toBe(false);
  });
});
