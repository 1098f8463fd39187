import path from 'node:path';
import type { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, errors } from '../errors.ts';
import {
  canonicalPath,
  isVirtualInside,
  joinVirtual,
  virtualBaseName,
  virtualParent,
} from '../fs/canonical-path.ts';
import type { Resolved, ScopedFs, Stats } from '../fs/scoped-fs.ts';
import type { ArchiveEntry } from './archive-entry.ts';
import { archiveFormat, compressorFactory, type ArchiveFormat } from './archive-formats.ts';
import { writeArchive } from './write-archive.ts';

/** A download ready to be streamed: what to call it, and how to write its bytes. */
export interface ArchiveDownload {
  /** File name for Content-Disposition, extension included. */
  fileName: string;
  format: ArchiveFormat;
  /**
   * Writes the archive into `output` (the HTTP response itself: its write callbacks say when a
   * chunk was sent, which lets the read buffers be reused) and ends it; on a failure mid-stream
   * `output` is destroyed, so the client sees a cut download rather than a complete-looking one.
   * Never rejects: failures are logged.
   */
  writeTo(output: Writable): Promise<void>;
}

export interface ArchiveSelectionOptions {
  /** The `algo=` value; unknown → 400, a missing compressor program → 501. */
  algo: string | undefined;
  /** The raw `files=` value (already decoded once by the query parser), if any. */
  files: string | undefined;
  /** Aborts the walk and the archive (the client went away). */
  signal: AbortSignal;
  log: FastifyBaseLogger;
}

/**
 * Parses `files=`: a comma list whose items are percent-decoded once more (the reference client
 * encodes each path, then the whole list; `+` stays a plus), canonicalised and joined under the
 * requested folder, so no item can climb out of it. Empty items are ignored.
 */
export function parseFilesParam(files: string, dir: string): string[] {
  const selected: string[] = [];
  for (const item of files.split(',')) {
    if (!item) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(item);
    } catch {
      throw errors.badRequest('invalid files parameter');
    }
    const { path: inner } = canonicalPath(decoded);
    selected.push(inner === '/' ? dir : joinVirtual(dir, inner.slice(1)));
  }
  return selected;
}

/** The deepest folder holding every path (segment-wise). */
function commonFolder(paths: readonly string[]): string {
  let common = paths[0]!.split('/');
  for (const other of paths.slice(1)) {
    const segments = other.split('/');
    let i = 0;
    while (i < common.length && i < segments.length && common[i] === segments[i]) i++;
    common = common.slice(0, i);
  }
  return common.join('/') || '/';
}

/**
 * Resolves the selection and starts streaming it as an archive. Denied, hidden, missing or
 * escaping selected paths are left out, as are denied and hidden entries inside folders (never
 * descended); when nothing selected is reachable the first refusal is thrown (403/404). Entries
 * are named relative to the common parent folder of the selection. Every check that can fail
 * with a status happens before this returns, so the route can still answer with it.
 *
 * Takes any ScopedFs, so public shares call it with their re-rooted view.
 */
export async function archiveSelection(
  fs: ScopedFs,
  dir: Resolved,
  options: ArchiveSelectionOptions,
): Promise<ArchiveDownload> {
  const format = archiveFormat(options.algo);
  await compressorFactory(format);

  const requested = options.files ? parseFilesParam(options.files, dir.path) : [dir.path];
  if (requested.length === 0) throw errors.badRequest('no files selected');
  const selected = await resolveSelection(fs, requested);
  // The common folder of what was asked for (as the reference computes it), so leaving out a
  // missing path does not change the names of the others.
  let common = commonFolder(requested);
  // One selected file: it goes in the archive under its own name (the reference sent nothing).
  const only = selected.length === 1 ? selected[0]! : undefined;
  if (only && only.path === common && !only.stat.isDirectory()) common = virtualParent(common);

  const baseName = virtualBaseName(common) || path.basename(fs.scopeReal) || 'download';
  const prefix = requested.length > 1 ? '_' : '';
  const writeTo = (output: Writable) =>
    writeArchive(format, selectionEntries(fs, common, selected, options.signal), output, {
      signal: options.signal,
      warn: (message, entry, cause) =>
        options.log.warn({ entry: entry.name, err: cause }, `archive: ${message}`),
    }).catch((error: unknown) => {
      // A client that hangs up is not an error (the reply closes before the signal fires).
      const code = (error as { code?: string } | null)?.code;
      if (options.signal.aborted || code === 'ERR_STREAM_PREMATURE_CLOSE') {
        options.log.debug('archive download stopped: client went away');
      } else options.log.error({ err: error }, 'archive failed mid-stream');
      output.destroy(error as Error);
    });
  return { fileName: `${prefix}${baseName}${format.extension}`, format, writeTo };
}

/** Stats every requested path; unreachable ones are dropped, nested ones folded into parents. */
async function resolveSelection(
  fs: ScopedFs,
  requested: readonly string[],
): Promise<(Resolved & { stat: Stats })[]> {
  const found: (Resolved & { stat: Stats })[] = [];
  let firstRefusal: unknown;
  for (const item of requested) {
    try {
      found.push(await fs.stat(item));
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      firstRefusal ??= error;
    }
  }
  if (found.length === 0) throw firstRefusal;
  // A path selected twice, or inside another selected folder, would be archived twice.
  const byPath = new Map(found.map((item) => [item.path, item]));
  const folders = [...byPath.values()].filter((item) => item.stat.isDirectory());
  return [...byPath.values()].filter(
    (item) =>
      !folders.some(
        (folder) => folder.path !== item.path && isVirtualInside(item.path, folder.path),
      ),
  );
}

function relativeTo(common: string, virtual: string): string {
  return common === '/' ? virtual.slice(1) : virtual.slice(common.length + 1);
}

function entryOf(
  fs: ScopedFs,
  name: string,
  known: { path: string; real: string; stat: Stats },
): ArchiveEntry {
  const { stat } = known;
  return {
    name,
    isDir: stat.isDirectory(),
    size: stat.isDirectory() ? 0 : stat.size,
    mtime: stat.mtime,
    mode: stat.mode & 0o7777,
    // Opened through ScopedFs again: rules and scope are checked at read time, and the file read is
    // the one the walk saw (openKnown).
    open: () => fs.openKnown(known),
  };
}

/**
 * The archive's entries, produced lazily in walk order: each selected folder (unless it is the
 * common folder itself) and everything visible below it, each selected file. Special files
 * (pipes, sockets, devices) and dangling links are skipped (names holding a backslash are kept,
 * and the entry name makes the backslash safe for unpackers); linked
 * folders appear as folders but are not descended (ScopedFs.walk never follows them, so no loops).
 */
async function* selectionEntries(
  fs: ScopedFs,
  common: string,
  selected: readonly (Resolved & { stat: Stats })[],
  signal: AbortSignal,
): AsyncGenerator<ArchiveEntry> {
  for (const item of selected) {
    if (!item.stat.isDirectory()) {
      if (item.stat.isFile()) yield entryOf(fs, relativeTo(common, item.path), item);
      continue;
    }
    if (item.path !== common) yield entryOf(fs, relativeTo(common, item.path), item);
    // Packing the top of a view packs the grants in it too, each through its own view.
    for await (const child of fs.walk(item, { signal, grants: true })) {
      if (!child.stat) continue;
      // ScopedFs reads `\` as a separator, so such a name cannot be opened by its path (it would
      // name another file): the entry, and everything below it, is left out.
      if (child.path.includes('\\')) continue;
      if (!child.stat.isDirectory() && !child.stat.isFile()) continue;
      yield entryOf(fs, relativeTo(common, child.path), { ...child, stat: child.stat });
    }
  }
}
