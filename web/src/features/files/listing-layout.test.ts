import type { ResourceItem } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import { mosaicColumns, rowRange, scrollToRow, tabStopOf } from './listing-layout.ts';
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

describe('rowRange', () => {
  const view = (scrollY: number, height = 400) => ({ scrollY, height });

  it('renders the rows in view plus the overscan on each side', () => {
    // Rows of 40 px from 100 px down: at the top of the page rows 0–7 show (100 + 8 × 40 = 420).
    expect(rowRange(1000, 40, 100, view(0), 8)).toEqual({ first: 0, last: 15 });
    // Scrolled to 2100: rows 50 (2100–2140) to 59 (2460–2500) show.
    expect(rowRange(1000, 40, 100, view(2100), 8)).toEqual({ first: 42, last: 67 });
    expect(rowRange(1000, 40, 100, view(2110), 0)).toEqual({ first: 50, last: 60 });
  });

  it('stays within the rows', () => {
    expect(rowRange(5, 40, 100, view(0), 8)).toEqual({ first: 0, last: 4 });
    // Scrolled past the end: the last screenful.
    expect(rowRange(100, 40, 0, view(1_000_000), 2)).toEqual({ first: 88, last: 99 });
  });

  it('renders nothing without rows or a window', () => {
    expect(rowRange(0, 40, 0, view(0), 8)).toBeNull();
    expect(rowRange(10, 40, 0, view(0, 0), 8)).toBeNull();
  });
});

describe('rows of different heights', () => {
  // Rows of 196, 64, 64, 196 px: a picture row, two compact rows, a picture row.
  const offsets = [0, 196, 260, 324, 520];
  const view = (scrollY: number, height = 200) => ({ scrollY, height });

  it('renders the rows the window shows', () => {
    expect(rowRange(4, offsets, 0, view(0), 0)).toEqual({ first: 0, last: 1 });
    expect(rowRange(4, offsets, 0, view(200), 0)).toEqual({ first: 1, last: 3 });
    expect(rowRange(4, offsets, 100, view(296, 60), 0)).toEqual({ first: 1, last: 1 });
  });

  it('scrolls a row into view by the least move', () => {
    expect(scrollToRow(3, offsets, 0, view(0))).toBe(320);
    expect(scrollToRow(1, offsets, 0, view(300))).toBe(196);
    expect(scrollToRow(1, offsets, 0, view(100))).toBeNull();
  });
});

describe('scrollToRow', () => {
  const view = { scrollY: 1000, height: 400 };

  it('does not move for a row in view', () => {
    expect(scrollToRow(26, 40, 0, view)).toBeNull();
    expect(scrollToRow(0, 40, 100, { scrollY: 50, height: 400 })).toBeNull();
  });

  it('brings a row below the window to its bottom edge, one above to its top edge', () => {
    expect(scrollToRow(40, 40, 0, view)).toBe(1240);
    expect(scrollToRow(10, 40, 0, view)).toBe(400);
    expect(scrollToRow(0, 40, 100, { scrollY: 150, height: 400 })).toBe(100);
  });

  it('counts a row cut by an edge as out of view', () => {
    expect(scrollToRow(34, 40, 0, view)).toBe(1000);
    expect(scrollToRow(25, 40, 0, view)).toBe(1000);
    expect(scrollToRow(24, 40, 0, view)).toBe(960);
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
