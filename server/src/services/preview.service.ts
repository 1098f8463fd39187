import path from 'node:path';
import mime from 'mime-types';
import type { ServerConfig } from '../config/options.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import type { FastifyBaseLogger } from 'fastify';
import { PreviewCache, type PreviewKey } from '../cache/preview-cache.ts';
import { errors } from '../errors.ts';
import { ScopedFs, type Resolved, type Stats } from '../fs/scoped-fs.ts';
import { bufferFile } from '../streams/file-copy.ts';
import { contentDisposition, type FileToSend } from './file-to-send.ts';
import {
  convertImage,
  isResizable,
  outputFormat,
  type ConvertedImage,
  type PreviewSize,
} from '../preview/image-convert.ts';
import { Limiter } from '../preview/limiter.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { fileDownload } from './raw.service.ts';
import { canDownload } from './permissions.ts';

/** Largest source image read for a preview; bigger files answer 413 (memory stays bounded). */
export const MAX_PREVIEW_SOURCE_BYTES = 64 * 1024 * 1024;

/** One conversion and the clients waiting for it. */
interface Job {
  promise: Promise<ConvertedImage>;
  waiters: number;
  controller: AbortController;
}

/** What GET /api/preview answers: 202 without download permission, else a file to send. */
export type PreviewResult = { kind: 'accepted' } | { kind: 'file'; file: FileToSend };

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface PreviewDeps {
  config: Pick<ServerConfig, 'data' | 'enableThumbs' | 'imageProcessors' | 'resizePreview'>;
  files: FileRoot;
  settings: SettingsRepo;
  log: FastifyBaseLogger;
}

/**
 * Image previews made with sharp, at most `imageProcessors` at a time, cached on
 * disk (PreviewCache) and dropped through the ScopedFs change feed when a source changes.
 */
export class PreviewService {
  readonly cache: PreviewCache;
  private readonly limiter: Limiter;
  /** Conversions in flight by cache key, so concurrent requests for one preview share it. */
  private readonly inFlight = new Map<string, Job>();
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: PreviewDeps) {
    this.cache = new PreviewCache(path.join(ctx.config.data, 'cache', 'previews'), ctx.log);
    this.limiter = new Limiter(Math.max(1, ctx.config.imageProcessors));
    this.unsubscribe = ctx.files.changes.on(this.cache.onChange);
  }

  /** Stops listening to changes (the app is closing). */
  close(): void {
    this.unsubscribe();
  }

  /**
   * A preview of an image: permission first (202), then rules and existence (403/404), folders
   * 400, non-images 501. GIF, SVG and other images sharp does not resize, and every image when
   * thumbnails or resizing are off, are sent as they are (with the raw download rules).
   */
  async preview(
    user: UserRecord,
    size: PreviewSize,
    virtual: string,
    inline: boolean,
    signal: AbortSignal,
  ): Promise<PreviewResult> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (target.stat.isDirectory()) throw errors.badRequest('path is a directory');
    const type = mime.lookup(target.name);
    if (type === false || !type.startsWith('image/')) throw errors.notImplemented();

    const enabled = size === 'thumb' ? this.ctx.config.enableThumbs : this.ctx.config.resizePreview;
    if (!enabled || !isResizable(target.name) || !target.stat.isFile()) {
      return { kind: 'file', file: await fileDownload(fs, target, inline) };
    }
    const image = await this.converted(fs, target, size, signal);
    return {
      kind: 'file',
      file: {
        size: image.data.length,
        mtime: target.stat.mtime,
        contentType: image.contentType,
        disposition: contentDisposition(inline ? 'inline' : 'attachment', target.name),
        open: async () => bufferFile(image.data),
      },
    };
  }

  private async converted(
    fs: ScopedFs,
    target: Resolved & { stat: Stats },
    size: PreviewSize,
    signal: AbortSignal,
  ): Promise<ConvertedImage> {
    const format = outputFormat(target.name, size);
    const key: PreviewKey = {
      real: target.real,
      size: target.stat.size,
      mtimeMs: target.stat.mtimeMs,
      variant: size,
      extension: format === 'jpeg' ? 'jpg' : format,
    };
    const cached = await this.cache.get(key);
    if (cached) {
      return { data: cached, contentType: `image/${format}`, extension: key.extension };
    }
    const id = JSON.stringify(key);
    let job = this.inFlight.get(id);
    if (!job) {
      const controller = new AbortController();
      const promise = this.limiter
        .run(async () => {
          // Every client that asked left while it was queued: nobody needs this preview.
          controller.signal.throwIfAborted();
          const source = await fs.readAll(target, MAX_PREVIEW_SOURCE_BYTES);
          return convertImage(source, target.name, size);
        })
        .then(async (image) => {
          await this.cache.put(key, image.data);
          return image;
        })
        .finally(() => this.inFlight.delete(id));
      job = { promise, waiters: 0, controller };
      this.inFlight.set(id, job);
    }
    const shared = job;
    shared.waiters++;
    signal.addEventListener(
      'abort',
      () => {
        if (--shared.waiters === 0) shared.controller.abort();
      },
      { once: true },
    );
    return shared.promise;
  }
}
