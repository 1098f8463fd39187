import { foldName } from './fold.ts';
import { GROUP_SHIFT, type GramIndex } from './gram-index.ts';
import { hasTypeFilter, matchesType, type NameQuery } from './name-query.ts';
import { FLAG_DEAD, SEPARATOR, type NameTable } from './name-table.ts';

const SLASH = Buffer.from([SEPARATOR]);

/** Bytes of blob scanned per step: small enough that a step never holds the event loop for long. */
const WINDOW = 256 * 1024;
/** Entries per step when every name qualifies. */
const SLOT_STEP = 8192;
/** Non-exact hits after which a query counts as broad (see the single pass below). */
const BROAD = 512;
/** Candidate groups of the gram index verified per step. */
const GROUP_STEP = 4096;

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
  const keep = (id: number) => {
    if ((table.flags[id]! & FLAG_DEAD) !== 0 || !isInside(table, id, dirId)) return -1;
    if (
      hasTypeFilter(query) &&
      !matchesType(query, () => table.nameOf(id), table.isDir(id), table.kind(id))
    ) {
      return -1;
    }
    return id;
  };

  if (query.terms.length === 0) {
    if (!hasTypeFilter(query) || query.kinds.length > 0) {
      for (let from = 1; from < table.size; from += SLOT_STEP) {
        const batch: number[] = [];
        const to = Math.min(table.size, from + SLOT_STEP);
        for (let id = from; id < to; id++) {
          if (keep(id) >= 0) batch.push(id);
        }
        yield batch;
      }
      return;
    }
    // Only extension filters: the names end with them, found like terms in the folded blob
    // (`keep` then checks the extension's case).
    const needles = query.extensions.map((ext) => Buffer.from(`${foldName(ext)}/`));
    for (const step of scanNeedles(table, table.folded, needles, 0, 0)) {
      yield step.ids.filter((id) => keep(id) >= 0);
    }
    return;
  }

  // Names hold no `/`: a term with one matches nothing (and must not match across two names).
  const given = query.terms.filter((term) => !term.includes('/'));
  if (given.length === 0) return;
  // The blob holds folded names only: a case-sensitive term is looked for folded (a name holding
  // it holds its folded form at the same offset), and each name found is then checked, in its
  // original bytes, to hold the term itself.
  const cased = query.caseSensitive ? given.map((term) => Buffer.from(term)) : null;
  const terms = given.map((term) => Buffer.from(cased ? foldName(term) : term));
  const blob = table.folded;
  const equals = (start: number, end: number) => {
    if (cased) {
      const name = table.rawBytes(start, end);
      return cased.some((t) => name.equals(t));
    }
    return terms.some(
      (t) => end - start === t.length && blob.compare(t, 0, t.length, start, end) === 0,
    );
  };
  const startsWith = (start: number, end: number) => {
    if (cased) {
      const name = table.rawBytes(start, end);
      return cased.some(
        (t) => name.length > t.length && name.compare(t, 0, t.length, 0, t.length) === 0,
      );
    }
    return terms.some(
      (t) => end - start > t.length && blob.compare(t, 0, t.length, start, start + t.length) === 0,
    );
  };
  /** Whether a name found by its folded form holds a case-sensitive term as given. */
  const holds = (id: number) => {
    if (!cased) return true;
    const name = table.rawBytes(table.start[id]!, table.nameEnd(id));
    return cased.some((t) => name.includes(t));
  };
  const kept = (ids: number[]) => ids.filter((id) => holds(id) && keep(id) >= 0);
  const candidates = table.grams ? gramCandidates(table.grams, query) : null;
  if (candidates) {
    // Selective terms: the gram index names the few groups of names that may hold one, verified
    // against the blob; names added since it was built are scanned (the blob's tail).
    const covered = table.grams!.covered;
    const prefix: number[] = [];
    const rest: number[] = [];
    const sort = (id: number, exact: number[]) => {
      const start = table.start[id]!;
      const end = table.nameEnd(id);
      if (equals(start, end)) exact.push(id);
      else if (startsWith(start, end)) prefix.push(id);
      else rest.push(id);
    };
    for (let from = 0; from < candidates.length; from += GROUP_STEP) {
      const exact: number[] = [];
      const to = Math.min(candidates.length, from + GROUP_STEP);
      for (let i = from; i < to; i++) {
        for (const id of verifyGroup(table, blob, terms, candidates[i]!, covered)) sort(id, exact);
      }
      yield kept(exact);
    }
    if (covered < table.size) {
      for (const step of scanNeedles(table, blob, terms, table.start[covered]!, covered - 1)) {
        const exact: number[] = [];
        for (const id of step.ids) sort(id, exact);
        yield kept(exact);
      }
    }
    yield* chunks(prefix);
    yield* chunks(rest);
    return;
  }
  // One pass over the blob finds every name holding a term. Names equal to a term are sent as
  // found (that group comes first); the others are kept as ids and sent after the pass, prefix
  // matches before the rest. A selective query thus costs one scan.
  const prefix: number[] = [];
  const rest: number[] = [];
  let next = table.bytes;
  let lastId = 0;
  for (const step of scanNeedles(table, blob, terms, 0, 0)) {
    const exact: number[] = [];
    for (const id of step.ids) {
      const start = table.start[id]!;
      const end = table.nameEnd(id);
      if (equals(start, end)) exact.push(id);
      else if (startsWith(start, end)) prefix.push(id);
      else rest.push(id);
      lastId = id;
    }
    yield kept(exact);
    // A broad query: its first results must not wait for the whole pass. Finish the exact group
    // over the blob left (needle `term/`: slower to find than the term, so only when it pays),
    // send the prefix matches so far, then go on with the pass, sending prefix matches as found.
    if (prefix.length + rest.length >= BROAD && step.next < table.bytes) {
      next = step.next;
      break;
    }
  }
  if (next < table.bytes) {
    const exactNeedles = terms.map((t) => Buffer.concat([t, SLASH]));
    for (const step of scanNeedles(table, blob, exactNeedles, next, lastId)) {
      yield kept(step.ids.filter((id) => equals(table.start[id]!, table.nameEnd(id))));
    }
    yield* chunks(prefix);
    prefix.length = 0;
    for (const step of scanNeedles(table, blob, terms, next, lastId)) {
      const batch: number[] = [];
      for (const id of step.ids) {
        const start = table.start[id]!;
        const end = table.nameEnd(id);
        if (equals(start, end)) continue;
        if (startsWith(start, end)) batch.push(id);
        else rest.push(id);
      }
      yield kept(batch);
    }
  }
  yield* chunks(prefix);
  yield* chunks(rest);

  function* chunks(group: number[]): Generator<number[]> {
    for (let from = 0; from < group.length; from += SLOT_STEP) {
      yield kept(group.slice(from, from + SLOT_STEP));
    }
  }
}

/**
 * The candidate groups of every term (ascending, each once), or null when a term has no selective
 * trigram (short, or made of frequent trigrams only): the query is then answered by the scan.
 */
function gramCandidates(grams: GramIndex, query: NameQuery): Int32Array | null {
  const lists: Int32Array[] = [];
  for (const term of query.terms) {
    if (term.includes('/')) continue;
    // Case-sensitive terms are checked against the original names, but their candidates come
    // from the folded blob: a name holding the term holds its folded form at the same offset.
    const folded = query.caseSensitive ? foldName(term) : term;
    const groups = grams.candidates(Buffer.from(folded));
    if (!groups) return null;
    lists.push(groups);
  }
  if (lists.length === 1) return lists[0]!;
  const all = new Int32Array(lists.reduce((n, list) => n + list.length, 0));
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++)
    if (i === 0 || all[i] !== all[unique - 1]) all[unique++] = all[i]!;
  return all.subarray(0, unique);
}

/** The ids of one group (below `covered`) whose names hold a term, ascending. */
function verifyGroup(
  table: NameTable,
  blob: Buffer,
  terms: Buffer[],
  group: number,
  covered: number,
): number[] {
  const first = Math.max(1, group << GROUP_SHIFT);
  const end = Math.min(covered, table.size, (group + 1) << GROUP_SHIFT);
  if (first >= end) return [];
  const from = table.start[first]!;
  const to = table.nameEnd(end - 1);
  let found = 0;
  for (const term of terms) {
    if (term.length === 0) continue;
    for (let at = indexIn(blob, term, from, to); at >= 0; at = indexIn(blob, term, at + 1, to)) {
      let id = end - 1;
      while (table.start[id]! > at) id--;
      found |= 1 << (id - first);
      at = table.nameEnd(id); // The rest of this name cannot add anything.
    }
  }
  const ids: number[] = [];
  for (let id = first; found !== 0; id++, found >>>= 1) if (found & 1) ids.push(id);
  return ids;
}

/**
 * Where a term first occurs in blob[from, to), or -1. A group's names are a few hundred bytes: a
 * plain loop beats the native search there, whose fixed cost per call (and the subarray it needs
 * for a bound) made verifying thousands of candidate groups slower than scanning the whole blob.
 */
function indexIn(blob: Buffer, term: Buffer, from: number, to: number): number {
  const first = term[0]!;
  const length = term.length;
  for (let i = from, last = to - length; i <= last; i++) {
    if (blob[i] !== first) continue;
    let k = 1;
    while (k < length && blob[i + k] === term[k]) k++;
    if (k === length) return i;
  }
  return -1;
}

/**
 * Finds every needle in the blob from byte `from`, window by window, and yields per window the
 * entries (above `afterId`) whose names hold one, in blob order and each once, and where the next
 * window starts.
 */
function* scanNeedles(
  table: NameTable,
  blob: Buffer,
  needles: Buffer[],
  from: number,
  afterId: number,
): Generator<{ ids: number[]; next: number }> {
  let last = afterId;
  const bytes = table.bytes;
  for (; from < bytes; from += WINDOW) {
    const hits: number[] = [];
    for (const needle of needles) {
      if (needle.length === 0) continue;
      const window = blob.subarray(from, Math.min(bytes, from + WINDOW + needle.length - 1));
      for (let at = window.indexOf(needle); at >= 0; at = window.indexOf(needle, at + 1)) {
        const id = table.entryAt(from + at);
        hits.push(id);
        // The rest of this name cannot add anything: continue after it.
        at = table.nameEnd(id) - from;
      }
    }
    if (needles.length > 1) hits.sort((a, b) => a - b);
    const ids: number[] = [];
    for (const id of hits) {
      if (id <= last) continue;
      last = id;
      ids.push(id);
    }
    yield { ids, next: from + WINDOW };
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
