/**
 * Memory policy for folder listings. A listing holds a few dozen bytes per entry while it is
 * built and written (packed numbers, not `fs.Stats`: tree/read/child-stats.ts), and its reply goes out
 * through reused chunks (http/reply-chunks.ts), so what it leaves behind is short-lived strings
 * that die young. `EntryBudget` bounds what big listings hold at once: at most `capacity` entries
 * (judged from the folder's size before it is read, `estimatedEntries`); others wait their turn.
 * The work is CPU-bound on one thread anyway, so running big listings one after another costs no
 * throughput, and four concurrent 100,000-entry listings do not hold four times the memory. Small
 * folders never wait. Nothing here asks V8 to collect: the memory is bounded by design.
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
