import { describe, expect, it } from 'vitest';
import { NameTable } from './name-table.ts';

describe('NameTable', () => {
  it('finds every live entry after many additions and removals (hash deletion keeps chains)', () => {
    const table = new NameTable();
    const folders = [0];
    const ids: { id: number; parent: number; name: string }[] = [];
    for (let i = 0; i < 20_000; i++) {
      const parent = folders[i % folders.length]!;
      const name = i % 7 === 0 ? `Dossier ${i}` : `f${i % 50}.txt`;
      if (table.lookup(parent, name) >= 0) continue;
      const id = table.add(parent, name, i % 7 === 0, false);
      if (i % 7 === 0) folders.push(id);
      ids.push({ id, parent, name });
    }
    const removed = new Set<number>();
    for (const entry of ids) {
      if (entry.id % 3 === 0) {
        table.remove(entry.id);
        removed.add(entry.id);
      }
    }
    for (const entry of ids) {
      expect(table.lookup(entry.parent, entry.name)).toBe(removed.has(entry.id) ? -1 : entry.id);
      expect(table.nameOf(entry.id)).toBe(entry.name);
    }
    expect(table.live).toBe(ids.length - removed.size);
  });

  it('keeps every entry and name when its arrays are settled mid-build, and grows after', () => {
    const table = new NameTable();
    const added: { id: number; name: string }[] = [];
    const add = (i: number) => {
      const name = i % 5 === 0 ? `Été ${i}` : `IMG_${i}.JPG`;
      added.push({ id: table.add(0, name, false, false), name });
    };
    for (let i = 0; i < 30_000; i++) add(i);
    const before = table.folded;
    table.settle();
    // The walked arrays were given back: only the settled copies hold the names now.
    expect(before.length).toBe(0);
    for (let i = 30_000; i < 40_000; i++) add(i); // past the settled arrays' spare room
    for (const { id, name } of added) {
      expect(table.nameOf(id)).toBe(name);
      expect(table.lookup(0, name)).toBe(id);
    }
    expect(table.entryAt(table.folded.indexOf('img_39999.jpg'))).toBe(added.at(-1)!.id);
  });

  it('finds a folder’s live child by name, with and without its hash', () => {
    const table = new NameTable();
    const docs = table.add(0, 'docs', true, false);
    const other = table.add(0, 'other', true, false);
    // A walk's run of children, then later additions between other folders' entries.
    const walked = ['a.txt', 'Été 2024', 'link', 'ünïcödé.md'].map((name, i) =>
      table.add(docs, name, i === 1, i === 2),
    );
    table.add(other, 'elsewhere.txt', false, false);
    table.add(docs, 'added later.txt', false, false);
    table.add(other, 'again.txt', false, false);
    table.add(docs, 'last', true, false);
    table.remove(walked[0]!);
    // Found the same with and without the hash (built by the first lookup).
    const fresh = new NameTable(table.parts());
    expect(fresh.findChild(docs, 'ünïcödé.md')).toBe(walked[3]);
    expect(fresh.findChild(docs, 'a.txt')).toBe(-1);
    expect(fresh.findChild(0, 'other')).toBe(other);
    expect(table.findChild(docs, 'ünïcödé.md')).toBe(table.lookup(docs, 'ünïcödé.md'));
  });

  it('finds a walked table’s entries without hashing them, and later ones through a small hash', () => {
    // As a walk adds them: a level's folders in order, each one's children together, in name
    // order (byte order, which code-unit order is for these names).
    const table = new NameTable();
    const entries: { id: number; parent: number; name: string }[] = [];
    const level = ['Alpha', 'beta', 'Été', 'ΩMEGA'].map((name) => {
      const id = table.add(0, name, true, false);
      entries.push({ id, parent: 0, name });
      return id;
    });
    for (const folder of level) {
      for (let i = 0; i < 3_000; i++) {
        const name = `IMG_${String(i).padStart(5, '0')}${i % 9 === 0 ? ' ü' : ''}.JPG`;
        entries.push({ id: table.add(folder, name, false, false), parent: folder, name });
      }
    }
    table.settle();
    const walkedBytes = table.memoryBytes;
    for (const { id, parent, name } of entries) expect(table.lookup(parent, name)).toBe(id);
    // No hash of 12,004 entries was made to find them.
    expect(table.memoryBytes).toBe(walkedBytes);
    expect(table.lookup(level[0]!, 'img_00001.jpg')).toBe(-1); // the name differs in case
    expect(table.lookup(level[1]!, 'IMG_00001.JPG ')).toBe(-1);
    expect(table.lookup(999_999, 'IMG_00001.JPG')).toBe(-1);
    // Removed, then added again: the new entry is found, in the hash of later additions.
    const gone = entries[10]!;
    table.remove(gone.id);
    expect(table.lookup(gone.parent, gone.name)).toBe(-1);
    const again = table.add(gone.parent, gone.name, false, false);
    const added = table.add(level[2]!, 'AAA first by name, added last', false, false);
    expect(table.lookup(gone.parent, gone.name)).toBe(again);
    expect(table.lookup(level[2]!, 'AAA first by name, added last')).toBe(added);
    expect(table.memoryBytes - walkedBytes).toBeLessThan(64 * 1024);
    // The same after a round trip through the parts (the order is checked again on loading).
    const loaded = new NameTable(table.parts());
    for (const { id, parent, name } of entries) {
      expect(loaded.lookup(parent, name)).toBe(id === gone.id ? again : id);
      expect(loaded.findChild(parent, name)).toBe(id === gone.id ? again : id);
    }
  });

  it('finds every entry of a table added out of name order, settled or loaded', () => {
    const table = new NameTable();
    const names = ['zeta', 'alpha', 'Mid', 'alpha2', 'Ärger', 'b'];
    const ids = names.map((name) => table.add(0, name, false, false));
    table.settle();
    const loaded = new NameTable(table.parts());
    names.forEach((name, i) => {
      expect(table.lookup(0, name)).toBe(ids[i]);
      expect(loaded.lookup(0, name)).toBe(ids[i]);
      expect(loaded.findChild(0, name)).toBe(ids[i]);
    });
  });

  it('maps blob offsets back to entries and survives a round trip through its parts', () => {
    const table = new NameTable();
    const a = table.add(0, 'alpha', true, false);
    const b = table.add(a, 'Bêta.txt', false, false);
    const again = new NameTable(table.parts());
    expect(again.lookup(0, 'alpha')).toBe(a);
    expect(again.lookup(a, 'Bêta.txt')).toBe(b);
    expect(again.entryAt(again.folded.indexOf('êta'))).toBe(b);
    expect(again.folded.toString('utf8', again.start[b], again.nameEnd(b))).toBe('bêta.txt');
  });

  it('gives back every name as it was given, from the folded blob alone, after a round trip', () => {
    const table = new NameTable();
    const names = [
      'README.md',
      'Été 2024',
      'ΟΔΟΣ Σ.txt',
      'İstanbul',
      'Straße',
      'ÅNGSTRÖM and more',
      'lower only',
      'MiXeD-Case_09.JPG',
      'Ωmega ω',
    ];
    const ids = names.map((name) => table.add(0, name, false, false));
    for (const source of [table, new NameTable(table.parts())]) {
      names.forEach((name, i) => {
        expect(source.nameOf(ids[i]!)).toBe(name);
        expect(source.lookup(0, name)).toBe(ids[i]);
      });
      // A case variant is another name.
      expect(source.lookup(0, 'readme.md')).toBe(-1);
      expect(source.findChild(0, 'été 2024')).toBe(-1);
      // Any span of the blob reads back as the original names, separators included.
      const from = source.start[ids[1]!]! + 2;
      const to = source.nameEnd(ids[5]!) - 3;
      expect(source.rawBytes(from, to).toString('utf8')).toBe(
        Buffer.from(names.slice(1, 6).join('/')).subarray(2, -3).toString('utf8'),
      );
    }
  });
});
