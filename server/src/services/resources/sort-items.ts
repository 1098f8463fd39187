import type { ResourceItem, Sorting } from '@cabinet/protocol';

/** Length characters of digit runs, made once (runs of up to 64 digits). */
const RUN_LENGTHS = Array.from({ length: 64 }, (_, n) => String.fromCharCode(0x100 + n));

/**
 * A string whose plain comparison is the natural order: text runs end with NUL (so a shorter run
 * sorts first), digit runs become `0`, a length character and the digits without leading zeros (so
 * longer numbers sort after shorter ones). Computed once per item, not once per comparison; built
 * from parts joined once, which is several times faster than growing a string.
 */
function naturalKey(name: string): string {
  const lower = name.toLowerCase();
  const parts: string[] = [];
  const length = lower.length;
  let i = 0;
  while (i < length) {
    const start = i;
    let code = lower.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      while (i < length && lower.charCodeAt(i) === 48) i++;
      const significant = i;
      for (; i < length; i++) {
        code = lower.charCodeAt(i);
        if (code < 48 || code > 57) break;
      }
      // A run of zeros only is the number 0: length 0, no digits.
      const digits = i - significant;
      parts.push('0', RUN_LENGTHS[digits] ?? String.fromCharCode(0x100 + digits));
      parts.push(lower.slice(significant, i));
    } else {
      for (; i < length; i++) {
        code = lower.charCodeAt(i);
        if (code >= 48 && code <= 57) break;
      }
      parts.push(lower.slice(start, i), '\0');
    }
  }
  return parts.join('');
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Natural, case-insensitive comparison: digit runs compare by value (`file2` before `file10`),
 * other runs by lower-cased code units; ties fall back to the exact names for a stable order.
 */
export function naturalCompare(a: string, b: string): number {
  return byCodeUnits(naturalKey(a), naturalKey(b)) || byCodeUnits(a, b);
}

/** How to read the sorted fields of one item. */
export interface SortFields<T> {
  name(item: T): string;
  isDir(item: T): boolean;
  size(item: T): number;
  modifiedMs(item: T): number;
}

/**
 * Sorts items by the user's sorting and returns them in a new array. Name order
 * keeps folders first in both directions and has the reference's inverted flag (`asc: false` is
 * A→Z); size puts folders first ascending, modified mixes them, and both reverse everything
 * descending. Keys are
 * computed once per item, then indices are sorted, so 100,000 entries sort in tens of
 * milliseconds.
 */
export function sortBy<T>(items: readonly T[], sorting: Sorting, fields: SortFields<T>): T[] {
  const byIndex: SortFields<number> = {
    name: (i) => fields.name(items[i]!),
    isDir: (i) => fields.isDir(items[i]!),
    size: (i) => fields.size(items[i]!),
    modifiedMs: (i) => fields.modifiedMs(items[i]!),
  };
  const indices = Array.from(items, (_, i) => i);
  return sortOrder(indices, sorting, byIndex).map((i) => items[i]!);
}

/**
 * sortBy for items known by number (a packed folder listing): returns `indices` in the user's
 * order, in a new array.
 */
export function sortOrder(
  indices: readonly number[],
  sorting: Sorting,
  fields: SortFields<number>,
): number[] {
  const known = sorting.by === 'name' || sorting.by === 'size' || sorting.by === 'modified';
  if (!known && !sorting.asc) return [...indices];
  const count = indices.length;
  const names = new Array<string>(count);
  const keys = new Array<string>(count);
  const dirs = new Array<boolean>(count);
  const order = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const item = indices[i]!;
    names[i] = fields.name(item);
    keys[i] = naturalKey(names[i]!);
    dirs[i] = fields.isDir(item);
    order[i] = i;
  }
  const compareNames = (a: number, b: number) =>
    byCodeUnits(keys[a]!, keys[b]!) || byCodeUnits(names[a]!, names[b]!);
  const folderFirst = (a: number, b: number) => (dirs[a] ? -1 : 1) * (dirs[a] !== dirs[b] ? 1 : 0);
  const byName = (a: number, b: number) => folderFirst(a, b) || compareNames(a, b);
  let compare: (a: number, b: number) => number;
  if (sorting.by === 'size' || sorting.by === 'modified') {
    const values = new Float64Array(count);
    const read = sorting.by === 'size' ? fields.size : fields.modifiedMs;
    for (let i = 0; i < count; i++) values[i] = read(indices[i]!);
    // Size keeps folders together; modified mixes them, as the reference does.
    const grouped = sorting.by === 'size';
    const ascending = (a: number, b: number) =>
      (grouped ? folderFirst(a, b) : 0) || values[a]! - values[b]! || byName(a, b);
    compare = sorting.asc ? ascending : (a, b) => ascending(b, a);
  } else {
    // Name order; an unknown sorting with asc: true is reversed names, as the reference does.
    compare = sorting.asc ? (a, b) => folderFirst(a, b) || compareNames(b, a) : byName;
  }
  order.sort(compare);
  return order.map((i) => indices[i]!);
}

const itemFields: SortFields<ResourceItem> = {
  name: (item) => item.name,
  isDir: (item) => item.isDir,
  size: (item) => item.size,
  modifiedMs: (item) => Date.parse(item.modified),
};

/** sortBy for wire items (the reply of a listing already built as objects). */
export function sortItems(items: ResourceItem[], sorting: Sorting): ResourceItem[] {
  return sortBy(items, sorting, itemFields);
}
