import type { ReadableFile } from '../streams/file-copy.ts';
import { errors } from '../errors.ts';

/** One file or folder to put into an archive, produced lazily by the caller's tree walk. */
export interface ArchiveEntry {
  /** Path inside the archive: relative, '/'-separated, no trailing slash. */
  name: string;
  isDir: boolean;
  /** Bytes the entry holds (as stat saw it); the writer stores exactly this many. */
  size: number;
  mtime: Date;
  /** Permission bits (0o7777 part of st_mode). */
  mode: number;
  /** Opens the content of a file entry. Rejecting skips the entry (an unreadable file). */
  open(): Promise<ArchiveFile>;
}

/** An open file entry (a `FileHandle` is one). */
export interface ArchiveFile extends ReadableFile {
  close(): Promise<void>;
}

/** Called when a file could not be opened and was left out, or changed size while being read. */
export type ArchiveWarning = (message: string, entry: ArchiveEntry, cause?: unknown) => void;

/**
 * Makes an entry name safe for unpacking: backslashes become `_` (Windows unpackers treat them as
 * separators, the zip-slip of GHSA-gxjx-7m74-hcq8), and anything that is not a clean relative path
 * (absolute, `..`, `.`, empty segments, NUL) is refused, which aborts the archive rather than
 * producing an entry that could land outside the folder it is unpacked into.
 */
export function cleanEntryName(name: string): string {
  const cleaned = name.replaceAll('\\', '_');
  const segments = cleaned.split('/');
  const isClean =
    cleaned.length > 0 &&
    !cleaned.includes('\0') &&
    segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..') &&
    !/^[A-Za-z]:/.test(cleaned);
  if (!isClean) throw errors.internal(`unclean archive entry name: ${JSON.stringify(name)}`);
  return cleaned;
}
