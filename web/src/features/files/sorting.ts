import type { Sorting } from '@cabinet/protocol';

/** Columns the listing sorts by. */
export const SORT_COLUMNS = ['name', 'size', 'modified'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** How the listing is ordered, as people read it. */
export interface SortState {
  by: SortColumn;
  ascending: boolean;
}

function isSortColumn(value: string): value is SortColumn {
  return (SORT_COLUMNS as readonly string[]).includes(value);
}

/**
 * Reads the server's `sorting`. The wire's `asc` flag is inverted for names (`asc: false`
 * lists A→Z) and literal for size and modified; an unknown column is the server's
 * default, names A→Z.
 */
export function sortStateFromWire(sorting: Sorting | undefined): SortState {
  const by = sorting?.by ?? '';
  const asc = sorting?.asc ?? false;
  if (!isSortColumn(by)) return { by: 'name', ascending: true };
  return { by, ascending: by === 'name' ? !asc : asc };
}

/** The `sorting` to save for a state (the inverse of sortStateFromWire). */
export function sortStateToWire(state: SortState): { by: SortColumn; asc: boolean } {
  return { by: state.by, asc: state.by === 'name' ? !state.ascending : state.ascending };
}

/**
 * A click on a column heading: the current column flips direction (the arrow it shows), another
 * column starts ascending.
 */
export function nextSortState(current: SortState, column: SortColumn): SortState {
  if (current.by === column) return { by: column, ascending: !current.ascending };
  return { by: column, ascending: true };
}
