import { FLAG_DEAD, SEPARATOR, type NameTable } from './name-table.ts';
import { hasTypeFilter, matchesType, type NameQuery } from './name-query.ts';

/** Bytes of blob scanned per step: small enough that a step never holds the event loop for long. */
const WINDOW = 256 * 1024;
/** Slots per step when every name qualifies. */
const SLOT_STEP = 8192;

/** Which part of the name a needle must sit in. */
type Phase = 'exact' | 'prefix' | 'rest';

/**
 * The entries below `dirId` that match, in result order, as batches of ids (each batch is one
 * bounded step, so a caller streams, yields to the event loop and can stop between steps):
 *
 * 1. names equal to a term, 2. names starting with one, 3. the others containing one;
 * within each group, blob order, which is breadth first (shallower before deeper, names sorted)
 * for everything indexed by the last full walk, then entries added since in the order they came.
 */
export function* searchTable(
  table: NameTable,
  dirId: number,
  query: NameQuery,
): Generator<number[]> {
  const keep = (slot: number, emitted: (name: Buffer, start: number, end: number) => boolean) => {
    const id = table.slotId[slot]!;
    if (id < 0 || (table.flags[id]! & FLAG_DEAD) !== 0 || !isInside(table, id, dirId)) return -1;
    const blob = query.caseSensitive ? table.raw : table.folded;
    const start = table.slotStart[slot]!;
    if (emitted(blob, start, table.slotEnd(slot))) return -1;
    if (
      hasTypeFilter(query) &&
      !matchesType(query, table.nameOf(id), table.isDir(id), table.kind(id))
    ) {
      return -1;
    }
    return id;
  };

  if (query.terms.length === 0) {
    if (!hasTypeFilter(query) || query.kinds.length > 0) {
      for (let from = 0; from < table.slots; from += SLOT_STEP) {
        const batch: number[] = [];
        const to = Math.min(table.slots, from + SLOT_STEP);
        for (let slot = from; slot < to; slot++) {
          const id = keep(slot, () => false);
          if (id >= 0) batch.push(id);
        }
        yield batch;
      }
      return;
    }
    // Only extension filters: the names end with them, found like terms (case-sensitive blob).
    const needles = query.extensions.map((ext) => Buffer.from(`${ext}/`));
    yield* scanNeedles(table, table.raw, needles, (slot) => keep(slot, () => false));
    return;
  }

  // Names hold no `/`: a term with one matches nothing (and must not match across two names).
  const terms = query.terms.filter((term) => !term.includes('/')).map((term) => Buffer.from(term));
  if (terms.length === 0) return;
  const equalsTerm = (blob: Buffer, start: number, end: number) =>
    terms.some((t) => end - start === t.length && blob.compare(t, 0, t.length, start, end) === 0);
  const startsWithTerm = (blob: Buffer, start: number, end: number) =>
    terms.some(
      (t) => end - start >= t.length && blob.compare(t, 0, t.length, start, start + t.length) === 0,
    );
  const blob = query.caseSensitive ? table.raw : table.folded;
  const phases: [Phase, Buffer[], (b: Buffer, s: number, e: number) => boolean][] = [
    ['exact', terms.map((t) => wrap(t, true, true)), () => false],
    ['prefix', terms.map((t) => wrap(t, true, false)), equalsTerm],
    ['rest', terms, startsWithTerm],
  ];
  for (const [, needles, emitted] of phases) {
    yield* scanNeedles(table, blob, needles, (slot) => keep(slot, emitted));
  }
}

/** The term with separators around it: `/term/` finds equal names, `/term` names starting so. */
function wrap(term: Buffer, before: boolean, after: boolean): Buffer {
  const parts = [term];
  if (before) parts.unshift(Buffer.from([SEPARATOR]));
  if (after) parts.push(Buffer.from([SEPARATOR]));
  return Buffer.concat(parts);
}

/**
 * Finds every needle in the blob, window by window, and yields per window the accepted ids of the
 * slots hit, in slot order and each slot once.
 */
function* scanNeedles(
  table: NameTable,
  blob: Buffer,
  needles: Buffer[],
  accept: (slot: number) => number,
): Generator<number[]> {
  let lastSlot = -1;
  const bytes = table.bytes;
  for (let from = 0; from < bytes; from += WINDOW) {
    const hits: number[] = [];
    for (const needle of needles) {
      if (needle.length === 0) continue;
      const to = Math.min(bytes, from + WINDOW + needle.length - 1);
      const window = blob.subarray(from, to);
      for (let at = window.indexOf(needle); at >= 0; at = window.indexOf(needle, at + 1)) {
        const offset = from + at;
        // A needle that starts with the separator names the slot after it.
        const slot = table.slotAt(needle[0] === SEPARATOR ? offset + 1 : offset);
        hits.push(slot);
        // The rest of this name cannot add anything: continue after it.
        at = table.slotEnd(slot) - from - 1;
      }
    }
    if (needles.length > 1) hits.sort((a, b) => a - b);
    const batch: number[] = [];
    for (const slot of hits) {
      if (slot <= lastSlot) continue;
      lastSlot = slot;
      const id = accept(slot);
      if (id >= 0) batch.push(id);
    }
    yield batch;
  }
}

/** Whether an entry lies below `dirId` through live folders only (removed folders hide all below). */
function isInside(table: NameTable, id: number, dirId: number): boolean {
  let at = id;
  for (;;) {
    at = table.parent[at]!;
    if (at === dirId) return true;
    if (at <= 0 || (table.flags[at]! & FLAG_DEAD) !== 0) return false;
  }
}
