import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  CHECKSUM_ALGORITHMS,
  type ChecksumAlgorithm,
  type RecursiveItem,
  type Resource,
  type TransferAction,
  type TransferQuery,
  type Usage,
} from '@cabinet/protocol';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { errors } from '../errors.ts';
import { canonicalPath, virtualParent } from '../fs/canonical-path.ts';
import { detectType, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../file-kinds/file-type.ts';
import { ScopedFs, type Resolved } from '../fs/scoped-fs.ts';
import type { CopyControl } from '../fs/copy-run.ts';
import { SubtitleFinder } from '../file-kinds/subtitles.ts';
import type { UserRecord } from '../store/users.repo.ts';
import type { EventHooks } from './event-hooks.ts';
import { etagOf, fileInfo, formatTime } from './resources/file-info.ts';
import type { ShareService } from './share.service.ts';
import type { TrashService } from './trash/trash.service.ts';
import { freeName } from './resources/free-name.ts';
import { readListing, type Listing } from './resources/listing.ts';
import {
  grantedPart,
  sharedMarkOf,
  withGrants,
  type KeptGrantedItems,
} from './resources/granted-items.ts';
import type { HolderViews } from './resources/granted-tops.ts';
import { EntryBudget } from './resources/listing-memory.ts';
import type { ListingCache } from '../tree/listing/listing-cache.ts';
import type { InstanceChanges } from '../tree/change-relay.ts';
import { canCreate, canDelete, canDownload, canModify, canRename } from './permissions.ts';
import type { QuotaService } from './quota/quota.service.ts';

/** What GET /api/resources answers: JSON, raw bytes (X-Encoding), or 202 without download. */
export type ResourceReply =
  | { kind: 'json'; body: Resource }
  | { kind: 'listing'; listing: Listing }
  | { kind: 'raw'; stream: Readable; size: number }
  | { kind: 'accepted' };

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface ResourcesDeps {
  files: FileRoot;
  settings: SettingsRepo;
}

/** A copy or a move as services ask for it: typed values, the destination a plain virtual path. */
export interface Transfer {
  action: TransferAction;
  destination: string;
  /** Replace what is at the destination (needs the modify permission). */
  override: boolean;
  /** On a clash, pick a free name instead of answering 409. */
  rename: boolean;
}

/**
 * The files API: permissions first, then ScopedFs does rules,
 * scope and symlink confinement. Never touches the reply; routes shape the HTTP answer.
 */
export class ResourcesService {
  /** Big listings hold at most this many entries at once (see listing-memory.ts). */
  private readonly listingBudget = new EntryBudget(100_000, 1_000);
  /**
   * The grants' items at the top of views, made once while they hold, and the views of the
   * folders holding team folders (granted-items.ts, granted-tops.ts).
   */
  private readonly granted: { items: KeptGrantedItems; holders: HolderViews } = {
    items: new WeakMap(),
    holders: new Map(),
  };

  /**
   * `hooks`: the admin's before/after hooks of uploads, saves, copies, renames and deletes.
   * `quota`: refuses writes over a user's quota and counts what each write adds or frees.
   */
  constructor(
    private readonly ctx: ResourcesDeps,
    private readonly hooks: EventHooks,
    private readonly shares: ShareService,
    private readonly trash: TrashService,
    private readonly quota: QuotaService,
    /** Stat'ed children of watched folders, shared by every user's listings. */
    private readonly listingCache?: ListingCache,
    /** Other instances' changes, applied before a listing (tree/change-relay.ts). */
    private readonly instances?: InstanceChanges,
  ) {}

  /** The user's view of the tree. */
  view(user: UserRecord): Promise<ScopedFs> {
    return ScopedFs.forUser(this.ctx, user);
  }

  /** GET: a folder listing, or a file's metadata with content, checksum or raw text. */
  async get(
    user: UserRecord,
    rawPath: string,
    options: { checksum?: string; rawText?: boolean } = {},
  ): Promise<ResourceReply> {
    const fs = await this.view(user);
    const target = await fs.stat(rawPath);
    const shownPath = target.path + (target.trailingSlash ? '/' : '');
    if (target.stat.isDirectory()) {
      // Read-your-writes across instances: what another instance changed before now is applied.
      await this.instances?.synced();
      // The grants the folder shows are looked up beside its own listing (docs/teams.md, "Cost").
      const granted = grantedPart(fs, target, this.listingCache, this.granted);
      granted.catch(() => undefined); // awaited below, unless the listing fails first
      // The scope folder was stamped as the view was built (a view with grants): not again.
      const stamp = target.real === fs.scopeReal ? (fs.builtStamp ?? undefined) : undefined;
      const listing = await readListing(
        fs,
        target,
        shownPath,
        user.sorting,
        this.listingBudget,
        this.listingCache,
        { stamp },
      );
      const grants = await granted.catch((error: unknown) => {
        listing.done();
        throw error;
      });
      return { kind: 'listing', listing: withGrants(fs, target, listing, grants) };
    }
    if (options.checksum !== undefined) {
      if (!canDownload(user)) return { kind: 'accepted' };
      if (!(CHECKSUM_ALGORITHMS as readonly string[]).includes(options.checksum)) {
        throw errors.badRequest();
      }
    }
    const head = await fs.readHead(target, SNIFF_BYTES);
    const detected = detectType(target.name, target.stat, head);
    if (options.rawText && detected === 'text') {
      if (!canDownload(user)) return { kind: 'accepted' };
      const { stream, stat } = await fs.openRead(target);
      return { kind: 'raw', stream, size: stat.size };
    }
    const type = detected === 'text' && !canModify(user) ? 'textImmutable' : detected;
    const body: Resource = fileInfo({
      path: shownPath,
      name: target.name,
      stat: target.stat,
      isSymlink: target.isSymlink,
      type,
    });
    const mark = sharedMarkOf(fs, target);
    if (mark) body.shared = mark;
    if (type === 'video') {
      const { children } = await fs.listChildren(virtualParent(target.path));
      const subtitles = await new SubtitleFinder(fs, children).find(target.name);
      if (subtitles.length > 0) body.subtitles = subtitles;
    }
    if (options.checksum !== undefined) {
      body.checksums = {
        [options.checksum]: await this.checksum(fs, target, options.checksum as ChecksumAlgorithm),
      };
      return { kind: 'json', body };
    }
    if (detected === 'text' && canDownload(user)) {
      const content = (await fs.readAll(target, TEXT_LIMIT_BYTES)).toString('utf8');
      if (content !== '') body.content = content;
    }
    return { kind: 'json', body };
  }

  private async checksum(
    fs: ScopedFs,
    target: Resolved,
    algorithm: ChecksumAlgorithm,
  ): Promise<string> {
    const hash = createHash(algorithm);
    const { stream } = await fs.openRead(target);
    for await (const chunk of stream) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  /** GET recursive: every visible descendant of a folder, pruned by rules, until `signal` aborts. */
  async recursive(
    user: UserRecord,
    rawPath: string,
    signal: AbortSignal,
  ): Promise<RecursiveItem[]> {
    const fs = await this.view(user);
    const dir = await fs.stat(rawPath);
    if (!dir.stat.isDirectory()) throw errors.badRequest('path is not a directory');
    const items: RecursiveItem[] = [];
    for await (const entry of fs.walk(dir, { signal, grants: true })) {
      if (!entry.stat) continue;
      items.push({
        path: entry.path,
        name: entry.name,
        size: entry.stat.size,
        modified: formatTime(entry.stat.mtimeMs),
        isDir: entry.stat.isDirectory(),
      });
    }
    return items;
  }

  /**
   * POST: a trailing slash creates a folder tree; otherwise the body is streamed atomically into a
   * new file (parents created). 409 when it exists unless `override`, which needs modify.
   * Returns the ETag of a written file, and the path of a file the override replaced.
   */
  async upload(
    user: UserRecord,
    rawPath: string,
    body: Readable,
    override: boolean,
    declaredLength?: number,
  ): Promise<{ etag?: string; replaced?: string | null }> {
    if (!canCreate(user)) throw errors.forbidden();
    const fs = await this.view(user);
    const target = await fs.resolve(rawPath);
    if (target.trailingSlash || target.path === '/') {
      await this.hooks.before('upload', user, fs, target);
      await fs.mkdir(target);
      await this.hooks.after('upload', user, fs, target);
      return {};
    }
    if (target.stat) {
      if (!override) throw errors.conflict();
      if (!canModify(user)) throw errors.forbidden();
    }
    const replaced = target.stat?.isFile() ? target.stat.size : 0;
    // Judged for the writer and any other user whose scope holds the target (an administrator
    // writing in a user's folder).
    const limited = await this.quota.limitBody(
      user,
      fs,
      body,
      replaced,
      declaredLength,
      target.real,
    );
    await this.hooks.before('upload', user, fs, target);
    const { resolved, stat } = await fs.writeFile(target, limited, { override });
    await this.quota.recordChange(resolved.real, stat.size - replaced);
    await this.hooks.after('upload', user, fs, target);
    return { etag: etagOf(stat), replaced: target.stat ? target.path : null };
  }

  /** PUT: replaces an existing file's content atomically (modify; trailing slash is 405). */
  async save(
    user: UserRecord,
    rawPath: string,
    body: Readable,
    declaredLength?: number,
  ): Promise<{ etag: string }> {
    if (!canModify(user)) throw errors.forbidden();
    const fs = await this.view(user);
    const target = await fs.resolve(rawPath);
    if (target.trailingSlash) throw errors.methodNotAllowed();
    if (!target.stat) throw errors.notFound();
    if (target.stat.isDirectory()) throw errors.methodNotAllowed();
    const replaced = target.stat.isFile() ? target.stat.size : 0;
    const limited = await this.quota.limitBody(
      user,
      fs,
      body,
      replaced,
      declaredLength,
      target.real,
    );
    await this.hooks.before('save', user, fs, target);
    const { resolved, stat } = await fs.writeFile(target, limited, { override: true });
    await this.quota.recordChange(resolved.real, stat.size - replaced);
    await this.hooks.after('save', user, fs, target);
    return { etag: etagOf(stat) };
  }

  /**
   * PATCH's query as the wire carries it: the action checked, then the permission, then
   * `destination`, which arrives already decoded once and is decoded once more (the reference
   * client double-encodes it). Services call `transfer` with a plain path instead.
   */
  async transferRequested(
    user: UserRecord,
    rawPath: string,
    query: TransferQuery,
  ): Promise<{ replaced: string | null }> {
    const action = query.action;
    if (action !== 'copy' && action !== 'rename') throw errors.badRequest('unsupported action');
    if (!(action === 'copy' ? canCreate(user) : canRename(user))) throw errors.forbidden();
    let destination: string;
    try {
      destination = decodeURIComponent(query.destination ?? '');
    } catch {
      throw errors.badRequest('invalid destination');
    }
    return this.transfer(user, rawPath, {
      action,
      destination,
      override: query.override,
      rename: query.rename,
    });
  }

  /**
   * Copies or renames (moves) `rawPath` to `transfer.destination`, a virtual path of the user's
   * view. A background job passes `control` to follow and stop a copy (docs/jobs.md). Answers the
   * path of an item the override replaced (for the audit log), or null.
   */
  async transfer(
    user: UserRecord,
    rawPath: string,
    transfer: Transfer,
    control?: CopyControl,
  ): Promise<{ replaced: string | null }> {
    const { action, destination: destinationPath, override, rename: renameOnClash } = transfer;
    if (!(action === 'copy' ? canCreate(user) : canRename(user))) throw errors.forbidden();
    const fs = await this.view(user);
    const source = await fs.resolve(rawPath);
    let destination = await fs.resolve(destinationPath);
    if (source.path === '/' || destination.path === '/') throw errors.forbidden();
    const isSameName =
      action === 'rename' &&
      fs.caseInsensitive &&
      source.path.toLowerCase() === destination.path.toLowerCase();
    if (destination.stat && !isSameName && renameOnClash && !override) {
      destination = await fs.resolve(await freeName(fs, destination.path));
    }
    if (override && !canModify(user)) throw errors.forbidden();
    const subject = { path: source.path, real: source.real, destination: destination.real };
    const replacing = override && !isSameName && Boolean(destination.stat || destination.isSymlink);
    const replaced = override ? await this.quota.measureIfTracked(fs, destination) : 0;
    const added = await this.judgeTransfer(user, fs, action, source, destination, replaced);
    await this.hooks.before(action, user, fs, subject);
    if (action === 'copy') {
      const copied = await fs.copy(source, destination, { override, control });
      await this.quota.recordChange(copied.real, added - replaced);
    } else {
      const moved = await fs.move(source, destination, { override });
      await this.quota.recordChange(source.real, -added);
      await this.quota.recordChange(moved.real, added - replaced);
      await this.shares.followMove(source, moved);
    }
    await this.hooks.after(action, user, fs, subject);
    return { replaced: replacing ? destination.path : null };
  }

  /**
   * WebDAV's COPY and MOVE with `Overwrite: T` remove the destination through the delete path
   * before the transfer: the room is judged first, so a refusal (507) leaves the destination
   * intact. Into the trash the removed bytes still count, so they free nothing then.
   */
  async checkTransferRoom(
    user: UserRecord,
    sourcePath: string,
    destinationPath: string,
    action: 'copy' | 'rename',
  ): Promise<void> {
    const fs = await this.view(user);
    const source = await fs.resolve(sourcePath);
    const destination = await fs.resolve(destinationPath);
    const trash = await this.trash.settings();
    const replaced = trash.enabled ? 0 : await this.quota.measureIfTracked(fs, destination);
    await this.judgeTransfer(user, fs, action, source, destination, replaced);
  }

  /**
   * Quotas of a copy or move, before it starts: the bytes it lands at the destination, refused
   * (507) when they do not fit the writer's quota or that of another user whose scope holds the
   * destination. A move changes usage only where scopes overlap (scopes holding both places see
   * no change), so a move inside one scope is never refused. Returns the bytes measured (0 when
   * no quota judges or counts them: a big tree's walk is not free).
   */
  private async judgeTransfer(
    user: UserRecord,
    fs: ScopedFs,
    action: 'copy' | 'rename',
    source: Resolved,
    destination: Resolved,
    replaced: number,
  ): Promise<number> {
    // Into a grant, the bytes are its owner's (or a team folder's own quota's) to hold.
    const counted =
      (action === 'copy' && this.quota.quotaOf(user) > 0) ||
      (fs.mountOf(destination) !== null && fs.mountOf(destination) !== fs.mountOf(source)) ||
      (await this.quota.isTracked(destination.real)) ||
      (action === 'rename' && (await this.quota.isTracked(source.real)));
    if (!counted) return 0;
    const added = await fs.bytesUnder(source);
    await this.quota.checkLanding(destination.real, added - replaced, {
      writer: { user, fs },
      ...(action === 'rename' && { from: source.real }),
    });
    return added;
  }

  /**
   * DELETE: a file or tree (delete permission) leaves its folder: into the trash when it is on,
   * for good otherwise; its share links stop working either way (docs/trash.md).
   */
  /** DELETE: into the trash when it is on (`trashed`), else for good. */
  async remove(user: UserRecord, rawPath: string): Promise<{ trashed: boolean }> {
    if (canonicalPath(rawPath).path === '/' || !canDelete(user)) throw errors.forbidden();
    const fs = await this.view(user);
    const target = await fs.resolve(rawPath);
    // Missing paths are a 404 before any hook runs; a dangling link in scope can still be deleted.
    if (!target.stat && !target.isSymlink) throw errors.notFound();
    // Into the trash the bytes still count toward the quota until they leave it (docs/quotas.md),
    // so only a delete for good measures what it frees; the trash measures what it takes in.
    const trash = await this.trash.settings();
    const freed = trash.enabled ? 0 : await this.quota.measureIfTracked(fs, target);
    await this.hooks.before('delete', user, fs, target);
    await this.trash.discard(user, fs, target, trash);
    await this.quota.recordChange(target.real, -freed);
    await this.hooks.after('delete', user, fs, target);
    return { trashed: trash.enabled };
  }

  /** GET usage: the volume's total and used bytes for a folder, zeros for a file. */
  async usage(user: UserRecord, rawPath: string): Promise<Usage> {
    const fs = await this.view(user);
    return fs.usage(rawPath);
  }
}
