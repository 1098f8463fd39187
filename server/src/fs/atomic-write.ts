import type { Stats } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { copyFile, link, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { errors } from '../errors.ts';
import { flushBehind } from './flush-behind.ts';
import { errorCode, toAppError } from './fs-errors.ts';
import { PositionalWriter } from './positional-writer.ts';
import { readChunks } from '../streams/chunk-release.ts';
import { newTempName, type TempJournal, type TempKind } from './temp-files.ts';
import type { WriteBuffers } from './write-buffers.ts';

export interface AtomicWriteTarget {
  /** Real path the content will replace or create. */
  real: string;
  /** Replace an existing file; without it the commit fails with 409 if the name appeared meanwhile. */
  override: boolean;
  /** Mode of a new file (subject to the umask). */
  mode: number;
  /** Mode to set exactly: the replaced file's, so an overwrite keeps its permissions. */
  keepMode?: number;
  journal: TempJournal;
  /** The root's batch buffers (FileRoot.writeBuffers). */
  buffers: WriteBuffers;
  /** Whether the temp survives a restart (resumable uploads) or is swept at the next start. */
  kind?: TempKind;
  /** Called after a successful commit. */
  onCommit?: (real: string) => void;
}

/** What AtomicWrite.pour accepts: a request body (or any stream of bytes), or bytes at once. */
export type WriteSource = Readable | AsyncIterable<Uint8Array> | Uint8Array | string;

/**
 * One write in progress: content goes to `.cabinet-tmp-<random>` in the target's own folder, is
 * fsynced and renamed over the target on commit, so readers see the old file or the new one, never a
 * half-written mix. Abort (or any failure) removes the temp and leaves the original untouched.
 *
 * Bytes go through a PositionalWriter (pooled batches, a few writes in flight) rather than an
 * fs.WriteStream: the stream keeps one write in flight and pauses the socket behind it, which
 * measured ~40% slower for big uploads on the benchmark machine (docs/benchmarks.md).
 */
export class AtomicWrite {
  private settled = false;
  private readonly writer: PositionalWriter;
  private readonly stopFlushing: () => Promise<void>;

  private constructor(
    private readonly target: AtomicWriteTarget,
    /** Real path of the temp file (in the target's folder). */
    readonly tempPath: string,
    private readonly handle: FileHandle,
    private readonly journalId: string,
  ) {
    const writer = new PositionalWriter(handle, 0, target.buffers);
    this.writer = writer;
    this.stopFlushing = flushBehind(handle, () => writer.position);
  }

  /** Creates the temp file (exclusively, never following a link) and records it in the journal. */
  static async begin(target: AtomicWriteTarget): Promise<AtomicWrite> {
    const tempPath = path.join(path.dirname(target.real), newTempName());
    const journalId = await target.journal.record(tempPath, target.kind ?? 'atomic');
    let handle: FileHandle;
    try {
      handle = await open(
        tempPath,
        fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW,
        target.mode,
      );
    } catch (error) {
      await target.journal.forget(journalId);
      throw toAppError(error);
    }
    if (target.keepMode !== undefined) {
      try {
        await handle.chmod(target.keepMode & 0o7777);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await unlink(tempPath).catch(() => undefined);
        await target.journal.forget(journalId);
        throw toAppError(error);
      }
    }
    return new AtomicWrite(target, tempPath, handle, journalId);
  }

  /**
   * Appends everything `source` gives to the temp file; resolves once it is all handed to the
   * writer (commit waits for the writes themselves). A source that fails (a client that went away)
   * or a failed write rejects; the caller then aborts. A request body is not destroyed when a write
   * fails, so an error answer can still reach the client.
   */
  async pour(source: WriteSource): Promise<void> {
    if (this.settled) throw errors.internal('write already finished');
    if (typeof source === 'string') source = Buffer.from(source);
    if (source instanceof Uint8Array) {
      await this.writer.add(source);
    } else {
      const chunks = isReadable(source) ? readChunks(source) : source;
      for await (const chunk of chunks) {
        if (!(await this.writer.add(chunk))) break;
      }
    }
    this.writer.check();
  }

  /**
   * Finishes the write: waits for the pending writes, fsyncs, renames into place and returns the
   * new file's stat. Fails (and cleans up) with 409 when `override` is off and the target exists.
   */
  async commit(): Promise<Stats> {
    if (this.settled) throw errors.internal('write already finished');
    try {
      await this.stopFlushing(); // before the handle closes
      await this.writer.finish();
      await this.handle.sync();
      await this.handle.close();
      const existing = await stat(this.target.real).catch(() => null);
      if (existing?.isDirectory()) throw errors.conflict('path is a directory');
      if (existing && !this.target.override) throw errors.conflict();
      await placeFile(this.tempPath, this.target.real, this.target.override);
      this.settled = true;
      await syncFolder(path.dirname(this.target.real));
      await this.target.journal.forget(this.journalId);
      this.target.onCommit?.(this.target.real);
      return await stat(this.target.real);
    } catch (error) {
      await this.abort();
      throw toAppError(error);
    }
  }

  /** Drops the write: the temp file is removed and the target is left as it was. */
  async abort(): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    await this.stopFlushing();
    await this.writer.finish().catch(() => undefined);
    await this.handle.close().catch(() => undefined);
    await unlink(this.tempPath).catch(() => undefined);
    await this.target.journal.forget(this.journalId);
  }
}

function isReadable(source: WriteSource): source is Readable {
  return typeof (source as Readable).iterator === 'function';
}

/**
 * Moves a finished temp file onto its target. Without override a hard link gives a no-clobber
 * rename (EEXIST instead of silently replacing a file that appeared meanwhile); file systems without
 * hard links fall back to a plain rename after the existence check already made.
 */
export async function placeFile(temp: string, target: string, override: boolean): Promise<void> {
  if (override) {
    await rename(temp, target);
    return;
  }
  try {
    await link(temp, target);
    await unlink(temp);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') throw errors.conflict();
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
      await rename(temp, target);
      return;
    }
    throw error;
  }
}

/** Fsyncs a folder so a rename survives a power cut; not every file system allows it. */
export async function syncFolder(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, fsConstants.O_RDONLY);
    await handle.sync();
  } catch {
    // Best effort: some file systems refuse fsync on folders.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Copies one file atomically: into `temp` beside the target (a temp name the caller recorded in the
 * journal; copy-on-write clone when the file system can), then renamed over the target. The copy
 * takes the source's permission bits (libuv sets them on the new file, whatever the umask). The
 * original target stays intact on failure, and a file whose copy was stopped is dropped.
 *
 * No fsync: the copy is whole under its final name whenever a process crash (kill -9) leaves it,
 * which is the guarantee the copy gives; after a power cut, like `cp`, the last seconds of copies
 * may not be on disk (docs/jobs.md, "Durability").
 */
export async function copyFileAtomic(
  from: string,
  temp: string,
  to: string,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await copyFile(from, temp, fsConstants.COPYFILE_EXCL | fsConstants.COPYFILE_FICLONE);
    // Stopped while copying: the copy is dropped, so no file appears under its final name.
    signal?.throwIfAborted();
    await rename(temp, to);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw toAppError(error);
  }
}
