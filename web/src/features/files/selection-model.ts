/**
 * Selection maths of the listing, kept free of React so that each
 * rule can be tested on its own. Entries are identified by their index in listing order.
 */

/** The selected indexes (ascending) and the anchor a shift-click range starts from. */
export interface SelectionState {
  selected: readonly number[];
  anchor: number | null;
}

/** Modifier keys and modes that change what a click does. */
export interface ClickModifiers {
  /** Ctrl (or Cmd on a Mac): toggle the entry, keep the rest. */
  toggle: boolean;
  /** Shift: select the range from the anchor to the entry. */
  range: boolean;
  /** Multiple-selection mode: a plain click adds or removes like ctrl-click. */
  multiple: boolean;
}

export const EMPTY_SELECTION: SelectionState = { selected: [], anchor: null };

function sorted(indexes: Iterable<number>): number[] {
  return [...new Set(indexes)].sort((a, b) => a - b);
}

function inclusiveRange(from: number, to: number): number[] {
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

/**
 * What a click on the entry at `index` does to the selection:
 * - shift-click selects the range from the anchor (added to the selection with ctrl or in
 *   multiple mode, replacing it otherwise);
 * - ctrl-click and multiple mode toggle the entry;
 * - a plain click on the only selected entry deselects it, on any other entry selects just it.
 */
export function clickSelection(
  state: SelectionState,
  index: number,
  modifiers: ClickModifiers,
): SelectionState {
  const adds = modifiers.toggle || modifiers.multiple;
  if (modifiers.range && state.anchor !== null) {
    const range = inclusiveRange(state.anchor, index);
    return {
      selected: sorted(adds ? [...state.selected, ...range] : range),
      anchor: state.anchor,
    };
  }
  const isSelected = state.selected.includes(index);
  if (adds) {
    return isSelected
      ? { selected: state.selected.filter((i) => i !== index), anchor: index }
      : { selected: sorted([...state.selected, index]), anchor: index };
  }
  if (isSelected && state.selected.length === 1) return EMPTY_SELECTION;
  return { selected: [index], anchor: index };
}

/** Space on a focused entry, or a long press on touch: the entry is added or removed. */
export function toggleSelection(state: SelectionState, index: number): SelectionState {
  return clickSelection(state, index, { toggle: true, range: false, multiple: false });
}

/**
 * Shift+Arrow (and Shift+Home/End) from the focused entry `from` to `to`: the selection becomes the
 * range from the anchor to `to`, like a desktop file manager. Without an anchor yet, the entry the
 * keys start from is the anchor; the anchor stays put so that moving back shrinks the range.
 */
export function extendSelection(state: SelectionState, from: number, to: number): SelectionState {
  const anchor = state.anchor ?? from;
  return { selected: inclusiveRange(anchor, to), anchor };
}

/** Ctrl+A: every entry of the listing. */
export function selectAll(count: number): SelectionState {
  return { selected: Array.from({ length: count }, (_, i) => i), anchor: count > 0 ? 0 : null };
}

/** Indexes of `keys` (e.g. selected paths) in the listing `order`; unknown keys are dropped. */
export function indexesOf(order: readonly string[], keys: Iterable<string>): number[] {
  const wanted = new Set(keys);
  const found: number[] = [];
  order.forEach((key, index) => {
    if (wanted.has(key)) found.push(index);
  });
  return found;
}

/**
 * The entry that arrow keys move focus to: Up/Down move by a row (`columns` entries in the mosaic,
 * one in the list), Left/Right by one entry, Home/End to the ends. Null for other keys.
 */
export function focusTarget(
  key: string,
  current: number,
  count: number,
  columns: number,
): number | null {
  if (count === 0) return null;
  const clamp = (i: number) => Math.min(Math.max(i, 0), count - 1);
  switch (key) {
    case 'ArrowDown':
      return clamp(current + columns);
    case 'ArrowUp':
      return clamp(current - columns);
    case 'ArrowRight':
      return columns > 1 ? clamp(current + 1) : null;
    case 'ArrowLeft':
      return columns > 1 ? clamp(current - 1) : null;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
