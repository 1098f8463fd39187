import { LIMITS } from '@cabinet/protocol';

/** Columns of the mosaic: the listing's width divided by 300 px, rounded down, at least 1. */
export function mosaicColumns(width: number): number {
  return Math.max(1, Math.floor(width / LIMITS.mosaicColumnPx));
}

/** The tab stop: the focused entry when it is rendered, else the first rendered one. */
export function tabStopOf(focusIndex: number, renderedIndexes: readonly number[]): number {
  return renderedIndexes.includes(focusIndex) ? focusIndex : (renderedIndexes[0] ?? -1);
}
