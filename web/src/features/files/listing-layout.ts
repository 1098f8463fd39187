import { LIMITS } from '@cabinet/protocol';

/** Columns of the mosaic: the listing's width divided by 300 px, rounded down, at least 1. */
export function mosaicColumns(width: number): number {
  return Math.max(1, Math.floor(width / LIMITS.mosaicColumnPx));
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
 * The rows to render of `count` rows of `rowHeight` px starting `top` px down the document: those
 * the window shows, plus `overscan` more on each side. Null when there is nothing to render.
 */
export function rowRange(
  count: number,
  rowHeight: number,
  top: number,
  view: RowWindow,
  overscan: number,
): { first: number; last: number } | null {
  if (count === 0 || view.height <= 0 || rowHeight <= 0) return null;
  const end = top + count * rowHeight;
  // Past the end (an overscrolling touch pad, a list that just got shorter): the last screenful.
  const scrollY = Math.max(0, Math.min(view.scrollY, end - view.height));
  const firstShown = Math.min(count - 1, Math.max(0, Math.floor((scrollY - top) / rowHeight)));
  const lastShown = Math.min(
    count - 1,
    Math.max(firstShown, Math.ceil((scrollY + view.height - top) / rowHeight) - 1),
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
  rowHeight: number,
  top: number,
  view: RowWindow,
): number | null {
  const start = top + index * rowHeight;
  const end = start + rowHeight;
  if (end >= view.scrollY + view.height) return Math.max(0, end - view.height);
  if (start <= view.scrollY) return Math.max(0, start);
  return null;
}
