import type { Writable } from 'node:stream';
import { abortable, waitForDrain } from './stream-waits.ts';

/** What a copy reads from: an open file (a `FileHandle` is one). */
export interface ReadableFile {
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
}

/** An open file whose content is already in memory (converted previews). */
export function bufferFile(
  content: Buffer,
  onClose?: () => void,
): ReadableFile & {
  close(): Promise<void>;
} {
  return {
    read: async (buffer, offset, length, position) => {
      const bytesRead = Math.max(0, Math.min(length, content.length - position));
      content.copy(buffer, offset, position, position + bytesRead);
      return { bytesRead };
    },
    close: async () => onClose?.(),
  };
}

/**
 * A few read buffers reused for a whole response. Allocating a fresh buffer per read made every
 * chunk fault its pages in anew: on the benchmark machine that cost more than the copy itself
 * (1 MiB reads ran at ~300 MB/s into fresh buffers, several GB/s into reused ones).
 */
export class ChunkPool {
  private readonly free: Buffer[] = [];
  private readonly waiting: ((buffer: Buffer) => void)[] = [];

  constructor(count: number, size: number) {
    for (let i = 0; i < count; i++) this.free.push(Buffer.allocUnsafeSlow(size));
  }

  /** A free buffer, waiting for one to be released when all are in flight. */
  acquire(signal: AbortSignal): Promise<Buffer> {
    const buffer = this.free.pop();
    if (buffer) return Promise.resolve(buffer);
    return abortable(new Promise<Buffer>((resolve) => this.waiting.push(resolve)), signal);
  }

  release(buffer: Buffer): void {
    const next = this.waiting.shift();
    if (next) next(buffer);
    else this.free.push(buffer);
  }
}

export interface CopyOptions {
  pool: ChunkPool;
  signal: AbortSignal;
  /** Sees every chunk before it is written (a CRC-32, say). */
  onData?: (chunk: Buffer) => void;
  /**
   * The sink calls a write's callback only once it no longer needs the chunk (a socket, a file,
   * zlib). Sinks that keep chunks after the callback (framers that batch them, pipes to child
   * processes, PassThroughs) get copies instead.
   */
  sinkReleasesOnCallback: boolean;
}

interface ReadResult {
  buffer: Buffer;
  bytesRead: number;
}

/**
 * Copies bytes `start` to `start + length` of `file` into `sink` through pooled buffers, the next
 * read running while the previous chunks are written: no more in flight than the pool holds (or,
 * for a sink that keeps chunks, than its high-water mark).
 * Returns the bytes copied (fewer when the file turned out shorter) and whether it holds more.
 */
export async function copyFileRange(
  file: ReadableFile,
  start: number,
  length: number,
  sink: Writable,
  options: CopyOptions,
): Promise<{ copied: number; more: boolean }> {
  const { pool, signal } = options;
  const end = start + length;
  // A read that reaches `end` asks for one byte more, which tells whether the file goes on past
  // the range without a read of its own.
  let more = false;
  const readAt = async (position: number): Promise<ReadResult> => {
    const buffer = await pool.acquire(signal);
    try {
      const wanted = Math.min(buffer.length, end - position + 1);
      let { bytesRead } = await file.read(buffer, 0, wanted, position);
      if (bytesRead > end - position) {
        more = true;
        bytesRead = end - position;
      }
      return { buffer, bytesRead };
    } catch (error) {
      pool.release(buffer);
      throw error;
    }
  };
  let position = start;
  let next: Promise<ReadResult> | undefined = length > 0 ? readAt(position) : undefined;
  try {
    while (next) {
      const { buffer, bytesRead } = await next;
      next = undefined;
      if (bytesRead === 0) {
        pool.release(buffer);
        break;
      }
      position += bytesRead;
      if (position < end) next = readAt(position);
      const chunk = buffer.subarray(0, bytesRead);
      options.onData?.(chunk);
      // Nothing waits on the sink's 'close' below: a reader gone ends the copy here.
      if (sink.destroyed) {
        pool.release(buffer);
        throw new Error('stream closed before the copy ended');
      }
      if (options.sinkReleasesOnCallback) {
        // The pool bounds what is in flight: a chunk's buffer comes back once the sink is done
        // with it, and the next read waits for a free one. Waiting for 'drain' as well emptied
        // the sink after every file of an archive before the next file was read.
        sink.write(chunk, () => pool.release(buffer));
        continue;
      }
      const accepted = sink.write(Buffer.from(chunk));
      pool.release(buffer);
      if (!accepted) await waitForDrain(sink, signal);
    }
  } finally {
    // A read still running when the copy failed gives its buffer back when it ends.
    void next?.then(
      (result) => pool.release(result.buffer),
      () => undefined,
    );
  }
  return { copied: position - start, more };
}

/**
 * Bytes a sink may hold of small writes (headers, padding) before `writeChunk` waits: more than a
 * sink's own high-water mark (16 KiB), so that an archive's next header and file are read while
 * the last file's chunks are still going out.
 */
const SMALL_WRITES_AHEAD = 1024 * 1024;

/** Writes a small buffer (headers, padding) and waits while the sink holds too much. */
export async function writeChunk(
  sink: Writable,
  chunk: Buffer,
  signal: AbortSignal,
): Promise<void> {
  signal.throwIfAborted();
  // Above its high-water mark a sink owes a 'drain' (`writableNeedDrain`): waiting cannot hang.
  if (!sink.write(chunk) && sink.writableLength > SMALL_WRITES_AHEAD) {
    await waitForDrain(sink, signal);
  }
}
