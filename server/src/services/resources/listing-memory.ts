import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Memory policy for folder listings. A listing holds a few dozen bytes per entry while it is
 * built and written, and produces several hundred bytes of short-lived garbage per entry (Node's
 * `fs.Stats` objects, sort keys, JSON pieces). Two measures keep the process near its idle size:
 *
 * - `EntryBudget` lets listings of big folders hold at most `capacity` entries at once (judged
 *   from the folder's size before it is read, `estimatedEntries`); others wait their turn. The work is CPU-bound on one thread anyway, so running big listings one after
 *   another costs no throughput, and four concurrent 100,000-entry listings no longer hold four
 *   times the memory. Small folders never wait.
 * - After a big listing, `collectSoon` asks V8 for one full collection. V8 sizes its old
 *   generation by the memory it could use (gigabytes here) and let garbage from successive
 *   listings pile up to hundreds of MiB before collecting it (docs/benchmarks.md).
 */
export class EntryBudget {
  private used = 0;
  private readonly waiting: { weight: number; start: () => void }[] = [];

  constructor(
    readonly capacity: number,
    /** Listings of at most this many entries neither wait nor count. */
    readonly smallListing: number,
  ) {}

  /** Waits until `entries` fit, then holds them; the returned function gives them back (once). */
  async take(entries: number): Promise<() => void> {
    if (entries <= this.smallListing) return () => undefined;
    const weight = Math.min(entries, this.capacity);
    if (this.waiting.length > 0 || this.used + weight > this.capacity) {
      await new Promise<void>((start) => this.waiting.push({ weight, start }));
    } else {
      this.used += weight;
    }
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.used -= weight;
      this.admit();
    };
  }

  /** Starts waiting listings in arrival order while they fit. */
  private admit(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.weight <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.weight;
      next.start();
    }
  }

  /** Entries held now (for tests). */
  get held(): number {
    return this.used;
  }
}

/**
 * How many entries a folder holds, judged from its size before it is read (an upper estimate on
 * ext4 and XFS, whose entries take 12 bytes plus the name, and on tmpfs, 20 bytes each): enough to
 * make big listings wait their turn before they have read anything.
 */
export function estimatedEntries(folder: { size: number }): number {
  return Math.ceil(folder.size / 16);
}

/** V8's full collection, made callable without starting Node with --expose-gc. */
let fullCollection: (() => void) | undefined;
function collector(): () => void {
  if (!fullCollection) {
    v8.setFlagsFromString('--expose-gc');
    // A context created after the flag is set sees the `gc` function.
    fullCollection = vm.runInNewContext('gc') as () => void;
  }
  return fullCollection;
}

const COLLECT_INTERVAL_MS = 1000;
let lastCollection = 0;
let scheduled = false;

/**
 * Runs one full collection soon (after the current I/O), at most once a second: a few tens of
 * milliseconds of pause after a listing that took hundreds.
 */
export function collectSoon(): void {
  if (scheduled) return;
  scheduled = true;
  const wait = Math.max(0, lastCollection + COLLECT_INTERVAL_MS - Date.now());
  setTimeout(() => {
    scheduled = false;
    lastCollection = Date.now();
    collector()();
  }, wait).unref();
}
