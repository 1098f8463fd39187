import type { Writable } from 'node:stream';
import { copyFileRange, writeChunk, type CopyOptions } from '../http/file-copy.ts';
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
  const copied = await copyFileRange(file, 0, entry.size, sink, copy);
  if (copied < entry.size) {
    warn('file got shorter while being archived', entry);
    for (let left = entry.size - copied; left > 0; left -= ZEROS.length) {
      const padding = ZEROS.subarray(0, Math.min(left, ZEROS.length));
      copy.onData?.(padding);
      await writeChunk(sink, padding, copy.signal);
    }
    return;
  }
  const probe = Buffer.alloc(1);
  if ((await file.read(probe, 0, 1, entry.size)).bytesRead > 0) {
    warn('file got longer while being archived', entry);
  }
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
