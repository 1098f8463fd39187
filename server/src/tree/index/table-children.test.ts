import { describe, expect, it } from 'vitest';
import { EntryKind, ListedNames, type NamePattern, type TypedNames } from '../../fs/typed-names.ts';
import { NameTable } from './name-table.ts';
import { TableChildren } from './table-children.ts';

const SUBTITLES: NamePattern = { folders: ['sub', 'subs'], endings: ['.srt', '.vtt'] };

/** Everything a listing reads of a list, index by index. */
function contents(list: TypedNames) {
  return Array.from({ length: list.count }, (_, i) => ({
    name: list.name(i),
    kind: list.kind(i),
    first: list.asciiFirstUnit(i),
  }));
}

describe('a folder’s children from the name table', () => {
  const table = new NameTable();
  const docs = table.add(0, 'docs', true, false);
  const other = table.add(0, 'other', true, false);
  // A walk's run of children, then later additions between other folders' entries.
  const walked = ['a.txt', 'Été 2024', 'link', 'ünïcödé.md', '.hidden'].map((name, i) =>
    table.add(docs, name, i === 1, i === 2),
  );
  table.add(other, 'elsewhere.SRT', false, false);
  table.add(other, 'Subs', true, false);
  table.add(docs, 'added later.txt', false, false);
  table.add(other, 'again.txt', false, false);
  table.add(docs, 'last', true, false);
  table.remove(walked[0]!);
  const names = ['Été 2024', 'link', 'ünïcödé.md', '.hidden', 'added later.txt', 'last'];
  const kinds = [
    EntryKind.Dir,
    EntryKind.Symlink,
    EntryKind.File,
    EntryKind.File,
    EntryKind.File,
    EntryKind.Dir,
  ];

  it('gives the live children, their kinds and first units as a directory read would', () => {
    const children = TableChildren.of(table, docs);
    expect(children.names()).toEqual(names);
    expect(contents(children)).toEqual(contents(new ListedNames(names, kinds)));
    expect(children.asciiFirstUnit(0)).toBe(-1); // 'É' is not ASCII
    expect(children.asciiFirstUnit(3)).toBe(0x2e);
    expect(contents(children.only([1, 4]))).toEqual(
      contents(new ListedNames(names, kinds).only([1, 4])),
    );
    expect(TableChildren.of(table, other).names()).toEqual(['elsewhere.SRT', 'Subs', 'again.txt']);
    expect(TableChildren.of(table, walked[1]!).count).toBe(0);
  });

  it('finds names matching a pattern among its own children only, by kind, in any case', () => {
    // `other`'s subtitle file and folder lie between docs' children in the blob, yet are not its.
    expect(TableChildren.of(table, docs).someMatch(SUBTITLES)).toBe(false);
    expect(TableChildren.of(table, other).someMatch(SUBTITLES)).toBe(true);
    expect(TableChildren.of(table, other).only([0]).someMatch(SUBTITLES)).toBe(true);
    expect(TableChildren.of(table, other).only([1]).someMatch(SUBTITLES)).toBe(true);
    expect(TableChildren.of(table, other).only([2]).someMatch(SUBTITLES)).toBe(false);
    const mixed = new NameTable();
    const folder = mixed.add(0, 'f', true, false);
    mixed.add(folder, 'film.srt', true, false); // a folder with a subtitle's ending: not one
    mixed.add(folder, 'sub', false, false); // a file named like a subtitle folder: not one
    mixed.add(folder, 'film.srt.txt', false, false);
    const children = TableChildren.of(mixed, folder);
    expect(children.someMatch(SUBTITLES)).toBe(false);
    const listed = new ListedNames(children.names(), [
      EntryKind.Dir,
      EntryKind.File,
      EntryKind.File,
    ]);
    expect(listed.someMatch(SUBTITLES)).toBe(false);
    mixed.add(folder, 'Film.VTT', false, false);
    expect(TableChildren.of(mixed, folder).someMatch(SUBTITLES)).toBe(true);
  });
});
