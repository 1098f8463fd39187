import type { ResourceItem, Sorting } from '@cabinet/protocol';

const CHUNKS = /(\d+)|(\D+)/g;

/**
 * A string whose plain comparison is the natural order: text runs end with NUL (so a shorter run
 * sorts first), digit runs become `0`, a length character and the digits without leading zeros (so
 * longer numbers sort after shorter ones). Computed once per item, not once per comparison.
 */
function naturalKey(name: string): string {
  let key = '';
  for (const run of name.toLowerCase().match(CHUNKS) ?? []) {
    const code = run.charCodeAt(0);
    if (code >= 48 && code <= 57) {
      const digits = run.replace(/^0+/, '');
      key += `0${String.fromCharCode(0x100 + digits.length)}${digits}`;
    } else {
      key += `${run}\0`;
    }
  }
  return key;
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Natural, case-insensitive comparison: digit runs compare by value (`file2` before `file10`),
 * other runs by lower-cased code units; ties fall back to the exact names for a stable order.
 */
export function naturalCompare(a: string, b: string): number {
  return byCodeUnits(naturalKey(a), naturalKey(b)) || byCodeUnits(a, b);
}

const keys = new WeakMap<ResourceItem, string>();
function keyOf(item: ResourceItem): string {
  let key = keys.get(item);
  if (key === undefined) {
    key = naturalKey(item.name);
    keys.set(item, key);
  }
  return key;
}

const compareNames = (a: ResourceItem, b: ResourceItem) =>
  byCodeUnits(keyOf(a), keyOf(b)) || byCodeUnits(a.name, b.name);

const byName = (a: ResourceItem, b: ResourceItem) =>
  a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : compareNames(a, b);

/** Folders first in both directions; only the names reverse (the UI shows folders first anyway). */
const byNameDescending = (a: ResourceItem, b: ResourceItem) =>
  a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : compareNames(b, a);

/**
 * Sorts listing items in place by the user's sorting (API.md section 9). Name order keeps folders
 * first and has the reference's inverted flag: `asc: false` is A→Z.
 */
export function sortItems(items: ResourceItem[], sorting: Sorting): ResourceItem[] {
  switch (sorting.by) {
    case 'name':
      return items.sort(sorting.asc ? byNameDescending : byName);
    case 'size': {
      const ascending = (a: ResourceItem, b: ResourceItem) =>
        a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : a.size - b.size || byName(a, b);
      return items.sort((a, b) => (sorting.asc ? ascending(a, b) : ascending(b, a)));
    }
    case 'modified': {
      const older = (a: ResourceItem, b: ResourceItem) =>
        Date.parse(a.modified) - Date.parse(b.modified) || byName(a, b);
      return items.sort((a, b) => (sorting.asc ? older(a, b) : older(b, a)));
    }
    default:
      return sorting.asc ? items.sort(byNameDescending) : items;
  }
}
