import type { ResourceItem } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { mosaicColumns, tabStopOf } from './listing-layout.ts';
import { asFolderPath, orderEntries, viewModeOf } from './listing-order.ts';

const entry = (name: string, isDir: boolean): ResourceItem => ({
  path: `/${name}`,
  name,
  size: 0,
  extension: '',
  modified: '2026-01-01T00:00:00Z',
  mode: 0,
  isDir,
  isSymlink: false,
  type: isDir ? '' : 'text',
});

describe('mosaicColumns', () => {
  it.each([
    [0, 1],
    [299, 1],
    [300, 1],
    [599, 1],
    [600, 2],
    [992, 3],
    [1200, 4],
  ])('%i px wide → %i columns', (width, columns) => {
    expect(mosaicColumns(width)).toBe(columns);
  });
});

describe('tabStopOf', () => {
  it('keeps the focused entry when it is rendered, else takes the first rendered one', () => {
    expect(tabStopOf(5, [3, 4, 5, 6])).toBe(5);
    expect(tabStopOf(0, [40, 41])).toBe(40);
    expect(tabStopOf(0, [])).toBe(-1);
  });
});

describe('listing order', () => {
  it('puts folders first and keeps the server order within each group', () => {
    const items = [
      entry('b.txt', false),
      entry('z', true),
      entry('a.txt', false),
      entry('c', true),
    ];
    expect(orderEntries(items).map((item) => item.name)).toEqual(['z', 'c', 'b.txt', 'a.txt']);
  });

  it('reads the view mode, mosaic for anything but list', () => {
    expect(viewModeOf('list')).toBe('list');
    expect(viewModeOf('mosaic gallery')).toBe('mosaic');
    expect(viewModeOf(undefined)).toBe('mosaic');
  });

  it('gives folder paths their trailing slash', () => {
    expect(asFolderPath('/a')).toBe('/a/');
    expect(asFolderPath('/a/')).toBe('/a/');
  });
});
