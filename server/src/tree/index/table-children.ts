import { EntryKind, type NamePattern, type TypedNames } from '../../fs/typed-names.ts';
import { FLAG_DIR, FLAG_LINK, SEPARATOR, type NameTable } from './name-table.ts';
import { sortedIndexOf } from './sorted-index-of.ts';

/**
 * A folder's live children as the name table holds them (`NameIndex.childrenOf`): their ids and
 * kinds, names left as bytes in the table's blobs until asked for. Turning a million names into
 * strings took most of a second (decoding, splitting, then collecting them), all before a
 * streamed listing's first rows, which need a few hundred names: their first units are read from
 * the bytes, patterns are searched in the folded blob, and the names are made once, after.
 *
 * Names never change once written and removal only marks an entry, so the ids stay readable
 * while the table moves on; a child removed since is then stat'ed as gone, as after a directory
 * read.
 */
export class TableChildren implements TypedNames {
  constructor(
    private readonly table: NameTable,
    /** Ascending: blob order, which `names` and `someMatch` rely on. */
    private readonly ids: Int32Array,
    private readonly kinds: Uint8Array,
  ) {}

  /** The live children of a folder, in id order. */
  static of(table: NameTable, folder: number): TableChildren {
    const { parent, flags, size } = table;
    let count = 0;
    for (let id = 1; id < size; id++) if (parent[id] === folder && table.isAlive(id)) count++;
    const ids = new Int32Array(count);
    const kinds = new Uint8Array(count);
    let at = 0;
    for (let id = 1; id < size && at < count; id++) {
      if (parent[id] !== folder || !table.isAlive(id)) continue;
      const flag = flags[id]!;
      ids[at] = id;
      kinds[at++] =
        (flag & FLAG_DIR) !== 0
          ? EntryKind.Dir
          : (flag & FLAG_LINK) !== 0
            ? EntryKind.Symlink
            : EntryKind.File;
    }
    return new TableChildren(table, ids, kinds);
  }

  get count(): number {
    return this.ids.length;
  }

  kind(i: number): EntryKind {
    return this.kinds[i] as EntryKind;
  }

  name(i: number): string {
    return this.table.nameOf(this.ids[i]!);
  }

  asciiFirstUnit(i: number): number {
    const id = this.ids[i]!;
    const start = this.table.start[id]!;
    if (start >= this.table.nameEnd(id)) return -1;
    const byte = this.table.rawByteAt(start);
    return byte < 0x80 ? byte : -1;
  }

  /**
   * Searches the folded blob (names in lower case, `/`-separated, same offsets) over the span of
   * these children for `ending/` and `/folder/`; each hit is checked to be one of them and of the
   * right kind. A few native scans instead of a million lowercased strings.
   */
  someMatch(pattern: NamePattern): boolean {
    if (this.ids.length === 0) return false;
    const { folded } = this.table;
    const from = this.table.start[this.ids[0]!]! - 1; // the separator before the first name
    const to = this.table.nameEnd(this.ids[this.ids.length - 1]!) + 1; // and the one after the last
    const sep = String.fromCharCode(SEPARATOR);
    const searches = [
      ...pattern.endings.map((ending) => ({
        bytes: Buffer.from(ending + sep),
        skip: 0,
        dir: false,
      })),
      ...pattern.folders.map((folder) => ({
        bytes: Buffer.from(sep + folder + sep),
        skip: 1,
        dir: true,
      })),
    ];
    for (const { bytes, skip, dir } of searches) {
      for (let hit = folded.indexOf(bytes, from); hit >= 0 && hit + bytes.length <= to;) {
        const at = sortedIndexOf(this.ids, this.table.entryAt(hit + skip));
        if (at >= 0 && (this.kinds[at] === EntryKind.Dir) === dir) return true;
        hit = folded.indexOf(bytes, hit + 1);
      }
    }
    return false;
  }

  /**
   * Every name, decoded run by run: a walk adds a folder's children one after another, so their
   * names lie side by side in the blob, `/`-separated, and a run is decoded at once and split.
   */
  names(): string[] {
    const { ids, table } = this;
    const names = new Array<string>(ids.length);
    for (let first = 0; first < ids.length;) {
      let last = first;
      while (last + 1 < ids.length && ids[last + 1] === ids[last]! + 1) last++;
      const run = table
        .rawBytes(table.start[ids[first]!]!, table.nameEnd(ids[last]!))
        .toString('utf8')
        .split(String.fromCharCode(SEPARATOR));
      for (let k = 0; k < run.length; k++) names[first + k] = run[k]!;
      first = last + 1;
    }
    return names;
  }

  only(indices: readonly number[]): TableChildren {
    return new TableChildren(
      this.table,
      Int32Array.from(indices, (i) => this.ids[i]!),
      Uint8Array.from(indices, (i) => this.kinds[i]!),
    );
  }
}
