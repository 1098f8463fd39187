import type { ResourceItem, Sorting } from '@cabinet/protocol';

const CHUNKS = /(\d+)|(\D+)/g;

/**
 * Natural, case-insensitive comparison: digit runs compare by value (`file2` before `file10`),
 * other runs by lower-cased code units; ties fall back to the exact names for a stable order.
 */
export function naturalCompare(a: string, b: string): number {
  const left = a.toLowerCase().match(CHUNKS) ?? [];
  const right = b.toLowerCase().match(CHUNKS) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    const xDigits = /^\d/.test(x);
    const yDigits = /^\d/.test(y);
    if (xDigits && yDigits) {
      const xs = x.replace(/^0+/, '');
      const ys = y.replace(/^0+/, '');
      if (xs.length !== ys.length) return xs.length - ys.length;
      if (xs !== ys) return xs < ys ? -1 : 1;
      if (x.length !== y.length) return x.length - y.length;
      continue;
    }
    return x < y ? -1 : 1;
  }
  if (left.length !== right.length) return left.length - right.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

const byName = (a: ResourceItem, b: ResourceItem) =>
  a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : naturalCompare(a.name, b.name);

/** Folders first in both directions; only the names reverse (the UI shows folders first anyway). */
const byNameDescending = (a: ResourceItem, b: ResourceItem) =>
  a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : naturalCompare(b.name, a.name);

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
