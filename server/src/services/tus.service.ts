import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Store } from '../store/store.ts';
import type { ServerConfig } from '../config/options.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import type { FastifyBaseLogger } from 'fastify';
import { errors, isDiskFull } from '../errors.ts';
import { virtualParent } from '../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../fs/scoped-fs.ts';
import type { EventHooks } from './event-hooks.ts';
import type { UploadSession } from '../store/uploads.repo.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { sweepExpiredUploads } from './tus/expiry-sweeper.ts';
import {
  AppendRejected,
  type AppendRequest,
  type CreateRequest,
  type UploadState,
} from './tus/upload-types.ts';
import { canCreate, canDelete, canModify } from './permissions.ts';
import type { QuotaService } from './quota/quota.service.ts';
import {
  realTimers,
  repeat,
  systemClock,
  type Clock,
  type Timers,
  type UploadLease,
  type UploadLeases,
} from '../coordination/index.ts';

/** Streaming PATCHes push their expiry forward at most this often. */
const TOUCH_EVERY_MS = 60_000;

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface TusDeps {
  config: Pick<ServerConfig, 'uploadExpiry'>;
  store: Pick<Store, 'uploads'>;
  files: FileRoot;
  settings: SettingsRepo;
  log: FastifyBaseLogger;
}

/**
 * Resumable uploads (tus 1.0 core with creation, creation-with-upload, termination, expiration) on
 * filebrowser's `/api/tus/<path>` routes. The upload's URL is its target path; its bytes go to a
 * staging file beside the target that is renamed into place when the last byte is fsynced, so
 * nothing appears at the target (and an overridden file stays intact) until the upload is complete.
 * Sessions live in the database and offsets are staging sizes on disk, so uploads survive restarts.
 */
export class TusService {
  private readonly expiryMs: number;
  /** Bytes uploads wrote to their staging files since the start (the figures of /metrics). */
  bytesWritten = 0;

  /**
   * `hooks`: before_upload runs at creation (before anything is written), after_upload at
   * completion. `locks`: one request at a time per upload, on every instance (docs/runtime.md).
   * `now`: the clock uploads expire by (tests drive it instead of waiting for real time to pass).
   */
  constructor(
    private readonly ctx: TusDeps,
    private readonly hooks: EventHooks,
    private readonly locks: UploadLeases,
    private readonly quota: QuotaService,
    private readonly now: Clock = systemClock,
    private readonly timers: Timers = realTimers,
  ) {
    this.expiryMs = Math.max(1000, Math.round(ctx.config.uploadExpiry * 1000));
  }

  /** Lifetime of an idle upload in milliseconds. */
  get expiry(): number {
    return this.expiryMs;
  }

  /**
   * Creates an upload (POST). Nothing is written before every check passed: permissions, rules and
   * scope, Upload-Length and Upload-Metadata, conflicts, free space. Then missing parent folders
   * and the empty staging file are created. A POST carrying data (creation-with-upload) appends it.
   */
  async create(user: UserRecord, virtual: string, request: CreateRequest): Promise<UploadState> {
    if (!canCreate(user)) throw errors.forbidden();
    const fs = await ScopedFs.forUser(this.ctx, user);
    const resolved = await fs.resolve(virtual);
    const length = request.uploadLength();
    const metadata = request.metadata();
    const withData = request.withData;
    const declared = request.contentLength;
    if (withData && declared !== undefined && declared > length) {
      throw new AppendRejected(413, 0, declared > 0);
    }
    this.checkTarget(user, resolved, request.override);
    if (length > 0 && (await fs.uploads.availableBytes(resolved)) < length) {
      throw errors.payloadTooLarge('not enough free space');
    }
    await this.quota.checkLanding(resolved.real, length - replacedBytes(resolved), {
      writer: { user, fs },
    });
    await this.hooks.before('upload', user, fs, resolved);
    await this.takeOverTarget(user, fs, resolved);

    if (resolved.path !== '/' && virtualParent(resolved.path) !== '/') {
      await fs.mkdir(virtualParent(resolved.path));
    }
    // The parent may now exist where a symlinked folder led; resolve again before writing there.
    const target = await fs.resolve(resolved.path);
    this.checkTarget(user, target, request.override);

    const now = this.now();
    const id = randomBytes(16).toString('hex');
    const session: UploadSession = {
      id,
      userId: user.id,
      path: target.path,
      ...fs.uploads.placeFor(target, id),
      length,
      override: request.override,
      metadata,
      completed: false,
      createdAt: now,
      expiresAt: now + this.expiryMs,
    };
    // The record is written first: it is the journal that lets the sweeper find the staging file.
    if (!(await this.ctx.store.uploads.insert(session))) {
      throw errors.conflict('an upload to this path is in progress');
    }
    try {
      await fs.uploads.create(session);
    } catch (error) {
      await this.ctx.store.uploads.delete(id);
      throw error;
    }

    const lease = await this.locks.acquire(id);
    try {
      let offset = 0;
      let replaced: string | null = null;
      if (withData) {
        try {
          ({ offset, replaced } = await this.appendLocked(
            user,
            fs,
            session,
            lease,
            0,
            request.body,
            declared,
          ));
        } catch (error) {
          // A creation whose data is refused creates nothing: the client never learnt its URL.
          if (error instanceof AppendRejected) await this.forget(fs, session);
          throw error;
        }
      } else if (length === 0) {
        // An empty upload is complete at creation (tus clients send no PATCH for it).
        replaced = await this.complete(user, session);
      }
      return this.state(session, offset, replaced);
    } finally {
      lease.release();
    }
  }

  /** The state of an upload (HEAD): its offset is the staging file's size on disk. */
  async status(user: UserRecord, virtual: string): Promise<UploadState> {
    if (!canCreate(user)) throw errors.forbidden();
    const fs = await ScopedFs.forUser(this.ctx, user);
    const session = await this.findSession(user, fs, await fs.resolve(virtual));
    if (session.completed) return this.state(session, session.length);
    // A PATCH still streaming here would make the size a moving target: take the upload over.
    const lease = await this.locks.acquire(session.id);
    try {
      const current = await this.reload(session);
      if (current.completed) return this.state(current, current.length);
      const offset = await fs.uploads.size(current);
      if (offset === undefined) {
        // The staging file vanished (its folder was deleted): the upload cannot continue.
        await this.forget(fs, current);
        throw errors.notFound();
      }
      // Full but not renamed (the server stopped in between): finish now, as clients that see
      // offset == length consider the upload done and send nothing more.
      const replaced = offset === current.length ? await this.complete(user, current) : null;
      return this.state(current, offset, replaced);
    } finally {
      lease.release();
    }
  }

  /**
   * Appends a chunk (PATCH). 415 for another content type, 400 for a bad Upload-Offset, 404 when
   * there is no such upload, 409 when the offset is not the size on disk, 413 (rolled back) when the
   * body goes past Upload-Length. The last byte renames the staging file over the target.
   */
  async append(user: UserRecord, virtual: string, request: AppendRequest): Promise<UploadState> {
    if (!canCreate(user)) throw errors.forbidden();
    const fs = await ScopedFs.forUser(this.ctx, user);
    const resolved = await fs.resolve(virtual);
    if (!request.offsetContentType) throw errors.unsupportedMediaType();
    const offset = request.uploadOffset();
    const session = await this.findSession(user, fs, resolved);
    const declared = request.contentLength;
    if (offset > session.length) throw errors.badRequest('offset is past the upload length');
    if (session.completed) {
      if (offset !== session.length) throw new AppendRejected(409, session.length, true);
      if (declared !== 0) throw new AppendRejected(413, session.length, true);
      return this.state(session, session.length);
    }
    if (declared !== undefined && offset + declared > session.length) {
      throw new AppendRejected(413, offset, declared > 0);
    }
    // The whole upload is counted when it lands, so each chunk checks that all of it still fits
    // (other writes or a lowered quota may have taken the room since the creation).
    const target = await fs.resolve(session.path);
    await this.quota.checkLanding(target.real, session.length - replacedBytes(target), {
      writer: { user, fs },
    });
    const lease = await this.locks.acquire(session.id);
    try {
      const current = await this.reload(session);
      if (current.completed) throw new AppendRejected(409, current.length, true);
      const { offset: written, replaced } = await this.appendLocked(
        user,
        fs,
        current,
        lease,
        offset,
        request.body,
        declared,
      );
      return this.state(current, written, replaced);
    } finally {
      lease.release();
    }
  }

  /** Terminates an upload (DELETE): its staging file and record are removed; 204. */
  async terminate(user: UserRecord, virtual: string): Promise<void> {
    if (!canDelete(user)) throw errors.forbidden();
    const fs = await ScopedFs.forUser(this.ctx, user);
    const resolved = await fs.resolve(virtual);
    if (resolved.path === '/') throw errors.forbidden();
    const session = await this.findSession(user, fs, resolved);
    if (session.completed) throw errors.notFound();
    const lease = await this.locks.acquire(session.id);
    try {
      await this.forget(fs, session);
    } finally {
      lease.release();
    }
  }

  /** Removes abandoned uploads (see sweepExpiredUploads); returns how many staging files went. */
  sweep(now = this.now()): Promise<number> {
    return sweepExpiredUploads(
      {
        uploads: this.ctx.store.uploads,
        discard: (place) => ScopedFs.discardUpload(this.ctx.files, place),
        locks: this.locks,
        log: this.ctx.log,
      },
      now,
    );
  }

  /** 400 for folders, 409 for existing files without override, 403 for override without modify. */
  private checkTarget(user: UserRecord, resolved: Resolved, override: boolean): void {
    if (resolved.path === '/' || resolved.trailingSlash || resolved.stat?.isDirectory()) {
      throw errors.badRequest('path is a directory');
    }
    if (resolved.stat) {
      if (!override) throw errors.conflict();
      if (!canModify(user)) throw errors.forbidden();
    }
  }

  /**
   * Clears the way for a new upload to `target`. The same user starting again replaces their own
   * unfinished upload (a client that lost its upload URL); another user's live upload is a 409.
   */
  private async takeOverTarget(user: UserRecord, fs: ScopedFs, target: Resolved): Promise<void> {
    const existing = await this.ctx.store.uploads.byTarget(fs.uploads.targetOf(target));
    if (!existing) return;
    const live = !existing.completed && existing.expiresAt > this.now();
    if (live && existing.userId !== user.id) {
      throw errors.conflict('an upload to this path is in progress');
    }
    const lease = await this.locks.acquire(existing.id);
    try {
      await this.forget(fs, existing);
    } finally {
      lease.release();
    }
  }

  /** Streams one body into the staging file of a locked session and completes it when full. */
  private async appendLocked(
    user: UserRecord,
    fs: ScopedFs,
    session: UploadSession,
    lease: UploadLease,
    offset: number,
    body: Readable,
    declared: number | undefined,
  ): Promise<{ offset: number; replaced: string | null }> {
    await this.touch(session);
    const stopKeepAlive = repeat(this.timers, this.touchEvery, () => this.touch(session));
    let outcome;
    try {
      outcome = await fs.uploads.append(session, {
        offset,
        limit: session.length - offset,
        source: body,
        signal: lease.signal,
      });
    } catch (error) {
      // The disk filled up under the upload: it cannot finish, so it gives back what it took
      // rather than hold a partial file on a full disk (the client starts again once there is room).
      if (isDiskFull(error)) {
        await this.forget(fs, session);
        throw errors.diskFull();
      }
      throw error;
    } finally {
      stopKeepAlive();
    }
    switch (outcome.status) {
      case 'conflict':
        throw new AppendRejected(409, outcome.offset, declared !== 0);
      case 'tooLarge':
        throw new AppendRejected(413, outcome.offset, true);
      case 'interrupted':
        this.bytesWritten += outcome.offset - offset;
        return { offset: outcome.offset, replaced: null };
      case 'written': {
        this.bytesWritten += outcome.offset - offset;
        const full = outcome.offset === session.length;
        return {
          offset: outcome.offset,
          replaced: full ? await this.complete(user, session) : null,
        };
      }
    }
  }

  /**
   * Renames a full staging file over its target. Permissions are judged again with the user's
   * current rights: a file may have appeared at the target since the upload was created. Returns
   * the path of a file the upload replaced (for the audit log), or null.
   */
  private async complete(user: UserRecord, session: UploadSession): Promise<string | null> {
    const fs = await ScopedFs.forUser(this.ctx, user);
    const target = await fs.resolve(session.path);
    let replaced = 0;
    try {
      if (fs.uploads.targetOf(target) !== session.target) {
        throw errors.conflict('the target moved');
      }
      this.checkTarget(user, target, session.override);
      replaced = replacedBytes(target);
      await fs.uploads.commit(session, target, session.override);
    } catch (error) {
      // The upload cannot land: free its space and forget it rather than keep a dead session.
      await this.forget(fs, session);
      throw error;
    }
    await this.quota.recordChange(target.real, session.length - replaced);
    const keepUntil = this.now() + this.expiryMs;
    await this.ctx.store.uploads.complete(session.id, keepUntil);
    session.completed = true;
    session.expiresAt = keepUntil;
    await this.hooks.after('upload', user, fs, target);
    return target.stat ? target.path : null;
  }

  /** The caller's live session for a path, or 404 (expired uploads count as gone). */
  private async findSession(
    user: UserRecord,
    fs: ScopedFs,
    target: Resolved,
  ): Promise<UploadSession> {
    const session = await this.ctx.store.uploads.byTarget(fs.uploads.targetOf(target));
    if (!session || session.userId !== user.id || session.expiresAt <= this.now()) {
      throw errors.notFound();
    }
    return session;
  }

  /** Re-reads a session after waiting for its lock: it may have been completed or removed. */
  private async reload(session: UploadSession): Promise<UploadSession> {
    const current = await this.ctx.store.uploads.byId(session.id);
    if (!current) throw errors.notFound();
    return current;
  }

  /** Pushes a session's expiry forward. */
  private async touch(session: UploadSession): Promise<void> {
    session.expiresAt = this.now() + this.expiryMs;
    await this.ctx.store.uploads.touch(session.id, session.expiresAt);
  }

  /** Removes a session's staging file (if unfinished) and its record. */
  private async forget(fs: ScopedFs, session: UploadSession): Promise<void> {
    if (!session.completed) await fs.uploads.discard(session);
    await this.ctx.store.uploads.delete(session.id);
  }

  private get touchEvery(): number {
    return Math.max(250, Math.min(TOUCH_EVERY_MS, Math.floor(this.expiryMs / 4)));
  }

  private state(
    session: UploadSession,
    offset: number,
    replaced: string | null = null,
  ): UploadState {
    return {
      ...(replaced !== null && { replaced }),
      path: session.path,
      offset,
      length: session.length,
      metadata: session.metadata,
      expiresAt: session.expiresAt,
    };
  }
}

/** Bytes of the file an upload replaces (0 for a new file): they are freed when it lands. */
function replacedBytes(target: Resolved): number {
  return target.stat?.isFile() && !target.isSymlink ? target.stat.size : 0;
}
