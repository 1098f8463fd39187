import { UI_LIMITS } from '../../config/ui-limits.ts';

/** Columns of the mosaic: the listing's width divided by 300 px, rounded down, at least 1. */
export function mosaicColumns(width: number): number {
  return Math.max(1, Math.floor(width / UI_LIMITS.mosaicColumnPx));
}

/** The tab stop: the focused entry when it is rendered, else the first rendered one. */
export function tabStopOf(focusIndex: number, renderedIndexes: readonly number[]): number {
  return renderedIndexes.includes(focusIndex) ? focusIndex : (renderedIndexes[0] ?? -1);
}

/** Where the window shows a list of fixed-height rows: its scroll offset and height, in px. */
export interface RowWindow {
  /** window.scrollY */
  scrollY: number;
  /** window.innerHeight */
  height: number;
}

/**
 * How tall the rows are: one height for every row (the list view), or the offset of each row's top
 * plus the end, count + 1 numbers (the mosaic, whose rows of picture cards are taller).
 */
export type RowLayout = number | readonly number[];

/** Where row `index` starts, in px below the first row (index = count gives the total height). */
export function rowStart(layout: RowLayout, index: number): number {
  return typeof layout === 'number' ? index * layout : (layout[index] ?? 0);
}

/** The last row that starts before `y` px (-1 if none): binary search over the offsets. */
function lastRowBefore(layout: RowLayout, count: number, y: number): number {
  if (typeof layout === 'number') return Math.ceil(y / layout) - 1;
  let low = 0;
  let high = count - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (rowStart(layout, middle) < y) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}

/**
 * The rows to render of `count` rows laid out by `layout` starting `top` px down the document:
 * those the window shows, plus `overscan` more on each side. Null when there is nothing to render.
 */
export function rowRange(
  count: number,
  layout: RowLayout,
  top: number,
  view: RowWindow,
  overscan: number,
): { first: number; last: number } | null {
  if (count === 0 || view.height <= 0 || rowStart(layout, 1) <= 0) return null;
  const end = top + rowStart(layout, count);
  // Past the end (an overscrolling touch pad, a list that just got shorter): the last screenful.
  const scrollY = Math.max(0, Math.min(view.scrollY, end - view.height));
  const firstShown = Math.min(
    count - 1,
    Math.max(0, lastRowBefore(layout, count, scrollY - top + 1)),
  );
  const lastShown = Math.min(
    count - 1,
    Math.max(firstShown, lastRowBefore(layout, count, scrollY + view.height - top)),
  );
  return {
    first: Math.max(0, firstShown - overscan),
    last: Math.min(count - 1, lastShown + overscan),
  };
}

/**
 * Where to scroll so that a row is in view: nowhere (null) when it already is, else the smallest
 * move that brings it to the top or bottom edge.
 */
export function scrollToRow(
  index: number,
  layout: RowLayout,
  top: number,
  view: RowWindow,
): number | null {
  const start = top + rowStart(layout, index);
  const end = top + rowStart(layout, index + 1);
  if (end >= view.scrollY + view.height) return Math.max(0, end - view.height);
  if (start <= view.scrollY) return Math.max(0, start);
  return null;
}
