import type { ResourceItem, Sorting } from '@cabinet/protocol';

/** Length characters of digit runs, made once (runs of up to 64 digits). */
const RUN_LENGTHS = Array.from({ length: 64 }, (_, n) => String.fromCharCode(0x100 + n));

/**
 * A string whose plain comparison is the natural order: text runs end with NUL (so a shorter run
 * sorts first), digit runs become `0`, a length character and the digits without leading zeros (so
 * longer numbers sort after shorter ones). Computed once per item, not once per comparison; built
 * from parts joined once, which is several times faster than growing a string.
 */
export function naturalKey(name: string): string {
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
  const quick = quickNaturalCompare(a, b);
  return Number.isNaN(quick)
    ? byCodeUnits(naturalKey(a), naturalKey(b)) || byCodeUnits(a, b)
    : quick;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Each UTF-16 code unit lower-cased on its own, as `toLowerCase` lower-cases it inside a string;
 * NaN where that is not a property of the unit alone: where the lower case is longer (`İ`), where
 * it depends on the neighbours (a final `Σ` becomes `ς`), and for surrogates (their pairs have
 * cases of their own). A constant table, built once when the module loads (a few milliseconds).
 */
const LOWER_UNITS = (() => {
  const table = new Int32Array(0x10000); // -1: no lower case of its own
  for (let code = 0; code < 0x10000; code++) {
    const lower = String.fromCharCode(code).toLowerCase();
    table[code] =
      (code >= 0xd800 && code <= 0xdfff) || code === 0x3a3 || lower.length !== 1
        ? -1
        : lower.charCodeAt(0);
  }
  return table;
})();

/** A code unit lower-cased as in `naturalKey`; NaN where the keys must be compared instead. */
const unitLower = (code: number) => {
  const lower = LOWER_UNITS[code]!;
  return lower < 0 ? Number.NaN : lower;
};

/**
 * naturalCompare without building the keys: the keys' code units compared as they would be
 * produced, run by run (a text run's lower-cased characters and its closing NUL; a digit run's
 * `0`, its length and its significant digits). NaN when a unit whose lower case depends on more
 * than itself is reached (LOWER_UNITS): the caller then compares the keys. Sorting names already in code-unit order, it is
 * mostly called once per name, and a key costs more than a comparison.
 */
function quickNaturalCompare(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  let i = 0;
  let j = 0;
  for (;;) {
    if (i === la || j === lb) {
      if (i === la && j === lb) return byCodeUnits(a, b);
      return i === la ? -1 : 1; // a key that is a prefix of the other sorts first
    }
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const digitA = isDigit(ca);
    if (digitA !== isDigit(cb)) {
      // A digit run's key starts with '0'; a text run's with its first lower-cased character.
      const other = unitLower(digitA ? cb : ca);
      if (Number.isNaN(other)) return other;
      return digitA ? 48 - other : other - 48;
    }
    if (!digitA) {
      for (;;) {
        const endA = i === la || isDigit(a.charCodeAt(i));
        const endB = j === lb || isDigit(b.charCodeAt(j));
        // A run that ends gives its NUL, below any character the other can give.
        if (endA || endB) {
          if (endA && endB) break;
          return endA ? -1 : 1;
        }
        const xa = unitLower(a.charCodeAt(i));
        const xb = unitLower(b.charCodeAt(j));
        if (Number.isNaN(xa) || Number.isNaN(xb)) return Number.NaN;
        if (xa !== xb) return xa - xb;
        i++;
        j++;
      }
      continue;
    }
    while (i < la && a.charCodeAt(i) === 48) i++;
    while (j < lb && b.charCodeAt(j) === 48) j++;
    let ea = i;
    let eb = j;
    while (ea < la && isDigit(a.charCodeAt(ea))) ea++;
    while (eb < lb && isDigit(b.charCodeAt(eb))) eb++;
    // The run's length character: more significant digits sort after fewer.
    if (ea - i !== eb - j) return ea - i - (eb - j);
    for (; i < ea; i++, j++) {
      const difference = a.charCodeAt(i) - b.charCodeAt(j);
      if (difference !== 0) return difference;
    }
  }
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
  return Array.from(sortOrder(identity(items.length), sorting, byIndex), (i) => items[i]!);
}

/**
 * sortBy for items known by number (a packed folder listing): returns `indices` in the user's
 * order, in a new typed array.
 */
export function sortOrder(
  indices: ArrayLike<number>,
  sorting: Sorting,
  fields: SortFields<number>,
): Uint32Array {
  const count = indices.length;
  const known = sorting.by === 'name' || sorting.by === 'size' || sorting.by === 'modified';
  if (!known && !sorting.asc) return Uint32Array.from(indices);
  // Typed arrays, not arrays of 100,000 values: those sit in V8's large-object space until its
  // next full collection, several per sort (issue #37's memory budget).
  const dirs = new Uint8Array(count);
  const order = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    dirs[i] = fields.isDir(indices[i]!) ? 1 : 0;
    order[i] = i;
  }
  const nameOf = (i: number) => fields.name(indices[i]!);
  // Keys only of names past ASCII, made when first compared.
  const keys = new Map<number, string>();
  const keyOf = (i: number) => {
    let key = keys.get(i);
    if (key === undefined) keys.set(i, (key = naturalKey(nameOf(i))));
    return key;
  };
  const compareNames = (a: number, b: number) => {
    const nameA = nameOf(a);
    const nameB = nameOf(b);
    const quick = quickNaturalCompare(nameA, nameB);
    if (!Number.isNaN(quick)) return quick;
    return byCodeUnits(keyOf(a), keyOf(b)) || byCodeUnits(nameA, nameB);
  };
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
  for (let i = 0; i < count; i++) order[i] = indices[order[i]!]!;
  return order;
}

/**
 * The first `count` of items 0 to `total - 1` in `sortOrder`'s order for a name order
 * (`sorting.by` 'name'), without sorting the others: for most items one look at the first unit
 * of the name, or one comparison, against the last of those kept, so a streamed listing's first
 * rows wait for its names only, not for a sort of a million of them.
 */
export function firstInNameOrder(
  total: number,
  count: number,
  sorting: Sorting,
  fields: SortFields<number> & {
    /** An item's name's first unit when it is ASCII, else -1: read without the name (TypedNames). */
    asciiFirstUnit?: (item: number) => number;
  },
): number[] {
  const reversed = sorting.asc;
  const compare = (dirA: boolean, nameA: string, dirB: boolean, nameB: string) => {
    if (dirA !== dirB) return dirA ? -1 : 1;
    return reversed ? naturalCompare(nameB, nameA) : naturalCompare(nameA, nameB);
  };
  const kept: number[] = [];
  // Their names and kinds, each read once (a name may be decoded on each read: TypedNames).
  const keptNames: string[] = [];
  const keptDirs: boolean[] = [];
  // The first unit of the last kept one's natural key: most items differ from it there, which
  // settles their comparison without the comparator (a million names: most of the time).
  let lastUnit = -1;
  for (let item = 0; item < total; item++) {
    const dir = fields.isDir(item);
    let name: string | undefined;
    if (kept.length === count) {
      const lastDir = keptDirs[count - 1]!;
      if (dir !== lastDir) {
        if (lastDir) continue; // a file after the last folder kept
      } else {
        const ascii = fields.asciiFirstUnit?.(item) ?? -1;
        const unit = ascii >= 0 ? keyUnitOf(ascii) : firstKeyUnit((name = fields.name(item)));
        if (unit >= 0 && lastUnit >= 0 && unit !== lastUnit) {
          if (reversed ? unit < lastUnit : unit > lastUnit) continue;
        } else {
          name ??= fields.name(item);
          if (compare(dir, name, lastDir, keptNames[count - 1]!) >= 0) continue;
        }
      }
    }
    name ??= fields.name(item);
    // Binary search for its place among those kept (in order), then drop the last if too many.
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compare(keptDirs[middle]!, keptNames[middle]!, dir, name) <= 0) low = middle + 1;
      else high = middle;
    }
    kept.splice(low, 0, item);
    keptNames.splice(low, 0, name);
    keptDirs.splice(low, 0, dir);
    if (kept.length > count) {
      kept.pop();
      keptNames.pop();
      keptDirs.pop();
    }
    if (kept.length === count) lastUnit = firstKeyUnit(keptNames[count - 1]!);
  }
  return kept;
}

/** The first code unit of a name's natural key (`naturalKey`), or -1 when only the key tells. */
function firstKeyUnit(name: string): number {
  const code = name.charCodeAt(0);
  return code >= 0 ? keyUnitOf(code) : -1; // NaN (an empty name) is not a unit
}

/** The first unit of the natural key of a name starting with this unit, or -1 (`firstKeyUnit`). */
function keyUnitOf(code: number): number {
  return isDigit(code) ? 48 : LOWER_UNITS[code]!; // a digit run's key starts with '0'
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

/** 0, 1, … `count - 1`: the indices of every item, for sortOrder. */
export function identity(count: number): Uint32Array {
  const indices = new Uint32Array(count);
  for (let i = 0; i < count; i++) indices[i] = i;
  return indices;
}
