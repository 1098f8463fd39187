import type { Readable } from 'node:stream';
import tarStream, { type Header as TarHeader, type Pack } from 'tar-stream';
import { cleanEntryName, type ArchiveEntry, type ArchiveWarning } from './archive-entry.ts';
import { exactLength } from './exact-length.ts';
import { abortable, waitForDrain } from './stream-waits.ts';

/** An archive container being filled: `stream` is its byte output, `fill()` adds every entry. */
export interface ContainerSource {
  stream: Readable;
  /** Adds the entries one by one (at the consumer's pace) and finishes the container. */
  fill(entries: AsyncIterable<ArchiveEntry>, signal: AbortSignal): Promise<void>;
}

/**
 * A ustar/pax tar stream (tar-stream): long and UTF-8 names go into pax headers, sizes past 8 GiB
 * use the base-256 size field GNU tar reads. One entry is in flight at a time, so memory stays flat.
 */
export function tarSource(warn: ArchiveWarning): ContainerSource {
  const pack = tarStream.pack();
  return {
    // tar-stream's streamx Readable speaks the Node stream protocol that pipeline() needs.
    stream: pack as unknown as Readable,
    async fill(entries, signal) {
      for await (const entry of entries) {
        signal.throwIfAborted();
        const name = cleanEntryName(entry.name);
        const header = {
          name,
          mode: entry.mode & 0o7777,
          mtime: entry.mtime,
        };
        if (entry.isDir) {
          await abortable(
            new Promise<void>((resolve, reject) =>
              // The trailing slash is how tar lists folders (tar-stream does not add it).
              pack.entry({ ...header, name: `${name}/`, type: 'directory' }, (error) =>
                error ? reject(error) : resolve(),
              ),
            ),
            signal,
          );
          continue;
        }
        let content: Readable;
        try {
          content = await entry.open();
        } catch (error) {
          warn('skipped an unreadable file', entry, error);
          continue;
        }
        await writeFileEntry(pack, { ...header, size: entry.size }, content, signal, (kind) =>
          warn(`file got ${kind} while being archived`, entry),
        );
      }
      signal.throwIfAborted();
      pack.finalize();
    },
  };
}

async function writeFileEntry(
  pack: Pack,
  header: Pick<TarHeader, 'name' | 'mode' | 'mtime' | 'size'>,
  content: Readable,
  signal: AbortSignal,
  onMismatch: (kind: 'longer' | 'shorter') => void,
): Promise<void> {
  let done!: () => void;
  let fail!: (error: Error) => void;
  const finished = new Promise<void>((resolve, reject) => {
    done = resolve;
    fail = reject;
  });
  // Observed below; this guard only keeps an early abort from surfacing as an unhandled rejection.
  finished.catch(() => undefined);
  const sink = pack.entry({ ...header, type: 'file' }, (error) => (error ? fail(error) : done()));
  try {
    for await (const chunk of exactLength(content, header.size, onMismatch)) {
      signal.throwIfAborted();
      if (!sink.write(chunk)) await waitForDrain(sink, signal);
    }
    // streamx's typings want an argument; ending without a final chunk is what is meant.
    sink.end(undefined);
    await abortable(finished, signal);
  } finally {
    content.destroy();
  }
}
