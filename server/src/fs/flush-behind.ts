import type { FileHandle } from 'node:fs/promises';

/**
 * Big writes are made durable with one fsync at the end. With nothing else done, that fsync starts
 * writing the whole file back only once the last byte has arrived (the kernel's own writeback
 * waits until a tenth of the memory is dirty), so a 1 GiB upload waited about a second for it after
 * the transfer. Flushing behind the writer instead (fdatasync in the background every few tens of
 * MiB) lets the disk work while the network does, and leaves the final fsync a small remainder.
 */
const FLUSH_EVERY_BYTES = 32 * 1024 * 1024;
const CHECK_EVERY_MS = 100;

/**
 * Starts flushing `handle` behind a writer whose progress `written()` reports. Returns the stop
 * function, which waits for a flush still running (call it before closing the handle).
 */
export function flushBehind(
  handle: Pick<FileHandle, 'datasync'>,
  written: () => number,
  everyBytes = FLUSH_EVERY_BYTES,
): () => Promise<void> {
  let flushedAt = 0;
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    const now = written();
    if (running || now - flushedAt < everyBytes) return;
    flushedAt = now;
    // A failed flush is not the writer's failure: the final fsync reports real errors.
    running = handle
      .datasync()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      });
  }, CHECK_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/**
 * The same for a file written by several requests in turn (resumable uploads): each request calls
 * `wrote(bytes)`; every FLUSH_EVERY_BYTES the file is flushed in the background through a handle
 * of its own, one flush at a time per file.
 */
export class FlushBehindFiles {
  private readonly pending = new Map<string, { bytes: number; running: boolean }>();

  constructor(
    private readonly flush: (path: string) => Promise<void>,
    private readonly everyBytes = FLUSH_EVERY_BYTES,
  ) {}

  wrote(path: string, bytes: number): void {
    const state = this.pending.get(path) ?? { bytes: 0, running: false };
    state.bytes += bytes;
    this.pending.set(path, state);
    if (state.running || state.bytes < this.everyBytes) return;
    state.bytes = 0;
    state.running = true;
    void this.flush(path)
      .catch(() => undefined)
      .finally(() => {
        state.running = false;
      });
  }

  /** The file is complete or gone: stop tracking it. */
  forget(path: string): void {
    this.pending.delete(path);
  }
}
