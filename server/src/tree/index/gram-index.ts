import { growableArray, grownArray, release } from './growable.ts';
import type { NameTable } from './name-table.ts';
import { sortedIndexOf } from './sorted-index-of.ts';

/**
 * Entries are indexed in groups of 2^GROUP_SHIFT consecutive ids: a posting names a group, not an
 * entry. Neighbouring names (one folder, sorted) share most of their trigrams, so groups of 8 hold
 * a third of the postings that entries would, with gaps that fit one varint byte more often; a
 * candidate group costs one native search over its 8 names to verify (docs/search.md).
 */
export const GROUP_SHIFT = 3;
/**
 * A trigram found in more than this share of the groups gets no list: it would cost memory and
 * select nothing (`.jp`, `pdf`, `img`). A term made of such trigrams only is found by the scan.
 */
const FREQUENT_SHARE = 8;
/** Marks a frequent trigram in `counts`. */
export const FREQUENT = 0xffffffff;
/** Groups handled per build step, so a build of a million names never holds the event loop long. */
const GROUPS_PER_STEP = 2048;
/** Once this few candidate groups are left, verifying them costs less than decoding more lists. */
const FEW_CANDIDATES = 16;

/** The arrays a gram index is made of, as persisted (see index-file.ts). */
export interface GramParts {
  /** Ids below this are indexed; later ones (added since) are found by scanning the blob's tail. */
  covered: number;
  /** Trigram codes (three folded bytes, big end first), ascending. */
  codes: Uint32Array;
  /** Number of groups in each trigram's list, or FREQUENT. */
  counts: Uint32Array;
  /** Where each trigram's list starts in `postings` (one more than the codes: the end). */
  starts: Uint32Array;
  /** Each list: the group numbers ascending, as unsigned LEB128 varints of their gaps. */
  postings: Uint8Array;
}

function varintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

/**
 * Trigram code → slot number, with per-slot arrays the build fills; only used while building. ASCII
 * trigrams (almost all of them) are looked up in a direct table of 2^21 slots (8 MiB, freed with the
 * build); the others by open addressing. A hash lookup per trigram made the build of a million
 * names cost half as much again as walking the tree.
 */
class SlotMap {
  private readonly ascii = new Int32Array(1 << 21);
  private keys = new Int32Array(1024);
  codes = new Uint32Array(512);
  last = new Int32Array(512);
  counts = new Uint32Array(512);
  bytes = new Float64Array(512);
  size = 0;

  slot(code: number): number {
    if ((code & 0x808080) === 0) {
      const at = ((code >> 2) & 0x1fc000) | ((code >> 1) & 0x3f80) | (code & 0x7f);
      const stored = this.ascii[at]!;
      if (stored !== 0) return stored - 1;
      const slot = this.newSlot(code);
      this.ascii[at] = slot + 1;
      return slot;
    }
    const mask = this.keys.length - 1;
    let i = Math.imul(code, 0x9e3779b1) >>> 0;
    for (i &= mask; ; i = (i + 1) & mask) {
      const stored = this.keys[i]!;
      if (stored === 0) break;
      if (this.codes[stored - 1] === code) return stored - 1;
    }
    const slot = this.newSlot(code);
    this.keys[i] = slot + 1;
    if (this.size * 2 > this.keys.length) this.rehash();
    return slot;
  }

  private newSlot(code: number): number {
    const slot = this.size++;
    if (slot >= this.codes.length) this.growSlots();
    this.codes[slot] = code;
    this.last[slot] = -1;
    return slot;
  }

  private growSlots(): void {
    const length = this.codes.length * 2;
    this.codes = grownArray(this.codes, length);
    this.last = grownArray(this.last, length);
    this.counts = grownArray(this.counts, length);
    this.bytes = grownArray(this.bytes, length);
  }

  /** Gives the build's arrays back at once (the map is not used after). */
  release(): void {
    for (const array of [this.ascii, this.codes, this.last, this.counts, this.bytes]) {
      release(array);
    }
  }

  /** Re-places the non-ASCII codes in a table twice as big. */
  private rehash(): void {
    const keys = new Int32Array(this.keys.length * 2);
    const mask = keys.length - 1;
    for (let slot = 0; slot < this.size; slot++) {
      const code = this.codes[slot]!;
      if ((code & 0x808080) === 0) continue;
      let i = (Math.imul(code, 0x9e3779b1) >>> 0) & mask;
      while (keys[i] !== 0) i = (i + 1) & mask;
      keys[i] = slot + 1;
    }
    this.keys = keys;
  }
}

/** Ids of a group that the index covers: [first, end). */
function groupIds(group: number, covered: number): [number, number] {
  return [Math.max(1, group << GROUP_SHIFT), Math.min(covered, (group + 1) << GROUP_SHIFT)];
}

/** Pass 1 over groups [from, to): per trigram, the groups holding it and its list's bytes. */
function countGrams(table: NameTable, slots: SlotMap, covered: number, from: number, to: number) {
  const blob = table.folded;
  const start = table.start;
  for (let group = from; group < to; group++) {
    const [first, end] = groupIds(group, covered);
    for (let id = first; id < end; id++) {
      const nameEnd = table.nameEnd(id);
      let i = start[id]!;
      if (nameEnd - i < 3) continue;
      let code = (blob[i]! << 8) | blob[i + 1]!;
      for (i += 2; i < nameEnd; i++) {
        code = ((code << 8) | blob[i]!) & 0xffffff;
        const slot = slots.slot(code);
        const last = slots.last[slot]!;
        if (last === group) continue;
        slots.counts[slot] = slots.counts[slot]! + 1;
        slots.bytes[slot] = slots.bytes[slot]! + varintLength(group - last);
        slots.last[slot] = group;
      }
    }
  }
}

/** Pass 2 over groups [from, to): writes the gaps into each kept trigram's list. */
function writeGrams(
  table: NameTable,
  slots: SlotMap,
  cursor: Float64Array,
  postings: Uint8Array,
  covered: number,
  from: number,
  to: number,
) {
  const blob = table.folded;
  const start = table.start;
  for (let group = from; group < to; group++) {
    const [first, end] = groupIds(group, covered);
    for (let id = first; id < end; id++) {
      const nameEnd = table.nameEnd(id);
      let i = start[id]!;
      if (nameEnd - i < 3) continue;
      let code = (blob[i]! << 8) | blob[i + 1]!;
      for (i += 2; i < nameEnd; i++) {
        code = ((code << 8) | blob[i]!) & 0xffffff;
        const slot = slots.slot(code);
        let at = cursor[slot]!;
        const last = slots.last[slot]!;
        if (at < 0 || last === group) continue;
        slots.last[slot] = group;
        for (let gap = group - last; ; gap >>>= 7) {
          if (gap < 0x80) {
            postings[at++] = gap;
            break;
          }
          postings[at++] = (gap & 0x7f) | 0x80;
        }
        cursor[slot] = at;
      }
    }
  }
}

/**
 * Builds the gram index of the table's entries below `covered` (all of them by default), one
 * bounded step per yield: the caller waits for the event loop between steps. The table may grow
 * meanwhile (only ids at or above `covered` are added; names already written never change).
 */
export function* buildGramIndex(
  table: NameTable,
  covered = table.size,
): Generator<void, GramIndex> {
  const groups = (covered + (1 << GROUP_SHIFT) - 1) >> GROUP_SHIFT;
  const slots = new SlotMap();
  for (let from = 0; from < groups; from += GROUPS_PER_STEP) {
    countGrams(table, slots, covered, from, Math.min(groups, from + GROUPS_PER_STEP));
    yield;
  }
  // Lists laid out in code order; frequent trigrams keep their code (so a query knows them) only.
  const order = Array.from({ length: slots.size }, (_, slot) => slot).sort(
    (a, b) => slots.codes[a]! - slots.codes[b]!,
  );
  const limit = Math.max(64, Math.ceil(groups / FREQUENT_SHARE));
  const codes = new Uint32Array(order.length);
  const counts = new Uint32Array(order.length);
  const starts = new Uint32Array(order.length + 1);
  const cursor = growableArray(Float64Array, slots.size);
  let total = 0;
  order.forEach((slot, rank) => {
    codes[rank] = slots.codes[slot]!;
    starts[rank] = total;
    cursor[slot] = total;
    const frequent = slots.counts[slot]! > limit;
    counts[rank] = frequent ? FREQUENT : slots.counts[slot]!;
    if (frequent) cursor[slot] = -1;
    else total += slots.bytes[slot]!;
  });
  starts[order.length] = total;
  const postings = new Uint8Array(total);
  slots.last.fill(-1);
  for (let from = 0; from < groups; from += GROUPS_PER_STEP) {
    const to = Math.min(groups, from + GROUPS_PER_STEP);
    writeGrams(table, slots, cursor, postings, covered, from, to);
    yield;
  }
  slots.release();
  release(cursor);
  return new GramIndex({ covered, codes, counts, starts, postings });
}

/** Whether persisted parts hang together (codes ascending, lists inside the postings, in order). */
function wellFormed(parts: GramParts): boolean {
  const { codes, counts, starts, postings } = parts;
  if (counts.length !== codes.length || starts.length !== codes.length + 1) return false;
  if (starts[0] !== 0 || starts[codes.length] !== postings.length) return false;
  for (let i = 0; i < codes.length; i++) {
    if (codes[i]! > 0xffffff || (i > 0 && codes[i]! <= codes[i - 1]!)) return false;
    const bytes = starts[i + 1]! - starts[i]!;
    if (bytes < 0 || (counts[i] === FREQUENT ? bytes !== 0 : bytes < counts[i]!)) return false;
  }
  return true;
}

/** The three-byte codes of a term's trigrams, each once. */
function gramsOf(term: Buffer): number[] {
  const codes = new Set<number>();
  for (let i = 0; i + 3 <= term.length; i++) {
    codes.add((term[i]! << 16) | (term[i + 1]! << 8) | term[i + 2]!);
  }
  return [...codes];
}

/**
 * A trigram index over the folded names of a table's first `covered` ids (docs/search.md): for
 * every trigram, the ascending list of groups (of 8 ids) whose names hold it. A term's candidate
 * groups are the intersection of its trigrams' lists, rarest first; the candidates are verified
 * against the blob, so the index only has to say where a term cannot be.
 */
export class GramIndex {
  readonly covered: number;
  private readonly codes: Uint32Array;
  private readonly counts: Uint32Array;
  private readonly starts: Uint32Array;
  private readonly postings: Uint8Array;

  constructor(parts: GramParts) {
    if (!wellFormed(parts)) throw new Error('malformed trigram index');
    this.covered = parts.covered;
    this.codes = parts.codes;
    this.counts = parts.counts;
    this.starts = parts.starts;
    this.postings = parts.postings;
  }

  parts(): GramParts {
    const { covered, codes, counts, starts, postings } = this;
    return { covered, codes, counts, starts, postings };
  }

  get memoryBytes(): number {
    return (
      this.codes.byteLength +
      this.counts.byteLength +
      this.starts.byteLength +
      this.postings.byteLength
    );
  }

  /**
   * The groups that may hold names containing `folded` (a folded term, UTF-8), ascending; null
   * when the term has no trigram selective enough (shorter than 3 bytes, or frequent trigrams
   * only): the caller then scans.
   */
  candidates(folded: Buffer): Int32Array | null {
    const lists: number[] = [];
    for (const code of gramsOf(folded)) {
      const rank = this.rankOf(code);
      // A trigram that no indexed name holds: no indexed name holds the term.
      if (rank < 0) return new Int32Array(0);
      if (this.counts[rank] !== FREQUENT) lists.push(rank);
    }
    if (lists.length === 0) return null;
    lists.sort((a, b) => this.counts[a]! - this.counts[b]!);
    let groups = this.decode(lists[0]!);
    for (let i = 1; i < lists.length && groups.length > FEW_CANDIDATES; i++) {
      groups = this.intersect(groups, lists[i]!);
    }
    return groups;
  }

  private rankOf(code: number): number {
    return sortedIndexOf(this.codes, code);
  }

  private decode(rank: number): Int32Array {
    const out = new Int32Array(this.counts[rank]!);
    const postings = this.postings;
    let at = this.starts[rank]!;
    let group = -1;
    for (let n = 0; n < out.length; n++) {
      let gap = 0;
      let shift = 0;
      for (;;) {
        const byte = postings[at++] ?? 0; // Never past the end, even in a damaged list.
        gap += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
        shift += 7;
      }
      group += gap;
      out[n] = group;
    }
    return out;
  }

  /** The groups of `groups` that are also in a list, decoding the list as it goes. */
  private intersect(groups: Int32Array, rank: number): Int32Array {
    const out = new Int32Array(groups.length);
    const postings = this.postings;
    const end = this.starts[rank + 1]!;
    let at = this.starts[rank]!;
    let group = -1;
    let kept = 0;
    let i = 0;
    while (at < end && i < groups.length) {
      let gap = 0;
      let shift = 0;
      for (;;) {
        const byte = postings[at++] ?? 0; // Never past the end, even in a damaged list.
        gap += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
        shift += 7;
      }
      group += gap;
      while (i < groups.length && groups[i]! < group) i++;
      if (i < groups.length && groups[i] === group) out[kept++] = groups[i++]!;
    }
    return out.subarray(0, kept);
  }
}
