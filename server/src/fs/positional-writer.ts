import type { FileHandle } from 'node:fs/promises';
import type { WriteBuffers } from './write-buffers.ts';

/** Batches written at once (see PositionalWriter); 2 and 4 both measured slower than 3. */
const WRITES_IN_FLIGHT = 3;

/**
 * Copies incoming buffers into 512 KiB batches and writes each at its position while the next
 * batches are being received.
 *
 * The batch size: larger batches mean fewer syscalls but a batch is copied twice (from the socket's
 * chunks, then into the page cache), and while it fits the CPU's cache the second copy is cheap: in
 * A/B runs on the benchmark machine (AMD EPYC) 512 KiB uploaded ~1.5-1.8x faster than 1 MiB, 4 MiB
 * slower still, 256 KiB a little slower. Incoming chunks are copied into the batches at once
 * instead of being held until their batch is written: a chunk held that long outlives a scavenge,
 * is promoted to the old generation and, once the old generation's limit is near, every few MiB of
 * upload set off a full mark-compact. A copy into a warm pooled buffer (WriteBuffers) costs far
 * less.
 *
 * Up to WRITES_IN_FLIGHT writes run at once on the thread pool: with one at a time, each batch
 * waited for the previous one's hand-off and the socket stalled between them (measured ~20% slower
 * on the benchmark machine). Memory stays at a few batches per writer.
 */
export class PositionalWriter {
  /** Where the next batch goes; after finish(), the end of what was written. */
  position: number;
  private batch: Buffer | undefined;
  private batchBytes = 0;
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly handle: FileHandle,
    offset: number,
    private readonly buffers: WriteBuffers,
  ) {
    this.position = offset;
  }

  /** Copies a buffer into the batches; false once a write has failed (the caller stops reading). */
  async add(buffer: Uint8Array): Promise<boolean> {
    let from = 0;
    while (from < buffer.length && this.failure === undefined) {
      this.batch ??= this.buffers.take();
      const copied = Math.min(buffer.length - from, this.batch.length - this.batchBytes);
      this.batch.set(buffer.subarray(from, from + copied), this.batchBytes);
      this.batchBytes += copied;
      from += copied;
      if (this.batchBytes === this.batch.length) {
        while (this.inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(this.inFlight);
        if (this.failure === undefined) this.startWrite();
      }
    }
    return this.failure === undefined;
  }

  /** Throws the first write failure so far, without waiting for the writes in flight. */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /** Writes what is left and waits for every write; throws the first write failure. */
  async finish(): Promise<void> {
    if (this.failure === undefined) this.startWrite();
    await Promise.all(this.inFlight);
    if (this.batch) {
      this.buffers.give(this.batch);
      this.batch = undefined;
      this.batchBytes = 0;
    }
    if (this.failure !== undefined) throw this.failure;
  }

  private startWrite(): void {
    if (!this.batch || this.batchBytes === 0) return;
    const batch = this.batch;
    const bytes = this.batchBytes;
    const at = this.position;
    this.position += bytes;
    this.batch = undefined;
    this.batchBytes = 0;
    // The failure is kept, not left as a rejected promise nobody awaits yet.
    const write: Promise<void> = writeAllAt(this.handle, batch.subarray(0, bytes), at).then(
      () => {
        this.inFlight.delete(write);
        this.buffers.give(batch);
      },
      (error: unknown) => {
        this.failure ??= error;
        this.inFlight.delete(write);
        this.buffers.give(batch);
      },
    );
    this.inFlight.add(write);
  }
}

/** Writes all of `data` at `position`, looping over short writes. */
async function writeAllAt(handle: FileHandle, data: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    if (bytesWritten === 0) throw new Error('write made no progress');
    done += bytesWritten;
  }
}
