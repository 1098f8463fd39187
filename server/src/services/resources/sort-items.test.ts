import type { ResourceItem } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { naturalCompare, sortItems } from './sort-items.ts';

const item = (name: string, isDir = false, size = 0, modified = '2024-01-01T00:00:00Z') =>
  ({ name, isDir, size, modified }) as ResourceItem;

describe('natural order', () => {
  it('compares digit runs by value, case-insensitively', () => {
    const names = ['file10', 'File2', 'file1', 'file02', 'a', 'B', 'file', 'file1b', 'file1!'];
    expect([...names].sort(naturalCompare)).toEqual([
      'a',
      'B',
      'file',
      'file1',
      'file1!',
      'file1b',
      'File2',
      'file02',
      'file10',
    ]);
  });
});

describe('sortItems', () => {
  const items = () => [
    item('b.txt', false, 5, '2024-01-03T00:00:00Z'),
    item('Z-dir', true, 4096, '2024-01-01T00:00:00Z'),
    item('a10.txt', false, 1, '2024-01-02T00:00:00Z'),
    item('a9.txt', false, 9, '2024-01-04T00:00:00Z'),
    item('a-dir', true, 10, '2024-01-05T00:00:00Z'),
  ];
  const names = (list: ResourceItem[]) => list.map((i) => i.name);

  it('sorts by name A→Z with asc:false (inverted flag), folders first', () => {
    expect(names(sortItems(items(), { by: 'name', asc: false }))).toEqual([
      'a-dir',
      'Z-dir',
      'a9.txt',
      'a10.txt',
      'b.txt',
    ]);
    expect(names(sortItems(items(), { by: 'name', asc: true }))).toEqual([
      'Z-dir',
      'a-dir',
      'b.txt',
      'a10.txt',
      'a9.txt',
    ]);
  });

  it('sorts by size and by modified time', () => {
    expect(names(sortItems(items(), { by: 'size', asc: true }))).toEqual([
      'a-dir',
      'Z-dir',
      'a10.txt',
      'b.txt',
      'a9.txt',
    ]);
    expect(names(sortItems(items(), { by: 'size', asc: false }))).toEqual([
      'a9.txt',
      'b.txt',
      'a10.txt',
      'Z-dir',
      'a-dir',
    ]);
    expect(names(sortItems(items(), { by: 'modified', asc: false }))[0]).toBe('a-dir');
    expect(names(sortItems(items(), { by: 'modified', asc: true }))[0]).toBe('Z-dir');
  });

  it('keeps read order for an unknown field unless asc', () => {
    expect(names(sortItems(items(), { by: '', asc: false }))).toEqual(names(items()));
  });
});
