import { availableParallelism } from 'node:os';
import path from 'node:path';
import mime from 'mime-types';
import type { ServerConfig } from '../config/options.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import type { FastifyBaseLogger } from 'fastify';
import { PreviewCache, type PreviewKey } from '../cache/preview-cache.ts';
import { AppError, errors } from '../errors.ts';
import { joinVirtual } from '../fs/canonical-path.ts';
import { ScopedFs, type Resolved, type Stats } from '../fs/scoped-fs.ts';
import { bufferFile } from '../streams/file-copy.ts';
import { contentDisposition, type FileToSend } from './file-to-send.ts';
import {
  convertImage,
  isResizable,
  outputFormat,
  prepareConverter,
  type ConvertedImage,
  type PreviewSize,
} from '../preview/image-convert.ts';
import { Limiter, type Priority } from '../preview/limiter.ts';
import { detectCapabilities, NO_TOOLS, type PreviewCapabilities } from '../preview/capabilities.ts';
import { decodeSource, DecodeError } from '../preview/decode-source.ts';
import { DECODER_LIMITS } from '../preview/decoders/limits.ts';
import { familyOf, type PreviewFamily } from '../preview/formats.ts';
import { avInfo, photoInfo } from '../preview/decoders/media-info.ts';
import { remuxToMp4, type Remux } from '../preview/decoders/remux.ts';
import { keyframeBefore } from '../preview/decoders/video.ts';
import { MediaInfo } from '@cabinet/protocol';
import type { UserRecord } from '../store/users.repo.ts';
import { fileDownload } from './raw.service.ts';
import { canDownload } from './permissions.ts';
import type { FirstPictures } from './resources/first-pictures.ts';

/** Largest source image read for a preview; bigger files answer 413 (memory stays bounded). */
export const MAX_PREVIEW_SOURCE_BYTES = 64 * 1024 * 1024;

/** Cache writes running at once, after their replies (each is fsynced: slow on a busy disk). */
const CACHE_WRITERS = 2;
/**
 * Pictures sent and waiting for their cache write, at most. A job keeps its slot until its write
 * is queued: the first screen's pictures are answered and their slots freed at once, while a
 * long run of conversions goes at the disk's pace instead of piling pictures up in memory.
 */
const MAX_PENDING_WRITES = 8;

/** Thumbnails made ahead of a listing's first screen, at most (PreviewService.warm). */
export const WARMED_THUMBNAILS = 24;

/** One conversion and the clients waiting for it. */
interface Job {
  promise: Promise<Buffer>;
  waiters: number;
  controller: AbortController;
  /** `high` once any client looking at it joined; its sharp step waits with this priority. */
  priority: Priority;
  /** Set while a prefetch waits in a limiter: moves it ahead (an on-screen request joined). */
  ticket: { promote?: () => void };
}

/** What a job's `make` gets: its signal, and sharp's step run in the converter's slots. */
interface JobContext {
  signal: AbortSignal;
  convert: (...args: Parameters<typeof convertImage>) => Promise<ConvertedImage>;
}

/**
 * sharp conversions at once: no more than the cores, and two of libuv's threads (4 unless
 * UV_THREADPOOL_SIZE says otherwise) left free. sharp runs each pipeline on a libuv thread, the
 * thread every fs call (a listing's stats, a thumbnail's read, the cache's writes) also waits
 * for, so with all of them converting those calls wait behind conversions; and a pipeline more
 * than the cores converts no faster (docs/previews.md, "Cache").
 */
export function converterSlots(
  imageProcessors: number,
  cores = availableParallelism(),
  threadpool = Number(process.env.UV_THREADPOOL_SIZE) || 4,
): number {
  return Math.max(1, Math.min(imageProcessors, cores, threadpool - 2));
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

type Target = Resolved & { stat: Stats };
type DecodedFamily = Exclude<PreviewFamily, 'image'>;

/**
 * Previews (docs/previews.md): images resized by sharp, and pictures of videos, HEIC and RAW
 * photos, PDFs, office documents and audio covers made by Debian's tools through the process
 * runner, then sized by sharp. At most `imageProcessors` conversions run at a time (what is on
 * screen first, prefetches after) and one LibreOffice; results and failures are cached on disk
 * (PreviewCache) and dropped through the ScopedFs change feed when a source changes.
 */
export class PreviewService {
  readonly cache: PreviewCache;
  /** Jobs at once (imageProcessors): reading the source, a decoder process, sharp, the write. */
  private readonly limiter: Limiter;
  /** sharp's step of those jobs (converterSlots). */
  private readonly converter: Limiter;
  /** Cache writes, after the replies (CACHE_WRITERS). */
  private readonly writer = new Limiter(CACHE_WRITERS);
  /** Writes queued or running, at most MAX_PENDING_WRITES: a slot is held until its write ends. */
  private readonly writeRoom = new Limiter(MAX_PENDING_WRITES);
  /** LibreOffice is heavy: one conversion at a time in this process. */
  private readonly office = new Limiter(1);
  /** Conversions in flight by cache key, so concurrent requests for one preview share it. */
  private readonly inFlight = new Map<string, Job>();
  private readonly unsubscribe: () => void;
  /**
   * LibreOffice's wall time per document (docs/previews.md, "Limits"); a deployment with slow
   * cores may raise it, the hostile-file tests lower it so a zip bomb fails in seconds.
   */
  officeTimeoutMs: number = DECODER_LIMITS.office.timeoutMs;
  /** Which decoders are installed; detected by `start()`, sharp only until then. */
  capabilities: PreviewCapabilities = NO_TOOLS;

  constructor(private readonly ctx: PreviewDeps) {
    this.cache = new PreviewCache(path.join(ctx.config.data, 'cache', 'previews'), ctx.log);
    this.limiter = new Limiter(Math.max(1, ctx.config.imageProcessors));
    this.converter = new Limiter(converterSlots(ctx.config.imageProcessors));
    this.unsubscribe = ctx.files.changes.on(this.cache.onChange);
  }

  /** Detects the decoders once and says in the log which previews are unavailable. */
  async start(): Promise<void> {
    this.capabilities = await detectCapabilities();
    const missing = Object.entries(this.capabilities.families)
      .filter(([, available]) => !available)
      .map(([family]) => family);
    const tools = Object.entries(this.capabilities.tools)
      .filter(([, found]) => !found)
      .map(([tool]) => tool);
    if (missing.length > 0) {
      this.ctx.log.warn(
        { unavailable: missing, missingTools: tools },
        `no previews of ${missing.join(', ')} files: install ${tools.join(', ')} (docs/previews.md)`,
      );
    } else if (tools.length > 0) {
      this.ctx.log.info({ missingTools: tools }, 'every preview family is available');
    }
  }

  /**
   * Loads sharp and libvips in the background when thumbnails are on: ~200 ms of CPU, over 0.6 s on
   * a busy machine, that the first thumbnail then does not wait for. Called when the web app's
   * page is served (it will list folders and show their pictures) and by `warm`; a server only
   * scripts and WebDAV clients talk to loads them with its first picture.
   */
  prepare(): void {
    if (!this.ctx.config.enableThumbs) return;
    prepareConverter().catch((error: unknown) =>
      this.ctx.log.warn({ err: error }, 'could not load sharp: no image previews'),
    );
  }

  /**
   * Makes ahead the thumbnails a listing's first screen will ask for (`firstPictures`: the first
   * WARMED_THUMBNAILS resizable images in the listing's order), once the listing is `sent` (so
   * they do not compete with it) while the browser draws it: in a folder of 10,000 photos the web
   * app asks for its first tile's picture a few hundred ms after the listing starts, and the
   * conversion is then done or under way (the request joins it). They run at prefetch priority,
   * so pictures someone is looking at go first, and a thumbnail already cached costs one
   * `access`. sharp is loaded (`prepare`) at once, also when the first pictures come from a
   * decoder; a listing without any picture loads nothing. Nothing happens for a user without
   * download permission or when thumbnails are off (docs/previews.md, "The first screen").
   * Settles once each of them is made or failed.
   */
  async warm(
    user: UserRecord,
    folder: string,
    pictures: FirstPictures,
    sent: Promise<void> = Promise.resolve(),
  ): Promise<void> {
    if (!this.ctx.config.enableThumbs || !canDownload(user) || !pictures.pictured) return;
    this.prepare();
    if (pictures.images.length === 0) return;
    await sent;
    const fs = await ScopedFs.forUser(this.ctx, user);
    const made: Promise<unknown>[] = [];
    for (const name of pictures.images) {
      // A rule, a file gone or replaced by a folder since the listing: nothing to make.
      const target = await fs.stat(joinVirtual(folder, name)).catch(() => undefined);
      if (!target?.stat.isFile()) continue;
      const key = this.keyOf(target, 'thumb', outputFormat(target.name, 'thumb'));
      // Probed, not read (`cached` would read a hit and refresh its place in the eviction order).
      if (await this.cache.has(key)) continue;
      if (await this.cache.has(this.failedKeyOf(target))) continue;
      // Nobody waits for these: a failure (a file that is no image) is the preview's to report
      // when someone asks for it. Caught now, not when the loop ends: a rejection nobody handles
      // for a moment ends the process.
      made.push(
        this.joined(key, null, 'low', (job) => this.resized(fs, target, 'thumb', job)).catch(
          () => undefined,
        ),
      );
    }
    await Promise.all(made);
  }

  /** Stops listening to changes (the app is closing). */
  close(): void {
    this.unsubscribe();
  }

  /**
   * A preview: permission first (202), then rules and existence (403/404), folders 400, files
   * Cabinet makes no picture of 501 (also when their decoder is not installed). GIF, SVG and
   * other images sharp does not resize, and every image when thumbnails or resizing are off, are
   * sent as they are (with the raw download rules). A file whose decoder failed answers 415 until
   * it changes.
   */
  async preview(
    user: UserRecord,
    size: PreviewSize,
    virtual: string,
    inline: boolean,
    signal: AbortSignal,
    priority: Priority = 'high',
  ): Promise<PreviewResult> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (target.stat.isDirectory()) throw errors.badRequest('path is a directory');
    const family = familyOf(target.name);
    const enabled = size === 'thumb' ? this.ctx.config.enableThumbs : this.ctx.config.resizePreview;

    if (family === undefined || family === 'image') {
      const type = mime.lookup(target.name);
      if (type === false || !type.startsWith('image/')) throw errors.notImplemented();
      if (!enabled || !isResizable(target.name) || !target.stat.isFile()) {
        return { kind: 'file', file: await fileDownload(fs, target, inline) };
      }
    } else if (!enabled || !target.stat.isFile() || !this.capabilities.families[family]) {
      throw errors.notImplemented(`no ${family} previews on this server`);
    }
    const format = outputFormat(target.name, size);
    const data = await this.cached(target, size, format, signal, priority, async (job) => {
      if (family === undefined || family === 'image') return this.resized(fs, target, size, job);
      const decoded = await this.decoded(target, family, job.signal);
      return job.convert(decoded.image, target.name, size, decoded.orientation);
    });
    return { kind: 'file', file: this.send(data, `image/${format}`, target, inline) };
  }

  /**
   * An office document as PDF (`GET /api/preview/pdf/{path}`), converted by LibreOffice and
   * cached like a preview. Other files answer 501.
   */
  async pdf(
    user: UserRecord,
    virtual: string,
    inline: boolean,
    signal: AbortSignal,
  ): Promise<PreviewResult> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (target.stat.isDirectory()) throw errors.badRequest('path is a directory');
    if (familyOf(target.name) !== 'office' || !target.stat.isFile()) throw errors.notImplemented();
    if (!this.capabilities.families.office) {
      throw errors.notImplemented('no office previews on this server');
    }
    const pdf = await this.cached(target, 'pdf', 'pdf', signal, 'high', async (job) => {
      const decoded = await this.decoded(target, 'office', job.signal);
      if (!decoded.pdf) throw errors.unsupportedMediaType();
      return { data: decoded.pdf, contentType: 'application/pdf', extension: 'pdf' };
    });
    const name = `${target.name.replace(/\.[^.]*$/, '')}.pdf`;
    return { kind: 'file', file: this.send(pdf, 'application/pdf', { ...target, name }, inline) };
  }

  /**
   * What the info dialog shows of a photo, video or audio file (`GET /api/preview/info/{path}`):
   * camera, lens, exposure and date taken, or duration, codecs and tags. Fewer fields when the
   * file has none or the tool is missing; other files answer `{}`. Cached beside the file's
   * pictures (variant `info`), so the durations the mosaic shows on video tiles cost one probe per
   * file version. With `start` (a video), also where a remux from those seconds begins.
   */
  async info(
    user: UserRecord,
    virtual: string,
    signal: AbortSignal,
    options: { start?: number; priority?: Priority } = {},
  ): Promise<MediaInfo | { kind: 'accepted' }> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (target.stat.isDirectory()) throw errors.badRequest('path is a directory');
    const family = familyOf(target.name);
    const { tools } = this.capabilities;
    const probe =
      (family === 'video' || family === 'audio') && tools.ffprobe
        ? avInfo
        : (family === 'image' || family === 'heic' || family === 'raw') && tools.exiftool
          ? photoInfo
          : undefined;
    if (!probe || !target.stat.isFile()) return {};
    const key = this.keyOf(target, 'info', 'json');
    let info = await this.cachedInfo(key);
    try {
      if (!info) {
        info = await this.limiter.run(() => probe(target.real, signal), options.priority);
        await this.cache.put(key, Buffer.from(JSON.stringify(info)));
      }
      if (options.start !== undefined && family === 'video') {
        const begins = await this.limiter.run(
          () => keyframeBefore(target.real, options.start ?? 0, signal),
          options.priority,
        );
        if (begins !== undefined) return { ...info, startSeconds: begins };
      }
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
    }
    return info ?? {};
  }

  /** Media facts cached by `info`, or undefined (none yet, or unreadable: probed again). */
  private async cachedInfo(key: PreviewKey): Promise<MediaInfo | undefined> {
    const data = await this.cache.get(key);
    if (!data) return undefined;
    try {
      const parsed = MediaInfo.safeParse(JSON.parse(data.toString('utf8')));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A video the browser cannot open in its container (MKV, MOV…) as fragmented MP4, remuxed on
   * the fly from `start` seconds (`GET /api/preview/play/{path}?start=`), or why it cannot play.
   */
  async play(
    user: UserRecord,
    virtual: string,
    start: number,
    signal: AbortSignal,
  ): Promise<Remux | { kind: 'accepted' }> {
    if (!canDownload(user)) return { kind: 'accepted' };
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.stat(virtual);
    if (target.stat.isDirectory()) throw errors.badRequest('path is a directory');
    if (familyOf(target.name) !== 'video' || !target.stat.isFile()) throw errors.notImplemented();
    if (!this.capabilities.families.video) {
      throw errors.notImplemented('no video playback through remux on this server');
    }
    try {
      return await remuxToMp4(target.real, target.stat.size, start, signal);
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      if (error.reason === 'missing') throw errors.notImplemented(error.message);
      throw errors.unsupportedMediaType();
    }
  }

  /**
   * An image read whole (up to MAX_PREVIEW_SOURCE_BYTES) and resized by sharp. Bytes sharp cannot
   * decode (a file named like a photo that is none) are remembered as failed until the file
   * changes, like a decoder's failure, so `warm` does not read a broken file among a folder's
   * first pictures again at each listing. A request still tries it: the marker is checked by
   * `warm` only, not at the cost of a trip to the thread pool before every conversion.
   */
  private async resized(
    fs: ScopedFs,
    target: Target,
    size: PreviewSize,
    job: JobContext,
  ): Promise<ConvertedImage> {
    const source = await fs.readAll(target, MAX_PREVIEW_SOURCE_BYTES);
    try {
      return await job.convert(source, target.name, size);
    } catch (error) {
      if (error instanceof AppError && error.code === 'unsupportedMediaType') {
        await this.cache.put(this.failedKeyOf(target), Buffer.from('not an image sharp decodes'));
      }
      throw error;
    }
  }

  private send(data: Buffer, contentType: string, target: Target, inline: boolean): FileToSend {
    return {
      size: data.length,
      mtime: target.stat.mtime,
      contentType,
      disposition: contentDisposition(inline ? 'inline' : 'attachment', target.name),
      open: async () => bufferFile(data),
    };
  }

  /**
   * The marker of a file no picture could be made of, until it changes (its size and mtime are in
   * the name): a decoder's failure, or bytes sharp cannot decode.
   */
  private failedKeyOf(target: Target): PreviewKey {
    return this.keyOf(target, 'failed', 'txt');
  }

  private keyOf(target: Target, variant: string, extension: string): PreviewKey {
    return {
      real: target.real,
      size: target.stat.size,
      mtimeMs: target.stat.mtimeMs,
      variant,
      extension: extension === 'jpeg' ? 'jpg' : extension,
    };
  }

  /**
   * A decoder's picture of a file. An office document's first page and PDF are cached as their
   * own variants, so its thumbnail, big preview and PDF cost one LibreOffice run.
   */
  private async decoded(
    target: Target,
    family: DecodedFamily,
    signal: AbortSignal,
  ): Promise<{ image: Buffer; orientation?: number; pdf?: Buffer }> {
    const failed = this.failedKeyOf(target);
    if (await this.cache.get(failed)) throw errors.unsupportedMediaType();
    if (family === 'office') {
      const page = await this.cache.get(this.keyOf(target, 'page', 'png'));
      const pdf = await this.cache.get(this.keyOf(target, 'pdf', 'pdf'));
      if (page && pdf) return { image: page, pdf };
    }
    try {
      const decoded =
        family === 'office'
          ? await this.office.run(() =>
              decodeSource(family, target.real, signal, this.officeTimeoutMs),
            )
          : await decodeSource(family, target.real, signal);
      if (decoded.pdf) {
        await this.cache.put(this.keyOf(target, 'page', 'png'), decoded.image);
        await this.cache.put(this.keyOf(target, 'pdf', 'pdf'), decoded.pdf);
      }
      return decoded;
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      if (error.reason === 'missing') throw errors.notImplemented(error.message);
      if (error.reason === 'failed') {
        // Remembered until the file changes (its size or mtime is in the marker's name).
        this.ctx.log.info({ path: target.real, reason: error.message }, 'no preview of a file');
        await this.cache.put(failed, Buffer.from(error.message));
      }
      throw errors.unsupportedMediaType();
    }
  }

  /**
   * Queues the cache write of a picture already sent, once fewer than MAX_PENDING_WRITES wait;
   * `written` settles when it is on disk (cache.put logs and swallows its failures).
   */
  private async queueWrite(key: PreviewKey, data: Buffer): Promise<{ written: Promise<void> }> {
    let queued!: () => void;
    const room = new Promise<void>((resolve) => (queued = resolve));
    const written = this.writeRoom.run(() => {
      queued();
      return this.writer.run(() => this.cache.put(key, data));
    });
    await room;
    return { written };
  }

  /**
   * The cached bytes of one variant, or `make`'s, shared by concurrent requests and run in the
   * limiter. The clients are answered as soon as the picture is made, and the job's slot goes to
   * the next one once its cache write is queued (`queueWrite`); the job stays joinable until the
   * picture is on disk. When every requester has left, the job's signal aborts (a decoder is killed).
   */
  private async cached(
    target: Target,
    variant: string,
    extension: string,
    signal: AbortSignal,
    priority: Priority,
    make: (job: JobContext) => Promise<ConvertedImage>,
  ): Promise<Buffer> {
    const key = this.keyOf(target, variant, extension);
    const hit = await this.cache.get(key);
    return hit ?? this.joined(key, signal, priority, make);
  }

  /**
   * The conversion in flight for `key`, joined, or a new one started: see `cached`. A job made
   * ahead (`signal` null: nobody asked yet) runs to its end.
   */
  private joined(
    key: PreviewKey,
    signal: AbortSignal | null,
    priority: Priority,
    make: (job: JobContext) => Promise<ConvertedImage>,
  ): Promise<Buffer> {
    const id = JSON.stringify(key);
    let job = this.inFlight.get(id);
    if (!job) {
      const controller = new AbortController();
      const ticket: Job['ticket'] = {};
      const context: JobContext = {
        signal: controller.signal,
        convert: (...args) =>
          this.converter.run(() => convertImage(...args), created.priority, ticket),
      };
      let made!: (data: Buffer) => void;
      let failed!: (error: unknown) => void;
      const promise = new Promise<Buffer>((resolve, reject) => {
        made = resolve;
        failed = reject;
      });
      const created: Job = { promise, waiters: 0, controller, priority, ticket };
      void this.limiter
        .run(
          async () => {
            // Every client that asked left while it was queued: nobody needs this preview.
            controller.signal.throwIfAborted();
            const image = await make(context);
            // Fsynced writes took 0.1–0.6 s each on the loaded bench machine: nobody waits for
            // them, but the slot waits for room in the write queue.
            made(image.data);
            return this.queueWrite(key, image.data);
          },
          priority,
          ticket,
        )
        .then(({ written }) => written)
        .catch(failed)
        .finally(() => {
          if (this.inFlight.get(id) === created) this.inFlight.delete(id);
        });
      job = created;
      this.inFlight.set(id, job);
    } else if (priority === 'high' && job.priority === 'low') {
      // A prefetch the user now looks at (the next photo, a tile scrolled to) stops waiting
      // behind the other prefetches.
      job.priority = 'high';
      job.ticket.promote?.();
    }
    const shared = job;
    shared.waiters++;
    signal?.addEventListener(
      'abort',
      () => {
        if (--shared.waiters > 0) return;
        shared.controller.abort();
        // A request arriving after this (the viewer cancelled a prefetch of the file it now
        // shows) starts a new conversion instead of joining the cancelled one.
        if (this.inFlight.get(id) === shared) this.inFlight.delete(id);
      },
      { once: true },
    );
    return shared.promise;
  }
}
