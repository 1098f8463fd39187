import type { Stats } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { lstat, open, statfs, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { errors } from '../errors.ts';
import { placeFile, syncFolder } from './atomic-write.ts';
import { FlushBehindFiles } from './flush-behind.ts';
import { PositionalWriter } from './positional-writer.ts';
import { readChunks } from '../streams/chunk-release.ts';
import { isRealInside } from './canonical-path.ts';
import type { FileRoot } from './file-root.ts';
import { errorCode, toAppError } from './fs-errors.ts';
import { TEMP_PREFIX, isTempName } from './temp-files.ts';

/** Prefix of staging files: a temp name (hidden from listings, refused as a path) plus a tag. */
const STAGING_PREFIX = `${TEMP_PREFIX}tus-`;

/** What became of one append. Every outcome leaves the staging file `offset` bytes long. */
export type AppendOutcome =
  /** The whole body was written. */
  | { status: 'written'; offset: number }
  /** The body broke off (client gone, or a newer request took over); what arrived is kept. */
  | { status: 'interrupted'; offset: number }
  /** The body went past the allowed size; everything it wrote was rolled back. */
  | { status: 'tooLarge'; offset: number }
  /** The file's size was not the offset the client claimed; nothing was written. */
  | { status: 'conflict'; offset: number };

export interface AppendRequest {
  /** Offset the client claims; must equal the staging file's size. */
  offset: number;
  /** Most bytes this body may add (Upload-Length minus offset). */
  limit: number;
  /** The request body, read without destroying it on overflow so a 413 can still be sent. */
  source: Readable;
  /** Aborting stops the write and destroys the source (a newer request took the upload over). */
  signal: AbortSignal;
}

/**
 * Staging files of resumable uploads: `.cabinet-tmp-tus-<id>` beside the target, so the final
 * rename is atomic and on one device. Unlike AtomicWrite, a staging file is reopened by path on every
 * request and outlives restarts; the upload session record (store/uploads.repo.ts) is its journal.
 * Every open uses O_NOFOLLOW and every removal refuses symlinked folders, so a link planted in place
 * of a staging file or of its folder never redirects a write or a delete (GHSA-m9f5-2232-frp6).
 * Paths given here are real paths already confined by ScopedFs.
 */
export class UploadStaging {
  /** Writes staging files back to disk while the upload goes on (the commit's fsync is short). */
  private readonly flushes = new FlushBehindFiles(async (staging) => {
    const handle = await open(staging, fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW);
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
  });

  constructor(private readonly root: FileRoot) {}

  /** Real path of the staging file of upload `id` for the real target path. */
  stagingPathFor(target: string, id: string): string {
    if (!/^[0-9a-f]{16,64}$/.test(id)) throw errors.internal('invalid upload id');
    return path.join(path.dirname(target), `${STAGING_PREFIX}${id}`);
  }

  /** Creates an empty staging file (exclusively; its folder must exist) and fsyncs its folder. */
  async create(staging: string): Promise<void> {
    this.assertStagingPath(staging);
    let handle: FileHandle | undefined;
    try {
      handle = await open(
        staging,
        fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_NOFOLLOW,
        this.root.fileMode,
      );
      await handle.sync();
    } catch (error) {
      throw toAppError(error);
    } finally {
      await handle?.close();
    }
    await syncFolder(path.dirname(staging));
  }

  /** Size of a staging file (the upload's offset), or undefined when it is gone or not a file. */
  async size(staging: string): Promise<number | undefined> {
    this.assertStagingPath(staging);
    const info = await lstat(staging).catch(() => undefined);
    return info?.isFile() ? info.size : undefined;
  }

  /**
   * Appends a request body at `offset`. Bytes are written at explicit positions (never O_APPEND)
   * before the outcome is returned, so the file's size is always the offset a client was given. They
   * are not fsynced per request (as tusd does not): they are in the page cache, which survives a
   * restart or a crash of the server; after a power cut the size on disk is what reached the disk,
   * and a client resumes from there (it asks with HEAD). `commit` fsyncs the whole file once.
   */
  async append(staging: string, request: AppendRequest): Promise<AppendOutcome> {
    this.assertStagingPath(staging);
    const { offset, limit, source, signal } = request;
    let handle: FileHandle;
    try {
      handle = await open(staging, fsConstants.O_WRONLY | fsConstants.O_NOFOLLOW);
    } catch (error) {
      throw toAppError(error);
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw errors.notFound();
      if (info.size !== offset) return { status: 'conflict', offset: info.size };

      const writer = new PositionalWriter(handle, offset, this.root.writeBuffers);
      let received = 0;
      let overflow = false;
      let interrupted = signal.aborted;
      const stop = () => source.destroy();
      signal.addEventListener('abort', stop, { once: true });
      try {
        if (!interrupted) {
          for await (const chunk of readChunks(source)) {
            received += chunk.length;
            if (received > limit) {
              overflow = true;
              break;
            }
            if (!(await writer.add(chunk))) break;
          }
        }
      } catch {
        // The body broke off: keep every byte that arrived, as the protocol asks.
        interrupted = true;
      } finally {
        signal.removeEventListener('abort', stop);
      }

      try {
        await writer.finish();
        if (overflow) {
          // GHSA-ffv3-7h97-993q: nothing may land past Upload-Length; undo this request entirely.
          await handle.truncate(offset);
          await handle.sync();
          return { status: 'tooLarge', offset };
        }
        // A chunk cut short (the client went away, the server is stopping) is flushed now: its
        // upload may wait a long time for the rest.
        if (interrupted) await handle.datasync();
      } catch (error) {
        // A failed write (disk full, I/O error) must not leave a torn chunk behind.
        await handle.truncate(offset).catch(() => undefined);
        await handle.sync().catch(() => undefined);
        throw toAppError(error);
      }
      this.flushes.wrote(staging, writer.position - offset);
      return { status: interrupted ? 'interrupted' : 'written', offset: writer.position };
    } finally {
      await handle.close();
    }
  }

  /**
   * Moves a complete staging file onto its target: fsync, then a rename that replaces the target
   * only with `override` (409 if a file appeared meanwhile without it). A replaced file keeps its
   * mode. The existing target stays intact until this rename.
   */
  async commit(staging: string, target: string, override: boolean): Promise<Stats> {
    this.assertStagingPath(staging);
    this.flushes.forget(staging);
    if (path.dirname(staging) !== path.dirname(target)) throw errors.internal('staging elsewhere');
    const existing = await lstat(target).catch(() => null);
    if (existing?.isDirectory()) throw errors.conflict('path is a directory');
    if (existing && !override) throw errors.conflict();
    let handle: FileHandle | undefined;
    try {
      handle = await open(staging, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW);
      if (existing?.isFile()) await handle.chmod(existing.mode & 0o7777);
      await handle.sync();
    } catch (error) {
      throw toAppError(error);
    } finally {
      await handle?.close();
    }
    try {
      await placeFile(staging, target, override);
    } catch (error) {
      throw toAppError(error);
    }
    await syncFolder(path.dirname(target));
    this.root.changes.emit({ kind: 'write', real: target, recursive: false });
    return lstat(target);
  }

  /**
   * Removes a staging file without following any symlink: every folder from the root down to the
   * file's folder must be a real folder, and unlink(2) removes a link itself, never its target.
   * Returns false when there was nothing (safe) to remove.
   */
  async discard(staging: string): Promise<boolean> {
    this.flushes.forget(staging);
    this.assertStagingPath(staging);
    const relative = path.relative(this.root.realRoot, path.dirname(staging));
    let folder = this.root.realRoot;
    for (const part of relative === '' ? [] : relative.split(path.sep)) {
      folder = path.join(folder, part);
      const info = await lstat(folder).catch(() => null);
      if (!info || info.isSymbolicLink() || !info.isDirectory()) return false;
    }
    try {
      await unlink(staging);
      return true;
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return false;
      throw toAppError(error);
    }
  }

  /**
   * Bytes an unprivileged writer may still put on the volume where `real` would be created: the
   * nearest existing folder above it decides (missing parents are created later on that volume).
   */
  async availableBytes(real: string): Promise<number> {
    for (let folder = path.dirname(real); ; folder = path.dirname(folder)) {
      try {
        const info = await statfs(folder);
        return info.bavail * info.bsize;
      } catch (error) {
        const code = errorCode(error);
        const atTop = folder === this.root.realRoot || folder === path.dirname(folder);
        if ((code !== 'ENOENT' && code !== 'ENOTDIR') || atTop) throw toAppError(error);
      }
    }
  }

  /** Refuses anything that is not a staging name inside the root: defence against bad records. */
  private assertStagingPath(staging: string): void {
    if (
      !path.isAbsolute(staging) ||
      !isRealInside(staging, this.root.realRoot) ||
      !path.basename(staging).startsWith(STAGING_PREFIX) ||
      !isTempName(path.basename(staging))
    ) {
      throw errors.internal('not a staging path');
    }
  }
}
