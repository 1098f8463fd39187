import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildGramIndex, type GramIndex } from './gram-index.ts';
import { matchesTerms, matchesType, parseQuery } from './name-query.ts';
import { NameTable } from './name-table.ts';
import { searchTable } from './table-search.ts';

/** Runs a build to its end without waiting between steps. */
function built(table: NameTable, covered?: number): GramIndex {
  const steps = buildGramIndex(table, covered);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The ids a query returns, in result order, with the gram index or (null) by scanning. */
function results(table: NameTable, dirId: number, text: string, grams: GramIndex | null) {
  const saved = table.grams;
  table.grams = grams;
  try {
    return [...searchTable(table, dirId, parseQuery(text))].flat();
  } finally {
    table.grams = saved;
  }
}

// Letters that fold (ASCII and not), one whose lower case is longer (İ: never folded), digits,
// separators of real names and a character outside the BMP.
const CHARS = [
  'a',
  'b',
  'c',
  'A',
  'B',
  'é',
  'É',
  'ß',
  'İ',
  'ı',
  'Ω',
  'ω',
  '1',
  '2',
  '-',
  '.',
  ' ',
  '😀',
];
const nameArb = fc
  .array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 12 })
  .map((chars) => chars.join(''));

type Op =
  | { op: 'add'; parent: number; name: string; dir: boolean }
  | { op: 'remove'; pick: number }
  | { op: 'rename'; pick: number; name: string }
  | { op: 'regram' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('add' as const),
    parent: fc.nat(),
    name: nameArb,
    dir: fc.boolean(),
  }),
  fc.record({ op: fc.constant('remove' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('rename' as const), pick: fc.nat(), name: nameArb }),
  fc.constant({ op: 'regram' as const }),
);

/** Adds a name under a folder unless it is there; returns the id or -1. */
function addUnique(table: NameTable, parent: number, name: string, dir: boolean): number {
  if (table.lookup(parent, name) >= 0) return -1;
  return table.add(parent, name, dir, false);
}

/** Queries made of pieces of the table's names (so that many match) and of random text. */
function queryArb(pieces: string[]): fc.Arbitrary<string> {
  const piece = fc.oneof(
    fc
      .constantFrom(...pieces)
      .chain((name) =>
        fc
          .tuple(fc.nat({ max: name.length }), fc.nat({ max: name.length }))
          .map(([a, b]) => name.slice(Math.min(a, b), Math.max(a, b))),
      ),
    nameArb,
  );
  const cased = piece.chain((text) =>
    fc.constantFrom(text, text.toUpperCase(), text.toLowerCase()),
  );
  return fc
    .tuple(
      fc.array(cased, { minLength: 1, maxLength: 3 }),
      fc.constantFrom('', 'case:sensitive ', 'type:image ', 'type:txt '),
      fc.boolean(),
    )
    .map(([terms, prefix, quoted]) =>
      quoted ? `${prefix}"${terms.join(' ')}"` : `${prefix}${terms.join(' ')}`,
    );
}

/** The live entries below a folder that the walk fallback's tests accept, ascending. */
function walked(table: NameTable, dirId: number, text: string): number[] {
  const query = parseQuery(text);
  const inside = (id: number) => {
    for (let at = table.parent[id]!; ; at = table.parent[at]!) {
      if (at === dirId) return true;
      if (at <= 0 || !table.isAlive(at)) return false;
    }
  };
  const ids: number[] = [];
  for (let id = 1; id < table.size; id++) {
    if (!table.isAlive(id) || !inside(id)) continue;
    const name = table.nameOf(id);
    if (matchesTerms(query, name) && matchesType(query, () => name, table.isDir(id))) ids.push(id);
  }
  return ids;
}

describe('GramIndex', () => {
  it('returns exactly what the scan returns, in the same order, through adds, removals and renames', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(nameArb, fc.boolean()), { minLength: 1, maxLength: 120 }),
        fc.array(opArb, { maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        (initial, ops, seeds) => {
          const table = new NameTable();
          const folders = [0];
          const ids: number[] = [];
          const names: string[] = [];
          initial.forEach(([name, dir], i) => {
            const id = addUnique(table, folders[i % folders.length]!, name, dir);
            if (id < 0) return;
            ids.push(id);
            names.push(name);
            if (dir) folders.push(id);
          });
          let grams = built(table);
          for (const step of ops) {
            if (step.op === 'regram') {
              grams = built(table);
              continue;
            }
            if (step.op === 'add') {
              const parent = folders[step.parent % folders.length]!;
              const id = addUnique(table, parent, step.name, step.dir);
              if (id >= 0) {
                ids.push(id);
                names.push(step.name);
                if (step.dir) folders.push(id);
              }
              continue;
            }
            const id = ids[step.pick % ids.length]!;
            if (!table.isAlive(id)) continue;
            table.remove(id);
            // A rename is a removal and an addition, as the watcher reports it.
            if (step.op === 'rename') {
              const added = addUnique(table, table.parent[id]!, step.name, table.isDir(id));
              if (added >= 0) {
                ids.push(added);
                names.push(step.name);
                if (table.isDir(id)) folders.push(added);
              }
            }
          }
          const queries = fc.sample(queryArb(names), { numRuns: 12, seed: seeds[0] });
          for (const text of queries) {
            for (const dirId of [0, folders[seeds[1]! % folders.length]!]) {
              if (!table.isAlive(dirId)) continue;
              const found = results(table, dirId, text, grams);
              expect(found, text).toEqual(results(table, dirId, text, null));
              // And both are what the walk fallback's tests pick from the original names (an
              // empty quoted term, which the index matches nowhere, and half a surrogate pair,
              // which UTF-8 cannot hold, aside).
              if (parseQuery(text).terms.includes('') || Buffer.from(text).toString() !== text)
                continue;
              expect(
                [...found].sort((a, b) => a - b),
                text,
              ).toEqual(walked(table, dirId, text));
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers from the index for selective terms and leaves short or frequent ones to the scan', () => {
    const table = new NameTable();
    for (let i = 0; i < 4000; i++)
      table.add(0, `IMG_${String(i).padStart(5, '0')}.jpg`, false, false);
    const grams = built(table);
    // The rare trigrams of a number narrow a term to a few of the 500 groups (intersecting stops
    // once 16 or fewer are left: verifying them is cheaper than decoding more lists).
    const groups = grams.candidates(Buffer.from('img_01234'));
    expect(groups).not.toBeNull();
    expect(groups!.length).toBeLessThanOrEqual(16);
    expect([...groups!]).toContain(1235 >> 3);
    // Every name holds `img` and `.jp`: no list, so a term of those only is scanned.
    expect(grams.candidates(Buffer.from('img_'))).toBeNull();
    expect(grams.candidates(Buffer.from('.jpg'))).toBeNull();
    // Shorter than a trigram.
    expect(grams.candidates(Buffer.from('01'))).toBeNull();
    // A trigram no name holds: nothing indexed can match.
    expect(grams.candidates(Buffer.from('xyz'))!.length).toBe(0);
    expect(results(table, 0, 'IMG_01234', grams)).toEqual([1235]);
    expect(results(table, 0, '01', grams)).toEqual(results(table, 0, '01', null));
  });

  it('finds names added after it was built (the tail) and hides removed ones', () => {
    const table = new NameTable();
    const folder = table.add(0, 'Dossier', true, false);
    const old = table.add(folder, 'Rapport-2024.pdf', false, false);
    for (let i = 0; i < 100; i++) table.add(folder, `note-${i}.txt`, false, false);
    table.grams = built(table);
    expect(results(table, 0, 'rapport-2024', table.grams)).toEqual([old]);
    // Renamed: the old id goes, the new name sits past what the index covers.
    table.remove(old);
    const renamed = table.add(folder, 'RAPPORT-2024-final.pdf', false, false);
    expect(table.grams.covered).toBeLessThanOrEqual(renamed);
    expect(results(table, 0, 'rapport-2024', table.grams)).toEqual([renamed]);
    expect(results(table, 0, 'case:sensitive RAPPORT-2024', table.grams)).toEqual([renamed]);
    expect(results(table, 0, 'case:sensitive rapport-2024', table.grams)).toEqual([]);
    // A removed folder hides what is below it.
    table.remove(folder);
    expect(results(table, 0, 'note-42', table.grams)).toEqual([]);
  });

  it('folds non-ASCII names and terms the same way', () => {
    const table = new NameTable();
    const a = table.add(0, 'ÉTÉ À PARIS.jpg', false, false);
    const b = table.add(0, 'ΩMEGA-ΣΙΓΜΑ.txt', false, false);
    const c = table.add(0, 'İstanbul 😀 trip.png', false, false);
    table.grams = built(table);
    expect(results(table, 0, 'été à paris', table.grams)).toEqual([a]);
    expect(results(table, 0, 'ωmega-σιγμα', table.grams)).toEqual([b]);
    expect(results(table, 0, 'İstanbul 😀', table.grams)).toEqual([c]);
    // `İ` has a longer lower case and is never folded, on either side.
    expect(results(table, 0, 'istanbul', table.grams)).toEqual([]);
    expect(results(table, 0, 'case:sensitive ÉTÉ', table.grams)).toEqual([a]);
    expect(results(table, 0, 'case:sensitive été', table.grams)).toEqual([]);
  });
});
