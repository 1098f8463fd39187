import { foldName } from './fold.ts';
import { kindOfName } from './entry-kind.ts';

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
  slotStart: Uint32Array;
  slotId: Int32Array;
  parent: Int32Array;
  flags: Uint8Array;
  idSlot: Int32Array;
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

/** FNV-1a over a name's UTF-8 bytes, mixed with its parent's id. */
function hashOf(bytes: Buffer, start: number, end: number, parentId: number): number {
  let h = (0x811c9dc5 ^ parentId) >>> 0;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * The whole tree's names, packed for scanning and small in memory (docs/search.md):
 *
 * - every name once in `raw` and once case-folded in `folded`, both laid out `/name/name/…` with
 *   the same offsets, so a substring search is one native `Buffer.indexOf` over a flat buffer;
 * - slots (positions in the blob, in build order: breadth first, names sorted) map to entry ids
 *   through `slotStart`/`slotId` (a removed entry's slot maps to -1);
 * - entries are ids into parallel typed arrays: `parent` (the tree), `flags` (folder, link, dead,
 *   media kind) and `idSlot`; no object per entry;
 * - an open-addressing hash of (parent, name) → id finds entries by path for watcher events.
 *
 * Removing a folder marks only the folder dead: its descendants are unreachable (every query
 * walks each hit's ancestors) and disappear at the next rebuild.
 */
export class NameTable {
  raw: Buffer;
  folded: Buffer;
  /** Bytes used in both blobs. */
  bytes: number;
  slotStart: Uint32Array;
  slotId: Int32Array;
  slots: number;
  parent: Int32Array;
  flags: Uint8Array;
  idSlot: Int32Array;
  /** Ids used (the root is id 0 and has no name). */
  size: number;
  /** Live named entries. */
  live = 0;
  private hash: Int32Array;
  private hashed = 0;

  constructor(parts?: TableParts) {
    if (parts) {
      this.raw = parts.raw;
      this.folded = parts.folded;
      this.bytes = parts.raw.length;
      this.slotStart = parts.slotStart;
      this.slotId = parts.slotId;
      this.slots = parts.slotStart.length;
      this.parent = parts.parent;
      this.flags = parts.flags;
      this.idSlot = parts.idSlot;
      this.size = parts.parent.length;
    } else {
      this.raw = Buffer.allocUnsafeSlow(4096);
      this.folded = Buffer.allocUnsafeSlow(4096);
      this.raw[0] = SEPARATOR;
      this.folded[0] = SEPARATOR;
      this.bytes = 1;
      this.slotStart = new Uint32Array(1024);
      this.slotId = new Int32Array(1024);
      this.slots = 0;
      this.parent = new Int32Array(1024);
      this.flags = new Uint8Array(1024);
      this.idSlot = new Int32Array(1024);
      this.parent[0] = -1;
      this.flags[0] = FLAG_DIR;
      this.idSlot[0] = -1;
      this.size = 1;
    }
    this.hash = new Int32Array(1024);
    if (parts) this.rehash();
  }

  /** The parts to persist, trimmed to what is used. */
  parts(): TableParts {
    return {
      raw: this.raw.subarray(0, this.bytes),
      folded: this.folded.subarray(0, this.bytes),
      slotStart: this.slotStart.subarray(0, this.slots),
      slotId: this.slotId.subarray(0, this.slots),
      parent: this.parent.subarray(0, this.size),
      flags: this.flags.subarray(0, this.size),
      idSlot: this.idSlot.subarray(0, this.size),
    };
  }

  /** Last byte (exclusive) of a slot's name. */
  slotEnd(slot: number): number {
    return slot + 1 < this.slots ? this.slotStart[slot + 1]! - 1 : this.bytes - 1;
  }

  /** The slot holding a blob offset (binary search: slots are in offset order). */
  slotAt(offset: number): number {
    let low = 0;
    let high = this.slots - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.slotStart[mid]! <= offset) low = mid;
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
    const slot = this.idSlot[id]!;
    if (slot < 0) return '';
    return this.raw.toString('utf8', this.slotStart[slot]!, this.slotEnd(slot));
  }

  /** The live child of a folder with this name, or -1. */
  lookup(parentId: number, name: string): number {
    const bytes = Buffer.from(name);
    const mask = this.hash.length - 1;
    for (let i = hashOf(bytes, 0, bytes.length, parentId) & mask; ; i = (i + 1) & mask) {
      const stored = this.hash[i]!;
      if (stored === 0) return -1;
      const id = stored - 1;
      if (this.parent[id] !== parentId) continue;
      const slot = this.idSlot[id]!;
      const start = this.slotStart[slot]!;
      const end = this.slotEnd(slot);
      if (
        end - start === bytes.length &&
        this.raw.compare(bytes, 0, bytes.length, start, end) === 0
      )
        return id;
    }
  }

  /** Adds a child; the caller has checked that the name is not there yet. */
  add(parentId: number, name: string, isDir: boolean, isLink: boolean): number {
    const id = this.size++;
    this.parent = grown(this.parent, this.size);
    this.flags = grown(this.flags, this.size);
    this.idSlot = grown(this.idSlot, this.size);
    this.parent[id] = parentId;
    this.setType(id, name, isDir, isLink);
    this.writeSlot(id, name);
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
    this.slotId[this.idSlot[id]!] = -1;
    this.live--;
  }

  private writeSlot(id: number, name: string): void {
    const folded = foldName(name);
    const length = Buffer.byteLength(name);
    this.raw = grownBuffer(this.raw, this.bytes + length + 1);
    this.folded = grownBuffer(this.folded, this.bytes + length + 1);
    const start = this.bytes;
    this.raw.write(name, start, 'utf8');
    this.folded.write(folded, start, 'utf8');
    this.raw[start + length] = SEPARATOR;
    this.folded[start + length] = SEPARATOR;
    this.bytes += length + 1;
    const slot = this.slots++;
    this.slotStart = grown(this.slotStart, this.slots);
    this.slotId = grown(this.slotId, this.slots);
    this.slotStart[slot] = start;
    this.slotId[slot] = id;
    this.idSlot[id] = slot;
  }

  private homeOf(id: number): number {
    const slot = this.idSlot[id]!;
    return hashOf(this.raw, this.slotStart[slot]!, this.slotEnd(slot), this.parent[id]!);
  }

  private insertHash(id: number): void {
    if ((this.hashed + 1) * 2 > this.hash.length) {
      this.hash = new Int32Array(this.hash.length * 2);
      this.rehash();
    }
    const mask = this.hash.length - 1;
    let i = this.homeOf(id) & mask;
    while (this.hash[i] !== 0) i = (i + 1) & mask;
    this.hash[i] = id + 1;
    this.hashed++;
  }

  /** Linear probing with backward-shift deletion: no tombstones to slow later lookups. */
  private removeHash(id: number): void {
    const mask = this.hash.length - 1;
    let i = this.homeOf(id) & mask;
    while (this.hash[i] !== id + 1) {
      if (this.hash[i] === 0) return;
      i = (i + 1) & mask;
    }
    let j = i;
    for (;;) {
      j = (j + 1) & mask;
      const stored = this.hash[j]!;
      if (stored === 0) break;
      const home = this.homeOf(stored - 1) & mask;
      const between = i <= j ? home > i && home <= j : home > i || home <= j;
      if (!between) {
        this.hash[i] = stored;
        i = j;
      }
    }
    this.hash[i] = 0;
    this.hashed--;
  }

  /** Rebuilds the hash from the live entries (after loading, or when it grows). */
  private rehash(): void {
    let capacity = this.hash.length;
    let live = 0;
    for (let id = 1; id < this.size; id++) if (this.isAlive(id)) live++;
    while (live * 2 > capacity) capacity *= 2;
    if (capacity !== this.hash.length) this.hash = new Int32Array(capacity);
    else this.hash.fill(0);
    this.hashed = 0;
    this.live = live;
    const mask = capacity - 1;
    for (let id = 1; id < this.size; id++) {
      if (!this.isAlive(id)) continue;
      let i = this.homeOf(id) & mask;
      while (this.hash[i] !== 0) i = (i + 1) & mask;
      this.hash[i] = id + 1;
      this.hashed++;
    }
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
      this.slotStart.byteLength +
      this.slotId.byteLength +
      this.parent.byteLength +
      this.flags.byteLength +
      this.idSlot.byteLength +
      this.hash.byteLength
    );
  }

  /** Shrinks every array to what is used (after a build). */
  trim(): void {
    const parts = this.parts();
    this.raw = Buffer.from(parts.raw);
    this.folded = Buffer.from(parts.folded);
    this.slotStart = parts.slotStart.slice();
    this.slotId = parts.slotId.slice();
    this.parent = parts.parent.slice();
    this.flags = parts.flags.slice();
    this.idSlot = parts.idSlot.slice();
  }
}
