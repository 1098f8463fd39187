import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { FileChange } from '../fs/changes.ts';

/** What identifies one cached preview: the source's real path and version, and the variant. */
export interface PreviewKey {
  /** Real path of the source file. */
  real: string;
  size: number;
  mtimeMs: number;
  /** `thumb` or `big`. */
  variant: string;
  /** Extension of the stored format, without the dot. */
  extension: string;
}

const TEMP_PREFIX = '.tmp-';

/**
 * Previews on disk under `<data>/cache/previews`, laid out as a mirror of the real paths of their
 * sources: the previews of `/srv/files/a/b.jpg` live in `<cache>/srv/files/a/b.jpg/` as
 * `@thumb-<size>-<mtime>.jpg`. The source's size and mtime are part of the name, so a file changed
 * behind Cabinet's back is never answered with an old preview; and because the layout mirrors the
 * tree, dropping the previews of a path and everything below it (delete, rename, overwrite) is
 * one recursive removal. Files are written to a temp name, fsynced and renamed into place, so a
 * reader never sees half a preview. Shared by every instance using the same data folder.
 */
export class PreviewCache {
  constructor(
    /** The cache folder (created on first write). */
    readonly folder: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  private mirrorOf(real: string): string {
    return path.join(this.folder, path.resolve('/', real));
  }

  private fileOf(key: PreviewKey): string {
    const name = `@${key.variant}-${key.size}-${Math.floor(key.mtimeMs)}.${key.extension}`;
    return path.join(this.mirrorOf(key.real), name);
  }

  /** The cached preview, or undefined on a miss (or any read problem: the preview is remade). */
  async get(key: PreviewKey): Promise<Buffer | undefined> {
    try {
      return await readFile(this.fileOf(key));
    } catch {
      return undefined;
    }
  }

  /**
   * Stores a preview atomically and removes older versions of the same variant. Failures (a full
   * disk, a name too long for the mirror) are logged and swallowed: the preview was still served.
   */
  async put(key: PreviewKey, data: Buffer): Promise<void> {
    const target = this.fileOf(key);
    const dir = path.dirname(target);
    const temp = path.join(dir, `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
    try {
      await mkdir(dir, { recursive: true });
      const handle = await open(temp, 'wx', 0o600);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
      await this.removeOlderVersions(dir, key.variant, path.basename(target));
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      this.log?.warn({ err: error }, 'could not store a preview in the cache');
    }
  }

  private async removeOlderVersions(dir: string, variant: string, keep: string): Promise<void> {
    const prefix = `@${variant}-`;
    for (const name of await readdir(dir)) {
      if (name.startsWith(prefix) && name !== keep) {
        await unlink(path.join(dir, name)).catch(() => undefined);
      }
    }
  }

  /** Drops the previews of a real path and of everything below it. */
  async invalidate(real: string): Promise<void> {
    const mirror = this.mirrorOf(real);
    if (mirror === this.folder) return;
    await rm(mirror, { recursive: true, force: true }).catch((error: unknown) =>
      this.log?.warn({ err: error }, 'could not drop cached previews'),
    );
  }

  /** A ScopedFs change-feed listener: every changed path (and a rename's target) is dropped. */
  readonly onChange = (change: FileChange): void => {
    // Listeners must not block the write that emitted the change: removal runs on its own.
    void this.invalidate(change.real);
    if (change.to) void this.invalidate(change.to);
  };
}
