import type { ResourceItem } from '@cabinet/protocol';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  firstInNameOrder,
  naturalCompare,
  naturalKey,
  sortItems,
  sortOrder,
} from './sort-items.ts';

const item = (name: string, isDir = false, size = 0, modified = '2024-01-01T00:00:00Z') =>
  ({ name, isDir, size, modified }) as ResourceItem;

describe('natural order', () => {
  it('compares digit runs by value, case-insensitively', () => {
    const names = ['file10', 'File2', 'file1', 'file02', 'a', 'B', 'file', 'file1b', 'file1!'];
    expect([...names].sort(naturalCompare)).toEqual([
      'a',
      'B',
      'file',
      'file1',
      'file1!',
      'file1b',
      'File2',
      'file02',
      'file10',
    ]);
  });
});

describe('sortItems', () => {
  const items = () => [
    item('b.txt', false, 5, '2024-01-03T00:00:00Z'),
    item('Z-dir', true, 4096, '2024-01-01T00:00:00Z'),
    item('a10.txt', false, 1, '2024-01-02T00:00:00Z'),
    item('a9.txt', false, 9, '2024-01-04T00:00:00Z'),
    item('a-dir', true, 10, '2024-01-05T00:00:00Z'),
  ];
  const names = (list: ResourceItem[]) => list.map((i) => i.name);

  it('sorts by name A→Z with asc:false (inverted flag), folders first', () => {
    expect(names(sortItems(items(), { by: 'name', asc: false }))).toEqual([
      'a-dir',
      'Z-dir',
      'a9.txt',
      'a10.txt',
      'b.txt',
    ]);
    expect(names(sortItems(items(), { by: 'name', asc: true }))).toEqual([
      'Z-dir',
      'a-dir',
      'b.txt',
      'a10.txt',
      'a9.txt',
    ]);
  });

  it('sorts by size and by modified time', () => {
    expect(names(sortItems(items(), { by: 'size', asc: true }))).toEqual([
      'a-dir',
      'Z-dir',
      'a10.txt',
      'b.txt',
      'a9.txt',
    ]);
    expect(names(sortItems(items(), { by: 'size', asc: false }))).toEqual([
      'a9.txt',
      'b.txt',
      'a10.txt',
      'Z-dir',
      'a-dir',
    ]);
    expect(names(sortItems(items(), { by: 'modified', asc: false }))[0]).toBe('a-dir');
    expect(names(sortItems(items(), { by: 'modified', asc: true }))[0]).toBe('Z-dir');
  });

  it('keeps read order for an unknown field unless asc', () => {
    expect(names(sortItems(items(), { by: '', asc: false }))).toEqual(names(items()));
  });
});

/** Sort fields of generated `[name, isDir]` entries, known by index. */
const fieldsOf = (entries: [string, boolean][]) => ({
  name: (i: number) => entries[i]![0],
  isDir: (i: number) => entries[i]![1],
  size: () => 0,
  modifiedMs: () => 0,
});

describe('natural order without keys', () => {
  /** The order as defined: the natural keys by code units, then the names. */
  const units = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const byKeys = (a: string, b: string) => units(naturalKey(a), naturalKey(b)) || units(a, b);

  // Parts that stress the keys: digit runs with leading zeros, case, characters below the digits,
  // characters past ASCII (some change length when lower-cased).
  const part = fc.constantFrom(
    ...['a', 'A', 'b', 'z', 'Z', '_', '0', '00', '1', '01', '9', '10', '007', ' ', '-', '.', '!'],
    ...['\u0001', '~', 'é', 'É', '名', '\u0130', 'Σ', 'Α', '\u0101', '\u{1F600}', '\u{10400}'],
    ...['ǅ', 'ß', 'Ω', 'K', '\u00ad', '\u212a', 'ς', 'σ'],
  );
  const name = fc.array(part, { minLength: 1, maxLength: 7 }).map((parts) => parts.join(''));

  it('compares as the keys do where lower case depends on more than one unit', () => {
    const tricky = [
      'ΑΣ',
      'Ας',
      'Ασ',
      'ΑΣb',
      'Σ',
      'İ',
      'i',
      'i\u0307',
      '\u{10400}',
      '\u{10427}',
      '\u{10428}',
    ];
    const plain = ['K', '\u212a', 'k', 'ß', 'ss', 'a10', 'a9', 'A01', 'a', 'é', 'É'];
    for (const a of [...tricky, ...plain]) {
      for (const b of [...tricky, ...plain]) {
        expect(Math.sign(naturalCompare(a, b)), `${a} against ${b}`).toBe(Math.sign(byKeys(a, b)));
      }
    }
  });

  it('compares as the keys do', () => {
    fc.assert(
      fc.property(name, name, (a, b) => {
        expect(Math.sign(naturalCompare(a, b))).toBe(Math.sign(byKeys(a, b)));
      }),
      { numRuns: 5000 },
    );
  });

  it('sorts a folder as the keys do, folders first, in both directions', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.boolean()), { maxLength: 80, selector: ([n]) => n }),
        fc.boolean(),
        (entries, reversed) => {
          const fields = fieldsOf(entries);
          const indices = entries.map((_, i) => i);
          const expected = [...indices].sort(
            (a, b) =>
              (entries[a]![1] === entries[b]![1] ? 0 : entries[a]![1] ? -1 : 1) ||
              (reversed
                ? byKeys(entries[b]![0], entries[a]![0])
                : byKeys(entries[a]![0], entries[b]![0])),
          );
          expect([...sortOrder(indices, { by: 'name', asc: reversed }, fields)]).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the first entries in name order', () => {
  const part = fc.constantFrom('a', 'B', 'c', '1', '02', '10', ' ', '-', 'é', 'Σ');
  const name = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));

  it('are the first entries of the whole order, in both directions', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(name, fc.boolean()), { maxLength: 120, selector: ([n]) => n }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (entries, count, asc) => {
          const fields = fieldsOf(entries);
          const indices = entries.map((_, i) => i);
          const sorting = { by: 'name', asc };
          const expected = [...sortOrder(indices, sorting, fields).subarray(0, count)];
          expect(firstInNameOrder(entries.length, count, sorting, fields)).toEqual(expected);
          // The same when the first units come without the names (the name table's lists).
          const asciiFirstUnit = (i: number) => {
            const unit = entries[i]![0].charCodeAt(0);
            return unit < 0x80 ? unit : -1;
          };
          expect(
            firstInNameOrder(entries.length, count, sorting, { ...fields, asciiFirstUnit }),
          ).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
