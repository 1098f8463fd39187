import type { Writable } from 'node:stream';
import { copyFileRange, writeChunk, type CopyOptions } from '../streams/file-copy.ts';
import type { ArchiveEntry, ArchiveFile, ArchiveWarning } from './archive-entry.ts';

const ZEROS = Buffer.alloc(64 * 1024);

/**
 * Writes exactly `entry.size` bytes of an open file: a file that grew after it was stat'ed is cut
 * at the size the header already promised, one that shrank is padded with zeros (as GNU tar does),
 * so the archive stays well-formed; `warn` reports either case.
 */
export async function writeEntryContent(
  entry: ArchiveEntry,
  file: ArchiveFile,
  sink: Writable,
  copy: CopyOptions,
  warn: ArchiveWarning,
): Promise<void> {
  const { copied, more } = await copyFileRange(file, 0, entry.size, sink, copy);
  if (copied < entry.size) {
    warn('file got shorter while being archived', entry);
    for (let left = entry.size - copied; left > 0; left -= ZEROS.length) {
      const padding = ZEROS.subarray(0, Math.min(left, ZEROS.length));
      copy.onData?.(padding);
      await writeChunk(sink, padding, copy.signal);
    }
    return;
  }
  // An empty file is not read at all: one byte tells whether it has grown.
  const grew = entry.size > 0 ? more : (await file.read(Buffer.alloc(1), 0, 1, 0)).bytesRead > 0;
  if (grew) warn('file got longer while being archived', entry);
}

/** Opens a file entry; an unreadable one is reported and skipped (null). */
export async function openEntry(
  entry: ArchiveEntry,
  warn: ArchiveWarning,
): Promise<ArchiveFile | null> {
  try {
    return await entry.open();
  } catch (error) {
    warn('skipped an unreadable file', entry, error);
    return null;
  }
}

/** An entry with its file already opened (null for folders and for files that could not be). */
export interface OpenedEntry {
  entry: ArchiveEntry;
  file: ArchiveFile | null;
}

/**
 * The entries with their files opened one entry ahead: the next file is checked and opened while
 * the current one is written, which matters for trees of many small files (each open is a few
 * round trips to the thread pool). A file opened ahead but never handed out (an abort) is closed.
 */
export async function* openedAhead(
  entries: AsyncIterable<ArchiveEntry>,
  warn: ArchiveWarning,
): AsyncGenerator<OpenedEntry> {
  const start = (entry: ArchiveEntry) => ({
    entry,
    file: entry.isDir ? Promise.resolve(null) : openEntry(entry, warn),
  });
  let ahead: ReturnType<typeof start> | undefined;
  try {
    for await (const entry of entries) {
      const current = ahead;
      ahead = start(entry);
      if (current) yield { entry: current.entry, file: await current.file };
    }
    const last = ahead;
    ahead = undefined;
    if (last) yield { entry: last.entry, file: await last.file };
  } finally {
    void ahead?.file.then((file) => file?.close());
  }
}
