import type { Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { releasingWrites } from '../streams/chunk-release.ts';
import { ChunkPool } from '../streams/file-copy.ts';
import type { ArchiveEntry, ArchiveWarning } from './archive-entry.ts';
import { compressorFactory, type ArchiveFormat } from './archive-formats.ts';
import { writeTar } from './tar-writer.ts';
import { writeZip } from './zip-writer.ts';

export interface WriteArchiveOptions {
  /** Aborting (the client went away) destroys every stream and kills compressor programs. */
  signal?: AbortSignal;
  /** Told about skipped unreadable files and files that changed size while being read. */
  warn?: ArchiveWarning;
}

/** Reads of file content: four buffers of 1 MiB, so one is read while others are written. */
const READ_BUFFERS = 4;
const READ_BUFFER_BYTES = 1024 * 1024;

/**
 * Streams `entries` as an archive of `format` into `output`, and ends it. Entries are pulled one
 * at a time and every stage honours backpressure, so memory stays flat whatever the size of the
 * tree. `output`'s write callbacks must mean it is done with a chunk (a socket, an HTTP response,
 * a file stream): uncompressed containers reuse their read buffers once the callback runs.
 * Resolves when `output` has received the whole archive; rejects (after tearing everything down)
 * on an error, an unclean entry name or an abort.
 */
export async function writeArchive(
  format: ArchiveFormat,
  entries: AsyncIterable<ArchiveEntry>,
  output: Writable,
  options: WriteArchiveOptions = {},
): Promise<void> {
  const warn = options.warn ?? (() => undefined);
  const compressors = await compressorFactory(format);
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const compressor = compressors?.make();
  const sink = compressor ?? output;
  const writeContainer = format.container === 'zip' ? writeZip : writeTar;
  const copy = {
    pool: new ChunkPool(READ_BUFFERS, READ_BUFFER_BYTES),
    signal: controller.signal,
    // Compressors that keep chunks after their callback (framers batch them) get copies.
    sinkReleasesOnCallback: compressors?.releasesChunks ?? true,
  };
  // Output chunks of the compressor's that are the reader's alone are given back once written.
  const compressed = compressors?.releasesChunks ? releasingWrites(output) : output;
  // pipeline() destroys every stage (killing a compressor child) when one fails or the signal fires.
  const piping = compressor
    ? pipeline(compressor, compressed, { signal: controller.signal })
    : finished(output);
  const filling = writeContainer(entries, sink, copy, warn).then(() => {
    sink.end();
  });
  try {
    await Promise.all([piping, filling]);
  } catch (error) {
    controller.abort(error);
    sink.destroy(error as Error);
    output.destroy(error as Error);
    // Let both sides settle so nothing runs on after we return.
    await Promise.allSettled([piping, filling]);
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
