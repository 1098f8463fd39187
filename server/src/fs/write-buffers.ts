import { collectYoungGeneration } from './collect-garbage.ts';

/** Size of one batch buffer (see PositionalWriter for why 512 KiB). */
const WRITE_BATCH_BYTES = 512 * 1024;
/** Idle batch buffers kept for the next writer; more are allocated while many uploads run. */
const POOLED_BATCHES = 16;
/**
 * Body bytes received between two young-generation collections (see `received`). The old
 * generation's headroom after a full collection is about 8 MiB of step plus the 8 MiB new space
 * (server/scripts/node-flags.mjs), and marking starts once less than the new space is left: a
 * collection every 4 MiB keeps the body chunks well inside it. In the benchmark a scavenge took
 * well under a millisecond, every 4 MiB at 400 MB/s about 10 ms apart.
 */
const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;

export interface WriteBuffersOptions {
  /**
   * A young-generation collection; default V8's own when the process runs with `--expose-gc`
   * (as `npm start` and the `cabinet` binary run it), none otherwise (tests' own processes).
   */
  collectYoung?: () => void;
  /** Bytes between two collections (tests use a small figure). */
  collectEveryBytes?: number;
}

/**
 * What every upload writer of one file root shares: the pool of batch buffers the bodies are
 * copied into, and the cadence of young-generation collections that keeps request bodies from
 * setting off full ones.
 *
 * Node copies each chunk of a request body (up to 64 KiB) into memory of its own outside V8's
 * heap. V8 counts that memory against the old generation's headroom until a scavenge frees the
 * chunks, and a body makes little garbage on the heap itself, so scavenges come seldom: every few
 * MiB of upload started a full mark-compact of the whole heap (the bench saw ~20 a second, TUS
 * uploads at 40% of a local write). One cheap scavenge per COLLECT_EVERY_BYTES frees the chunks
 * first (TUS back to ~95%, POST above the local write; docs/benchmarks.md, "Uploads and the
 * garbage collector").
 */
export class WriteBuffers {
  private readonly idle: Buffer[] = [];
  private receivedSinceCollection = 0;
  private readonly collectYoung: () => void;
  private readonly collectEveryBytes: number;

  constructor(options: WriteBuffersOptions = {}) {
    this.collectYoung = options.collectYoung ?? collectYoungGeneration;
    this.collectEveryBytes = options.collectEveryBytes ?? COLLECT_EVERY_BYTES;
  }

  /** A batch buffer: an idle one when there is one, else a new one. */
  take(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafeSlow(WRITE_BATCH_BYTES);
  }

  /** Gives a batch back once its write has ended (kept while the pool has room). */
  give(batch: Buffer): void {
    if (this.idle.length < POOLED_BATCHES) this.idle.push(batch);
  }

  /** Counts body bytes a writer received (every upload of the process together). */
  received(bytes: number): void {
    this.receivedSinceCollection += bytes;
    if (this.receivedSinceCollection < this.collectEveryBytes) return;
    this.receivedSinceCollection = 0;
    this.collectYoung();
  }
}
