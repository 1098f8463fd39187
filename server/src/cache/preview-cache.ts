import { randomBytes } from 'node:crypto';
import {
  access,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  unlink,
  utimes,
} from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { FileChange } from '../tree/changes.ts';

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
/** Default budget of the preview cache: thumbnails of ~100,000 photos. */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * Previews on disk under `<data>/cache/previews`, laid out as a mirror of the real paths of their
 * sources: the previews of `/srv/files/a/b.jpg` live in `<cache>/srv/files/a/b.jpg/` as
 * `@thumb-<size>-<mtime>.jpg`. The source's size and mtime are part of the name, so a file changed
 * behind Cabinet's back is never answered with an old preview; and because the layout mirrors the
 * tree, dropping the previews of a path and everything below it (delete, rename, overwrite) is
 * one recursive removal. Files are written to a temp name, fsynced and renamed into place, so a
 * reader never sees half a preview. Shared by every instance using the same data folder. Bounded
 * in bytes: a hit refreshes a file's mtime, and once a tenth of the budget has been written the
 * folder is measured and the least recently used files removed down to 90 % of it.
 */
export class PreviewCache {
  /** Bytes written since the last size check; a check runs once they pass a tenth of the budget. */
  private writtenSinceCheck = 0;
  /** The size check in progress, so writes never start a second one. */
  private checking: Promise<void> | undefined;

  constructor(
    /** The cache folder (created on first write). */
    readonly folder: string,
    private readonly log?: FastifyBaseLogger,
    /** Budget in bytes: past it the least recently used previews are removed. */
    readonly maxBytes = DEFAULT_MAX_BYTES,
  ) {}

  private mirrorOf(real: string): string {
    return path.join(this.folder, path.resolve('/', real));
  }

  private fileOf(key: PreviewKey): string {
    const name = `@${key.variant}-${key.size}-${Math.floor(key.mtimeMs)}.${key.extension}`;
    return path.join(this.mirrorOf(key.real), name);
  }

  /**
   * The cached preview, or undefined on a miss (or any read problem: the preview is remade). A hit
   * sets the file's mtime to now: eviction removes the least recently used first, and every
   * instance sharing the folder sees the same order.
   */
  async get(key: PreviewKey): Promise<Buffer | undefined> {
    const file = this.fileOf(key);
    try {
      const data = await readFile(file);
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
      return data;
    } catch {
      return undefined;
    }
  }

  /** Whether the preview is cached, without reading it or counting it as used. */
  async has(key: PreviewKey): Promise<boolean> {
    return access(this.fileOf(key)).then(
      () => true,
      () => false,
    );
  }

  /**
   * Keeps the cache within its budget: when it holds more than `maxBytes`, removes the least
   * recently used previews (oldest mtime first) until it holds 90 % of it. Returns the bytes kept.
   */
  async enforceBudget(): Promise<number> {
    const files: { file: string; size: number; used: number }[] = [];
    let total = 0;
    let entries: string[];
    try {
      entries = (await readdir(this.folder, { recursive: true })).map(String);
    } catch {
      return 0;
    }
    for (const entry of entries) {
      const name = path.basename(entry);
      if (!name.startsWith('@')) continue;
      const file = path.join(this.folder, entry);
      const info = await lstat(file).catch(() => undefined);
      if (!info?.isFile()) continue;
      files.push({ file, size: info.size, used: info.mtimeMs });
      total += info.size;
    }
    if (total <= this.maxBytes) return total;
    files.sort((a, b) => a.used - b.used);
    const target = this.maxBytes * 0.9;
    for (const { file, size } of files) {
      if (total <= target) break;
      await unlink(file).catch(() => undefined);
      total -= size;
    }
    return total;
  }

  private noteWritten(bytes: number): void {
    this.writtenSinceCheck += bytes;
    if (this.checking || this.writtenSinceCheck < this.maxBytes / 10) return;
    this.writtenSinceCheck = 0;
    this.checking = this.enforceBudget()
      .then(() => undefined)
      .catch((error: unknown) => this.log?.warn({ err: error }, 'could not trim the preview cache'))
      .finally(() => {
        this.checking = undefined;
      });
  }

  /** Waits for a size check in progress (tests, shutdown). */
  async settled(): Promise<void> {
    await this.checking;
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
      this.noteWritten(data.length);
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
