/** Size of one batch buffer (see PositionalWriter for why 512 KiB). */
const WRITE_BATCH_BYTES = 512 * 1024;
/** Idle batch buffers kept for the next writer; more are allocated while many uploads run. */
const POOLED_BATCHES = 16;

/**
 * The pool of batch buffers every upload writer of one file root copies request bodies into.
 *
 * A body arrives as chunks of up to 64 KiB that Node allocates outside V8's heap; a writer copies
 * each into a batch at once and drops it, so no chunk outlives the turn it arrived in and the
 * memory an upload holds is its batches: at most POOLED_BATCHES idle ones, reused from one upload
 * to the next rather than allocated per request. Nothing here asks V8 to collect (issue #37);
 * docs/benchmarks.md, "Uploads and the garbage collector", has what the dropped chunks cost.
 */
export class WriteBuffers {
  private readonly idle: Buffer[] = [];

  /** A batch buffer: an idle one when there is one, else a new one. */
  take(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafeSlow(WRITE_BATCH_BYTES);
  }

  /** Gives a batch back once its write has ended (kept while the pool has room). */
  give(batch: Buffer): void {
    if (this.idle.length < POOLED_BATCHES) this.idle.push(batch);
  }
}
