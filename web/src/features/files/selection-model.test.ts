import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  clickSelection,
  extendSelection,
  focusTarget,
  indexesOf,
  selectAll,
  toggleSelection,
  type ClickModifiers,
  type SelectionState,
} from './selection-model.ts';

const plain: ClickModifiers = { toggle: false, range: false, multiple: false };
const ctrl: ClickModifiers = { ...plain, toggle: true };
const shift: ClickModifiers = { ...plain, range: true };
const multiple: ClickModifiers = { ...plain, multiple: true };

const state = (
  selected: number[],
  anchor: number | null = selected[0] ?? null,
): SelectionState => ({
  selected,
  anchor,
});

describe('clickSelection', () => {
  it.each<[string, SelectionState, number, ClickModifiers, number[]]>([
    ['a click selects the entry', EMPTY_SELECTION, 3, plain, [3]],
    ['a click replaces another selection', state([1, 2]), 4, plain, [4]],
    ['a click on the only selected entry deselects it', state([2]), 2, plain, []],
    ['a click on one of several selected entries keeps just it', state([1, 2]), 2, plain, [2]],
    ['ctrl-click adds an entry', state([1]), 4, ctrl, [1, 4]],
    ['ctrl-click removes a selected entry', state([1, 4]), 1, ctrl, [4]],
    ['multiple mode adds like ctrl-click', state([1]), 3, multiple, [1, 3]],
    ['multiple mode removes a selected entry', state([1, 3]), 3, multiple, [1]],
    ['shift-click selects down from the anchor', state([2]), 5, shift, [2, 3, 4, 5]],
    ['shift-click selects up from the anchor', state([5]), 2, shift, [2, 3, 4, 5]],
    ['shift-click replaces what was outside the range', state([0, 6], 6), 4, shift, [4, 5, 6]],
    [
      'ctrl+shift-click adds the range',
      state([0, 6], 6),
      4,
      { ...ctrl, range: true },
      [0, 4, 5, 6],
    ],
    ['shift-click without an anchor selects the entry', EMPTY_SELECTION, 3, shift, [3]],
  ])('%s', (_name, before, index, modifiers, expected) => {
    expect(clickSelection(before, index, modifiers).selected).toEqual(expected);
  });

  it('keeps the anchor across shift-clicks so the range can shrink', () => {
    const first = clickSelection(state([2]), 6, shift);
    const second = clickSelection(first, 4, shift);
    expect(second).toEqual({ selected: [2, 3, 4], anchor: 2 });
  });

  it('moves the anchor to the entry clicked or toggled', () => {
    expect(clickSelection(state([2]), 5, plain).anchor).toBe(5);
    expect(clickSelection(state([2]), 5, ctrl).anchor).toBe(5);
  });
});

describe('toggleSelection and selectAll', () => {
  it('toggles one entry and keeps the others', () => {
    expect(toggleSelection(state([1]), 2).selected).toEqual([1, 2]);
    expect(toggleSelection(state([1, 2]), 2).selected).toEqual([1]);
  });

  it('selects every entry', () => {
    expect(selectAll(4)).toEqual({ selected: [0, 1, 2, 3], anchor: 0 });
    expect(selectAll(0)).toEqual(EMPTY_SELECTION);
  });
});

describe('indexesOf', () => {
  it('finds keys in listing order and drops unknown ones', () => {
    expect(indexesOf(['/a', '/b', '/c'], ['/c', '/a', '/gone'])).toEqual([0, 2]);
  });
});

describe('focusTarget', () => {
  it.each<[string, number, number, number, number | null]>([
    ['ArrowDown', 0, 10, 1, 1],
    ['ArrowDown', 9, 10, 1, 9],
    ['ArrowUp', 0, 10, 1, 0],
    ['ArrowDown', 1, 10, 3, 4],
    ['ArrowDown', 8, 10, 3, 9],
    ['ArrowUp', 4, 10, 3, 1],
    ['ArrowRight', 4, 10, 3, 5],
    ['ArrowLeft', 0, 10, 3, 0],
    ['ArrowRight', 4, 10, 1, null],
    ['Home', 7, 10, 3, 0],
    ['End', 2, 10, 3, 9],
    ['a', 2, 10, 3, null],
    ['ArrowDown', 0, 0, 1, null],
  ])('%s from %i of %i in %i columns → %s', (key, current, count, columns, expected) => {
    expect(focusTarget(key, current, count, columns)).toBe(expected);
  });
});

describe('extendSelection', () => {
  it.each<[string, SelectionState, number, number, SelectionState]>([
    ['starts at the focused entry without an anchor', EMPTY_SELECTION, 2, 3, state([2, 3], 2)],
    ['runs from the anchor to the new focus', state([1], 1), 3, 4, state([1, 2, 3, 4], 1)],
    ['shrinks when moving back toward the anchor', state([1, 2, 3], 1), 3, 2, state([1, 2], 1)],
    ['turns around past the anchor', state([2, 3], 2), 2, 0, state([0, 1, 2], 2)],
    ['replaces what was outside the range', state([0, 5], 5), 5, 4, state([4, 5], 5)],
  ])('%s', (_name, before, from, to, after) => {
    expect(extendSelection(before, from, to)).toEqual(after);
  });
});
