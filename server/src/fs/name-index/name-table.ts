import { foldName } from './fold.ts';
import { kindOfName } from './entry-kind.ts';
import { GramIndex, type GramParts } from './gram-index.ts';

/** Names never hold `/`, so it separates them in the blob and no match can span two names. */
export const SEPARATOR = 0x2f;

export const FLAG_DIR = 1;
export const FLAG_LINK = 2;
export const FLAG_DEAD = 4;
const KIND_SHIFT = 3;

/** The arrays a table is made of, as persisted (see index-file.ts). */
export interface TableParts {
  raw: Buffer;
  folded: Buffer;
  start: Uint32Array;
  parent: Int32Array;
  flags: Uint8Array;
  /** The trigram index of the first ids, when one was built (see gram-index.ts). */
  grams?: GramParts | null;
}

function grown<T extends Uint32Array | Int32Array | Uint8Array>(array: T, need: number): T {
  if (need <= array.length) return array;
  const next = new (array.constructor as new (length: number) => T)(
    Math.max(need, Math.floor(array.length * 1.5) + 64),
  );
  next.set(array);
  return next;
}

function grownBuffer(buffer: Buffer, need: number): Buffer {
  if (need <= buffer.length) return buffer;
  const next = Buffer.allocUnsafeSlow(Math.max(need, Math.floor(buffer.length * 1.5) + 4096));
  buffer.copy(next);
  return next;
}

/**
 * FNV-1a over a name's UTF-8 bytes, mixed with its parent's id, then murmur3's finaliser: FNV's
 * low bits (the ones a power-of-two table uses) depend only on the bytes' low bits, and names like
 * `IMG_0001234.jpg` under one folder clustered into long probe runs without it.
 */
function hashOf(bytes: Buffer, start: number, end: number, parentId: number): number {
  let h = (0x811c9dc5 ^ parentId) >>> 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * The whole tree's names, packed for scanning and small in memory (docs/search.md):
 *
 * - every name once in `raw` and once case-folded in `folded`, both laid out `/name/name/…` with
 *   the same offsets, so a substring search is one native `Buffer.indexOf` over a flat buffer;
 * - entries are ids in blob order (build order: breadth first, names sorted; later additions
 *   appended), indexes into parallel typed arrays: `start` (of the name in the blobs), `parent`
 *   (the tree) and `flags` (folder, link, removed, media kind); no object per entry, and a blob
 *   offset maps back to its entry by binary search over `start`;
 * - an open-addressing hash of (parent, name) → id finds entries by path for watcher events. It
 *   is built on the first lookup, not with the table: a loaded or freshly walked table answers
 *   searches without it, so a restart does not wait for hashing a million names, and a build that
 *   never looks anything up neither pays for nor holds a hash grown step by step.
 *
 * Renaming is removing and adding (the watcher reports it so). Removing a folder marks only the folder dead: its descendants are unreachable (every query
 * walks each hit's ancestors) and disappear at the next rebuild.
 */
export class NameTable {
  raw: Buffer;
  folded: Buffer;
  /** Bytes used in both blobs. */
  bytes: number;
  /** Blob offset of each entry's name (the root's is unused). */
  start: Uint32Array;
  parent: Int32Array;
  flags: Uint8Array;
  /** Ids used (the root is id 0 and has no name). */
  size: number;
  /** Live named entries. */
  live = 0;
  /**
   * Trigram index of the ids below its `covered` (names never change once written, so it stays
   * true for them; later ids are scanned), or null until one is built for this table.
   */
  grams: GramIndex | null = null;
  /** Null until the first lookup needs it (see above). */
  private hash: Int32Array | null = null;
  private hashed = 0;

  /**
   * A table from persisted parts, or an empty one with room for `expect` (the previous table's
   * size when a rebuild walks the same tree: the arrays then never grow by copying, which kept up
   * to half as much again in garbage that RSS still counted after the build).
   */
  constructor(parts?: TableParts, expect?: { entries: number; bytes: number }) {
    if (parts) {
      this.raw = parts.raw;
      this.folded = parts.folded;
      this.bytes = parts.raw.length;
      this.start = parts.start;
      this.parent = parts.parent;
      this.flags = parts.flags;
      this.size = parts.parent.length;
      // A trigram index that does not fit is dropped (searches scan until another is built).
      if (parts.grams && parts.grams.covered <= this.size) {
        try {
          this.grams = new GramIndex(parts.grams);
        } catch {
          this.grams = null;
        }
      }
    } else {
      const bytes = Math.max(4096, Math.ceil((expect?.bytes ?? 0) * 1.02));
      const entries = Math.max(1024, Math.ceil((expect?.entries ?? 0) * 1.02));
      this.raw = Buffer.allocUnsafeSlow(bytes);
      this.folded = Buffer.allocUnsafeSlow(bytes);
      this.raw[0] = SEPARATOR;
      this.folded[0] = SEPARATOR;
      this.bytes = 1;
      this.start = new Uint32Array(entries);
      this.parent = new Int32Array(entries);
      this.flags = new Uint8Array(entries);
      this.parent[0] = -1;
      this.flags[0] = FLAG_DIR;
      this.size = 1;
    }
    for (let id = 1; id < this.size; id++) if (this.isAlive(id)) this.live++;
  }

  /** The parts to persist, trimmed to what is used. */
  parts(): TableParts {
    return {
      raw: this.raw.subarray(0, this.bytes),
      folded: this.folded.subarray(0, this.bytes),
      start: this.start.subarray(0, this.size),
      parent: this.parent.subarray(0, this.size),
      flags: this.flags.subarray(0, this.size),
      grams: this.grams?.parts() ?? null,
    };
  }

  /** End (exclusive) of an entry's name in the blobs. */
  nameEnd(id: number): number {
    return id + 1 < this.size ? this.start[id + 1]! - 1 : this.bytes - 1;
  }

  /** The entry whose name holds a blob offset (binary search: ids are in offset order). */
  entryAt(offset: number): number {
    let low = 1;
    let high = this.size - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.start[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  isAlive(id: number): boolean {
    return (this.flags[id]! & FLAG_DEAD) === 0;
  }

  isDir(id: number): boolean {
    return (this.flags[id]! & FLAG_DIR) !== 0;
  }

  isLink(id: number): boolean {
    return (this.flags[id]! & FLAG_LINK) !== 0;
  }

  kind(id: number): number {
    return this.flags[id]! >> KIND_SHIFT;
  }

  nameOf(id: number): string {
    if (id === 0) return '';
    return this.raw.toString('utf8', this.start[id]!, this.nameEnd(id));
  }

  /** The live child of a folder with this name, or -1. */
  lookup(parentId: number, name: string): number {
    const hash = this.hash ?? this.rehash();
    const bytes = Buffer.from(name);
    const mask = hash.length - 1;
    for (let i = hashOf(bytes, 0, bytes.length, parentId) & mask; ; i = (i + 1) & mask) {
      const stored = hash[i]!;
      if (stored === 0) return -1;
      const id = stored - 1;
      if (this.parent[id] !== parentId) continue;
      if (this.nameIs(id, bytes)) return id;
    }
  }

  /**
   * `lookup` that does not build the hash when there is none yet, but scans the parent array: a
   * fraction of a millisecond per 100,000 entries, where building the hash takes tens of
   * milliseconds (and memory a table that is only listed never needs).
   */
  findChild(parentId: number, name: string): number {
    if (this.hash) return this.lookup(parentId, name);
    const bytes = Buffer.from(name);
    const { parent } = this;
    for (let id = 1; id < this.size; id++) {
      if (parent[id] === parentId && this.isAlive(id) && this.nameIs(id, bytes)) return id;
    }
    return -1;
  }

  /** Whether an entry's name is these UTF-8 bytes. */
  private nameIs(id: number, bytes: Buffer): boolean {
    const start = this.start[id]!;
    const end = this.nameEnd(id);
    return (
      end - start === bytes.length && this.raw.compare(bytes, 0, bytes.length, start, end) === 0
    );
  }

  /** Adds a child; the caller has checked that the name is not there yet. */
  add(parentId: number, name: string, isDir: boolean, isLink: boolean): number {
    const id = this.size++;
    this.parent = grown(this.parent, this.size);
    this.flags = grown(this.flags, this.size);
    this.start = grown(this.start, this.size);
    this.parent[id] = parentId;
    this.setType(id, name, isDir, isLink);
    this.writeName(id, name);
    this.live++;
    this.insertHash(id);
    return id;
  }

  /** Updates what kind of entry an id is (a file replaced by a folder of the same name). */
  setType(id: number, name: string, isDir: boolean, isLink: boolean): void {
    const kind = isDir || isLink ? 0 : kindOfName(name);
    this.flags[id] = (isDir ? FLAG_DIR : 0) | (isLink ? FLAG_LINK : 0) | (kind << KIND_SHIFT);
  }

  /** Marks an entry removed; a folder's descendants go with it (they become unreachable). */
  remove(id: number): void {
    if (id <= 0 || !this.isAlive(id)) return;
    this.removeHash(id);
    this.flags[id] = this.flags[id]! | FLAG_DEAD;
    this.live--;
  }

  private writeName(id: number, name: string): void {
    // Room for the longest UTF-8 the name can take (3 bytes per UTF-16 unit) and the separator.
    this.raw = grownBuffer(this.raw, this.bytes + name.length * 3 + 1);
    this.folded = grownBuffer(this.folded, this.bytes + name.length * 3 + 1);
    const start = this.bytes;
    const length = this.raw.write(name, start, 'utf8');
    const end = start + length;
    // Most names are ASCII: fold them byte by byte from the encoded name instead of folding the
    // string and encoding it again (a third of a first build's time went there).
    let ascii = true;
    for (let i = start; i < end; i++) {
      const byte = this.raw[i]!;
      if (byte >= 0x80) {
        ascii = false;
        break;
      }
      this.folded[i] = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
    }
    if (!ascii) this.folded.write(foldName(name), start, 'utf8');
    this.raw[end] = SEPARATOR;
    this.folded[end] = SEPARATOR;
    this.bytes = end + 1;
    this.start[id] = start;
  }

  private homeOf(id: number): number {
    return hashOf(this.raw, this.start[id]!, this.nameEnd(id), this.parent[id]!);
  }

  private insertHash(id: number): void {
    const hash = this.hash;
    if (!hash) return; // Built with this entry when first needed.
    // A rebuilt hash holds this entry already (it is counted live and has its name).
    if ((this.hashed + 1) * 2 > hash.length) return void this.rehash();
    const mask = hash.length - 1;
    let i = this.homeOf(id) & mask;
    while (hash[i] !== 0) i = (i + 1) & mask;
    hash[i] = id + 1;
    this.hashed++;
  }

  /** Linear probing with backward-shift deletion: no tombstones to slow later lookups. */
  private removeHash(id: number): void {
    const hash = this.hash;
    if (!hash) return;
    const mask = hash.length - 1;
    let i = this.homeOf(id) & mask;
    while (hash[i] !== id + 1) {
      if (hash[i] === 0) return;
      i = (i + 1) & mask;
    }
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const stored = hash[j]!;
      if (stored === 0) break;
      const home = this.homeOf(stored - 1) & mask;
      const between = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!between) {
        hash[i] = stored;
        i = j;
      }
    }
    hash[i] = 0;
    this.hashed--;
  }

  /**
   * (Re)builds the hash from the live entries, at most half full with room for one more, sized
   * for them at once (the first lookup, or when additions fill it).
   */
  private rehash(): Int32Array {
    let capacity = 1024;
    while ((this.live + 1) * 2 > capacity) capacity *= 2;
    const hash = new Int32Array(capacity);
    this.hash = null; // The old one (if any) can go before the new one fills.
    const mask = capacity - 1;
    for (let id = 1; id < this.size; id++) {
      if (!this.isAlive(id)) continue;
      let i = this.homeOf(id) & mask;
      while (hash[i] !== 0) i = (i + 1) & mask;
      hash[i] = id + 1;
    }
    this.hashed = this.live;
    this.hash = hash;
    return hash;
  }

  /** Removed entries (and their names) that only a rebuild reclaims. */
  get garbage(): number {
    return this.size - 1 - this.live;
  }

  /** Bytes held by the table's arrays (for logs and the benchmark). */
  get memoryBytes(): number {
    return (
      this.raw.length +
      this.folded.length +
      this.start.byteLength +
      this.parent.byteLength +
      this.flags.byteLength +
      (this.hash?.byteLength ?? 0) +
      (this.grams?.memoryBytes ?? 0)
    );
  }

  /**
   * Shrinks the arrays to what is used (after a build), one at a time so that only one array is
   * ever held twice; a pre-sized table with little slack keeps its arrays (a copy would cost more
   * than the slack, until the garbage is collected).
   */
  trim(): void {
    if (this.raw.length - this.bytes > this.bytes / 16) {
      this.raw = Buffer.from(this.raw.subarray(0, this.bytes));
      this.folded = Buffer.from(this.folded.subarray(0, this.bytes));
    }
    if (this.parent.length - this.size > this.size / 16) {
      this.start = this.start.slice(0, this.size);
      this.parent = this.parent.slice(0, this.size);
      this.flags = this.flags.slice(0, this.size);
    }
  }
}
