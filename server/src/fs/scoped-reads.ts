import type { Stats } from 'node:fs';
import { constants as fsConstants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { errors } from '../errors.ts';
import { mapFsErrors, toAppError } from './fs-errors.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';

/**
 * Reading user files. Every open is O_NOFOLLOW on a path the resolver issued (or, for openKnown,
 * re-checked), and the stat comes from the open descriptor, so a link swapped in after resolution
 * is never followed.
 */
export class ScopedReads {
  constructor(private readonly scope: ScopeResolver) {}

  /**
   * Opens a file for reading, optionally a byte range (inclusive `end`, as fs streams take it).
   * The real path is opened with O_NOFOLLOW and the stat comes from the open descriptor.
   */
  async openRead(
    virtual: string | Resolved,
    range: { start?: number; end?: number } = {},
  ): Promise<{ resolved: Resolved; stat: Stats; stream: Readable }> {
    const { resolved, handle } = await this.openChecked(virtual);
    try {
      const info = await handle.stat();
      const stream = handle.createReadStream({
        start: range.start,
        end: range.end,
        autoClose: true,
        // 256 KiB reads instead of the default 64 KiB: a quarter of the syscalls and socket writes;
        // 1 GiB downloads measured ~25% faster (bench/), bigger buffers were not faster.
        highWaterMark: 256 * 1024,
      });
      return { resolved, stat: info, stream };
    } catch (error) {
      await handle.close();
      throw toAppError(error);
    }
  }

  /**
   * Opens a regular file for positional reads (archives copy through their own buffers). Opened
   * like openRead: O_NOFOLLOW, rules and scope checked on the way.
   */
  async openFile(virtual: string | Resolved): Promise<FileHandle> {
    return (await this.openChecked(virtual)).handle;
  }

  /**
   * Opens a file that a walk (or a resolve) just reported, without resolving its path again: a tree
   * of many small files is archived with two file-system calls per file (open, fstat) instead of a
   * resolve of every component. The rules are checked again, the real path must lie in the scope,
   * the last component is not followed, and the file opened must be the very file that was
   * stat'ed (same device, inode and birth time: inode numbers are reused), so a folder swapped for
   * a link since then cannot redirect the read: 404 when it is another file or gone.
   */
  async openKnown(known: { path: string; real: string; stat: Stats }): Promise<FileHandle> {
    if (!this.scope.isAllowed(known.path)) throw errors.forbidden();
    // Where the file really is is judged too (a walk of an alias reports the alias's spelling).
    if (!this.scope.isCanonicalAllowed(this.scope.virtualOf(known.real))) throw errors.forbidden();
    const handle = await openReal(known.real);
    try {
      const opened = await handle.stat();
      const same =
        opened.ino === known.stat.ino &&
        opened.dev === known.stat.dev &&
        opened.birthtimeMs === known.stat.birthtimeMs;
      if (!same || !opened.isFile()) {
        throw errors.notFound();
      }
      return handle;
    } catch (error) {
      await handle.close();
      throw toAppError(error);
    }
  }

  /** Reads a whole file that must not exceed `maxBytes` (413 otherwise). */
  async readAll(virtual: string | Resolved, maxBytes: number): Promise<Buffer> {
    const { handle } = await this.openChecked(virtual);
    try {
      const info = await handle.stat();
      if (info.size > maxBytes) throw errors.payloadTooLarge();
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  /** The first `bytes` bytes of a file (fewer when it is shorter), for type sniffing. */
  async readHead(virtual: string | Resolved, bytes = 512): Promise<Buffer> {
    const resolved = await this.scope.stat(virtual);
    if (!resolved.stat.isFile()) return Buffer.alloc(0);
    const handle = await openReal(resolved.real);
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** Resolves a path that must be an existing non-folder and opens it (400 for folders). */
  private async openChecked(
    virtual: string | Resolved,
  ): Promise<{ resolved: Resolved; handle: FileHandle }> {
    const resolved = await this.scope.stat(virtual);
    if (resolved.stat.isDirectory()) throw errors.badRequest('path is a directory');
    return { resolved, handle: await openReal(resolved.real) };
  }
}

function openReal(real: string): Promise<FileHandle> {
  // Non-blocking so a named pipe cannot hang the request; O_NOFOLLOW so a link swapped in after
  // resolution is not followed.
  return mapFsErrors(() =>
    open(real, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK),
  );
}
