import type { ResourceItem } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { neighboursOf } from './neighbours.ts';

const item = (name: string, type: string, isDir = false): ResourceItem => ({
  path: `/f/${name}`,
  name,
  size: 1,
  extension: '',
  modified: '2026-01-01T00:00:00Z',
  mode: 420,
  isDir,
  isSymlink: false,
  type,
});

const items = [
  item('sub', '', true),
  item('a.jpg', 'image'),
  item('b.txt', 'text'),
  item('c.pdf', 'pdf'),
  item('d.mp4', 'video'),
  item('e.bin', 'blob'),
  item('f.md', 'text'),
];

describe('preview neighbours', () => {
  it('skips text, PDF and folders', () => {
    const { previous, next } = neighboursOf(items, '/f/c.pdf');
    expect(previous?.name).toBe('a.jpg');
    expect(next?.name).toBe('d.mp4');
  });

  it('has no previous at the start and no next at the end', () => {
    expect(neighboursOf(items, '/f/a.jpg')).toEqual({ previous: undefined, next: items[4] });
    expect(neighboursOf(items, '/f/e.bin').next).toBeUndefined();
    expect(neighboursOf(items, '/f/f.md').previous?.name).toBe('e.bin');
  });

  it('has none for a file missing from the listing', () => {
    expect(neighboursOf(items, '/f/gone.jpg')).toEqual({});
  });
});
