import { foldName } from './fold.ts';
import { kindOfName } from './entry-kind.ts';
import { GramIndex, type GramParts } from './gram-index.ts';
import { growableArray, growableBuffer, grownArray, settledArray } from './growable.ts';

/** Names never hold `/`, so it separates them in the blob and no match can span two names. */
export const SEPARATOR = 0x2f;

export const FLAG_DIR = 1;
export const FLAG_LINK = 2;
export const FLAG_DEAD = 4;
const KIND_SHIFT = 3;

/** The arrays a table is made of, as persisted (see index-file.ts). */
export interface TableParts {
  folded: Buffer;
  /** One bit per blob byte: set where the name has an ASCII capital (its folded byte ^ 0x20). */
  upper: Uint8Array;
  /** Ids (ascending) whose names fold outside ASCII: their original bytes are kept apart. */
  foreignIds: Int32Array;
  /** Those names' original UTF-8, one after another (each as long as its folded form). */
  foreignBytes: Buffer;
  start: Uint32Array;
  parent: Int32Array;
  flags: Uint8Array;
  /** The trigram index of the first ids, when one was built (see gram-index.ts). */
  grams?: GramParts | null;
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
 * - every name once, case-folded, in `folded`, laid out `/name/name/…`, so a substring search is
 *   one native `Buffer.indexOf` over a flat buffer. The original names are not kept as a second
 *   blob (that was a third of the index): a bit per byte (`upper`) marks the ASCII capitals, and
 *   the few names whose other characters fold (`Été`) keep their original bytes apart
 *   (`foreignIds`, `foreignBytes`); folding never changes a name's UTF-8 length (fold.ts), so the
 *   original of any span of the blob is the span with those bits and names put back (`rawBytes`);
 * - entries are ids in blob order (build order: breadth first, names sorted; later additions
 *   appended), indexes into parallel typed arrays: `start` (of the name in the blobs), `parent`
 *   (the tree) and `flags` (folder, link, removed, media kind); no object per entry, and a blob
 *   offset maps back to its entry by binary search over `start`;
 * - entries are found by (parent, name) for watcher events and paths without a hash of them all:
 *   a walk adds a folder's children together, in name order, and the folders of a level in the
 *   order they were added, so a built table's ids are in (parent, name) order up to `sortedEnd`
 *   and a lookup there is a binary search (a hash of a million entries was 8 MiB, a fifth of the
 *   index). Entries added later (ids from `sortedEnd` on) are found through an open-addressing
 *   hash of those alone, built at the first lookup that needs it.
 *
 * Renaming is removing and adding (the watcher reports it so). Removing a folder marks only the folder dead: its descendants are unreachable (every query
 * walks each hit's ancestors) and disappear at the next rebuild.
 */
export class NameTable {
  folded: Buffer;
  /** The capitals' bits (see above); bit i & 7 of byte i >> 3 is blob byte i's. */
  upper: Uint8Array;
  /** Entries whose names keep their original bytes apart (ascending), and where each starts. */
  private foreignIds: Int32Array;
  private foreignStart: Uint32Array;
  private foreignBytes: Buffer;
  private foreignCount: number;
  /** Bytes used in `foreignBytes`. */
  private foreignUsed: number;
  /** Bytes used in the blob. */
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
  /**
   * Ids below this are in (parent, original name's UTF-8 bytes) order (see above); 0 until a
   * built or loaded table is checked (`sortedEnd` is then as far as the order holds).
   */
  private sortedEnd = 0;
  /** The entries added after `sortedEnd`: null until the first lookup needs it (see above). */
  private hash: Int32Array | null = null;
  private hashed = 0;

  /**
   * A table from persisted parts (throws when they do not hang together), or an empty one to
   * build, whose arrays grow in place (growable.ts: a build used to grow them by copying, and the
   * dropped copies, up to twice the table, stayed in RSS until V8 collected them). `settle` copies
   * a built table's arrays into plain ones.
   */
  constructor(parts?: TableParts) {
    if (parts) {
      this.folded = parts.folded;
      this.upper = parts.upper;
      this.bytes = parts.folded.length;
      this.start = parts.start;
      this.parent = parts.parent;
      this.flags = parts.flags;
      this.size = parts.parent.length;
      this.foreignIds = parts.foreignIds;
      this.foreignCount = parts.foreignIds.length;
      this.foreignStart = new Uint32Array(this.foreignCount);
      this.foreignBytes = parts.foreignBytes;
      let at = 0;
      for (let i = 0; i < this.foreignCount; i++) {
        const id = this.foreignIds[i]!;
        if (id < 1 || id >= this.size || (i > 0 && id <= this.foreignIds[i - 1]!)) {
          throw new Error('malformed name table');
        }
        this.foreignStart[i] = at;
        at += this.nameEnd(id) - this.start[id]!;
      }
      this.foreignUsed = at;
      if (at !== this.foreignBytes.length || this.upper.length < (this.bytes + 7) >> 3) {
        throw new Error('malformed name table');
      }
      // A trigram index that does not fit is dropped (searches scan until another is built).
      if (parts.grams && parts.grams.covered <= this.size) {
        try {
          this.grams = new GramIndex(parts.grams);
        } catch {
          this.grams = null;
        }
      }
    } else {
      const bytes = 64 * 1024;
      const entries = 4096;
      this.folded = growableBuffer(bytes);
      this.upper = growableArray(Uint8Array, (bytes + 7) >> 3);
      this.foreignIds = new Int32Array(16);
      this.foreignStart = new Uint32Array(16);
      this.foreignBytes = Buffer.allocUnsafeSlow(256);
      this.foreignCount = 0;
      this.foreignUsed = 0;
      this.folded[0] = SEPARATOR;
      this.bytes = 1;
      this.start = growableArray(Uint32Array, entries);
      this.parent = growableArray(Int32Array, entries);
      this.flags = growableArray(Uint8Array, entries);
      this.parent[0] = -1;
      this.flags[0] = FLAG_DIR;
      this.size = 1;
    }
    for (let id = 1; id < this.size; id++) if (this.isAlive(id)) this.live++;
    if (parts) this.sortedEnd = this.orderedPrefix();
  }

  /** The parts to persist, trimmed to what is used. */
  parts(): TableParts {
    const foreign = this.foreignCount;
    return {
      folded: this.folded.subarray(0, this.bytes),
      upper: this.upper.subarray(0, (this.bytes + 7) >> 3),
      foreignIds: this.foreignIds.subarray(0, foreign),
      foreignBytes: this.foreignBytes.subarray(0, this.foreignUsed),
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
    return this.rawBytes(this.start[id]!, this.nameEnd(id)).toString('utf8');
  }

  /**
   * The original bytes of blob[from, to) (names and separators), in a new buffer: the folded
   * bytes with the capitals' bits and the names kept apart put back.
   */
  rawBytes(from: number, to: number): Buffer {
    const out = Buffer.allocUnsafe(Math.max(0, to - from));
    this.folded.copy(out, 0, from, to);
    const upper = this.upper;
    for (let byte = from >> 3, last = (to - 1) >> 3; byte <= last; byte++) {
      let bits = upper[byte]!;
      if (bits === 0) continue;
      for (let at = byte << 3; bits !== 0; at++, bits >>>= 1) {
        if ((bits & 1) !== 0 && at >= from && at < to) out[at - from] = out[at - from]! ^ 0x20;
      }
    }
    if (this.foreignCount > 0) {
      for (let i = this.firstForeignFrom(from); i < this.foreignCount; i++) {
        const id = this.foreignIds[i]!;
        const start = this.start[id]!;
        if (start >= to) break;
        const length = this.nameEnd(id) - start;
        const skip = Math.max(0, from - start);
        const stop = Math.min(length, to - start);
        const source = this.foreignStart[i]!;
        this.foreignBytes.copy(out, start + skip - from, source + skip, source + stop);
      }
    }
    return out;
  }

  /** The original byte at a blob offset. */
  rawByteAt(offset: number): number {
    if (this.foreignCount > 0) {
      const i = this.firstForeignFrom(offset);
      if (i < this.foreignCount) {
        const id = this.foreignIds[i]!;
        const start = this.start[id]!;
        if (start <= offset && offset < this.nameEnd(id)) {
          return this.foreignBytes[this.foreignStart[i]! + offset - start]!;
        }
      }
    }
    const bit = (this.upper[offset >> 3]! >> (offset & 7)) & 1;
    return this.folded[offset]! ^ (bit << 5);
  }

  /** The first kept-apart name that ends after a blob offset (binary search over its ids). */
  private firstForeignFrom(offset: number): number {
    let low = 0;
    let high = this.foreignCount;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.nameEnd(this.foreignIds[mid]!) <= offset) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The live child of a folder with this name, or -1. */
  lookup(parentId: number, name: string): number {
    return this.childNamed(parentId, name, true);
  }

  /**
   * `lookup` that does not build the hash of additions when there is none yet, but scans the
   * entries added since the walk: a table that is only listed never needs it.
   */
  findChild(parentId: number, name: string): number {
    return this.childNamed(parentId, name, this.hash !== null);
  }

  /** The live child of a folder with this name: the walked ones by binary search, then the rest. */
  private childNamed(parentId: number, name: string, hashed: boolean): number {
    const bytes = Buffer.from(name);
    const sorted = this.sortedIndexOf(parentId, bytes);
    if (sorted >= 0 && this.isAlive(sorted)) return sorted;
    const first = Math.max(1, this.sortedEnd);
    if (this.size <= first) return -1; // nothing added since
    const folded = Buffer.from(foldName(name));
    if (!hashed) {
      const { parent } = this;
      for (let id = first; id < this.size; id++) {
        if (parent[id] === parentId && this.isAlive(id) && this.nameIs(id, bytes, folded)) {
          return id;
        }
      }
      return -1;
    }
    const hash = this.hash ?? this.rehash();
    const mask = hash.length - 1;
    for (let i = hashOf(folded, 0, folded.length, parentId) & mask; ; i = (i + 1) & mask) {
      const stored = hash[i]!;
      if (stored === 0) return -1;
      const id = stored - 1;
      if (this.parent[id] !== parentId) continue;
      if (this.nameIs(id, bytes, folded)) return id;
    }
  }

  /** The id below `sortedEnd` of this parent and name (alive or not), or -1 (binary search). */
  private sortedIndexOf(parentId: number, bytes: Buffer): number {
    let low = 1;
    let high = this.sortedEnd;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const parent = this.parent[mid]!;
      const order = parent !== parentId ? parent - parentId : this.compareName(mid, bytes);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid;
    }
    return -1;
  }

  /** An entry's original name against UTF-8 bytes, in byte order: <0, 0 or >0. */
  private compareName(id: number, bytes: Uint8Array): number {
    const start = this.start[id]!;
    const length = this.nameEnd(id) - start;
    const common = Math.min(length, bytes.length);
    for (let i = 0; i < common; i++) {
      const difference = this.rawByteAt(start + i) - bytes[i]!;
      if (difference !== 0) return difference;
    }
    return length - bytes.length;
  }

  /**
   * How far the ids are in (parent, name) order: a walk adds them so (see the class), and this
   * checks it, one comparison of neighbours per entry, stopping where it first fails.
   */
  private orderedPrefix(): number {
    const { parent } = this;
    for (let id = 2; id < this.size; id++) {
      const before = parent[id - 1]!;
      const now = parent[id]!;
      if (now < before) return id;
      if (now === before && this.compareNames(id - 1, id) >= 0) return id;
    }
    return this.size;
  }

  /** Two entries' original names in byte order. */
  private compareNames(a: number, b: number): number {
    const startA = this.start[a]!;
    const startB = this.start[b]!;
    const lengthA = this.nameEnd(a) - startA;
    const lengthB = this.nameEnd(b) - startB;
    const common = Math.min(lengthA, lengthB);
    for (let i = 0; i < common; i++) {
      const difference = this.rawByteAt(startA + i) - this.rawByteAt(startB + i);
      if (difference !== 0) return difference;
    }
    return lengthA - lengthB;
  }

  /** Whether an entry's name is these UTF-8 bytes (`folded`: the same folded). */
  private nameIs(id: number, bytes: Buffer, folded: Buffer): boolean {
    const start = this.start[id]!;
    const end = this.nameEnd(id);
    if (end - start !== bytes.length) return false;
    if (this.folded.compare(folded, 0, folded.length, start, end) !== 0) return false;
    return this.rawBytes(start, end).equals(bytes);
  }

  /** Adds a child; the caller has checked that the name is not there yet. */
  add(parentId: number, name: string, isDir: boolean, isLink: boolean): number {
    const id = this.size++;
    this.parent = grownArray(this.parent, this.size);
    this.flags = grownArray(this.flags, this.size);
    this.start = grownArray(this.start, this.size);
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
    const room = this.bytes + name.length * 3 + 1;
    this.folded = grownArray(this.folded, room, 4096);
    this.upper = grownArray(this.upper, (room + 7) >> 3, 512);
    const start = this.bytes;
    const blob = this.folded;
    const length = blob.write(name, start, 'utf8');
    const end = start + length;
    // Most names are ASCII: fold them byte by byte from the encoded name instead of folding the
    // string and encoding it again (a third of a first build's time went there).
    let ascii = true;
    for (let i = start; i < end; i++) {
      const byte = blob[i]!;
      if (byte >= 0x80) ascii = false;
      else if (byte >= 0x41 && byte <= 0x5a) {
        blob[i] = byte + 0x20;
        this.upper[i >> 3] = this.upper[i >> 3]! | (1 << (i & 7));
      }
    }
    blob[end] = SEPARATOR;
    this.bytes = end + 1;
    this.start[id] = start;
    if (ascii) return;
    const original = Buffer.from(name);
    blob.write(foldName(name), start, 'utf8');
    // Characters beyond ASCII that fold: the original name is kept apart.
    for (let i = start; i < end; i++) {
      if (original[i - start]! >= 0x80 && original[i - start] !== blob[i]) {
        this.keepForeign(id, original);
        return;
      }
    }
  }

  /** Keeps an entry's original name apart (ids only grow, so the list stays ascending). */
  private keepForeign(id: number, original: Buffer): void {
    const count = this.foreignCount;
    const at = this.foreignUsed;
    this.foreignIds = grownArray(this.foreignIds, count + 1);
    this.foreignStart = grownArray(this.foreignStart, count + 1);
    this.foreignBytes = grownArray(this.foreignBytes, at + original.length, 4096);
    this.foreignIds[count] = id;
    this.foreignStart[count] = at;
    original.copy(this.foreignBytes, at);
    this.foreignCount = count + 1;
    this.foreignUsed = at + original.length;
  }

  /** Hashed by the folded name: its bytes are in the blob, and case variants share a chain. */
  private homeOf(id: number): number {
    return hashOf(this.folded, this.start[id]!, this.nameEnd(id), this.parent[id]!);
  }

  private insertHash(id: number): void {
    const hash = this.hash;
    if (!hash) return; // Built with this entry when first needed.
    // A rebuilt hash holds this entry already (it is counted live and has its name).
    if ((this.hashed + 1) * 4 > hash.length * 3) return void this.rehash();
    const mask = hash.length - 1;
    let i = this.homeOf(id) & mask;
    while (hash[i] !== 0) i = (i + 1) & mask;
    hash[i] = id + 1;
    this.hashed++;
  }

  /** Linear probing with backward-shift deletion: no tombstones to slow later lookups. */
  private removeHash(id: number): void {
    const hash = this.hash;
    if (!hash || id < this.sortedEnd) return;
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
   * (Re)builds the hash from the live entries added after `sortedEnd`, at most three quarters
   * full with room for one more, sized for them at once (the first lookup, or when additions fill
   * it); lookups serve watcher events and paths, where the longer probe runs of a fuller table
   * (2.5 slots on average) cost nothing one notices.
   */
  private rehash(): Int32Array {
    const first = Math.max(1, this.sortedEnd);
    let added = 0;
    for (let id = first; id < this.size; id++) if (this.isAlive(id)) added++;
    let capacity = 1024;
    while ((added + 1) * 4 > capacity * 3) capacity *= 2;
    const hash = new Int32Array(capacity);
    this.hash = null; // The old one (if any) can go before the new one fills.
    const mask = capacity - 1;
    for (let id = first; id < this.size; id++) {
      if (!this.isAlive(id)) continue;
      let i = this.homeOf(id) & mask;
      while (hash[i] !== 0) i = (i + 1) & mask;
      hash[i] = id + 1;
    }
    this.hashed = added;
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
      this.folded.length +
      this.upper.byteLength +
      this.foreignIds.byteLength +
      this.foreignStart.byteLength +
      this.foreignBytes.length +
      this.start.byteLength +
      this.parent.byteLength +
      this.flags.byteLength +
      (this.hash?.byteLength ?? 0) +
      (this.grams?.memoryBytes ?? 0)
    );
  }

  /**
   * Moves a built table's arrays into plain ones of the size used, with a little room for the
   * changes replayed after a build (a 64th more), each resizable one given back as soon as it is
   * copied: only one array is ever held twice, and nothing is left for V8 to collect. Plain
   * arrays (a loaded table's) stay as they are.
   */
  settle(): void {
    const entries = Math.max(1024, this.size >> 6);
    const bytes = Math.max(64 * 1024, this.bytes >> 6);
    this.folded = settledArray(this.folded, this.bytes, bytes);
    this.upper = settledArray(this.upper, (this.bytes + 7) >> 3, (bytes + 7) >> 3);
    this.start = settledArray(this.start, this.size, entries);
    this.parent = settledArray(this.parent, this.size, entries);
    this.flags = settledArray(this.flags, this.size, entries);
    // A walked table is in (parent, name) order: checked once, its lookups need no hash of it.
    this.sortedEnd = this.orderedPrefix();
    this.hash = null;
  }
}
