import type { Duplex, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ArchiveEntry, ArchiveWarning } from './archive-entry.ts';
import { compressorFactory, type ArchiveFormat } from './archive-formats.ts';
import { tarSource } from './tar-writer.ts';
import { zipSource } from './zip-writer.ts';

export interface WriteArchiveOptions {
  /** Aborting (the client went away) destroys every stream and kills compressor programs. */
  signal?: AbortSignal;
  /** Told about skipped unreadable files and files that changed size while being read. */
  warn?: ArchiveWarning;
}

/**
 * Streams `entries` as an archive of `format` into `output`. Entries are pulled one at a time and
 * every stage honours backpressure, so memory stays flat whatever the size of the tree; nothing is
 * buffered beyond one block per stage. Resolves when `output` has received the whole archive;
 * rejects (after tearing everything down) on an error, an unclean entry name or an abort.
 */
export async function writeArchive(
  format: ArchiveFormat,
  entries: AsyncIterable<ArchiveEntry>,
  output: Writable,
  options: WriteArchiveOptions = {},
): Promise<void> {
  const warn = options.warn ?? (() => undefined);
  const makeCompressor = await compressorFactory(format);
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onOuterAbort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });

  const source = format.container === 'zip' ? zipSource(warn) : tarSource(warn);
  const stages: (Duplex | Writable)[] = [];
  if (makeCompressor) stages.push(makeCompressor());
  stages.push(output);

  // pipeline() destroys every stage (killing a compressor child) when one fails or the signal fires.
  const piping = pipeline([source.stream, ...stages], { signal: controller.signal });
  const filling = source.fill(entries, controller.signal).catch((error: unknown) => {
    source.stream.destroy(error as Error);
    throw error;
  });
  try {
    await Promise.all([piping, filling]);
  } catch (error) {
    controller.abort(error);
    // Let both sides settle so nothing runs on after we return.
    await Promise.allSettled([piping, filling]);
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
}
