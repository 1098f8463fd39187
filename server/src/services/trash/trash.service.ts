import { randomBytes } from 'node:crypto';
import {
  DEFAULT_TRASH_SETTINGS,
  TrashSettings,
  type TrashItem,
  type TrashRestoreBody,
} from '@cabinet/protocol';
import type { Store } from '../../store/store.ts';
import type { ServerConfig } from '../../config/options.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import { errors } from '../../errors.ts';
import { canonicalPath } from '../../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../../fs/scoped-fs.ts';
import { TrashFolder } from '../../fs/trash-folder.ts';
import type { GrantSource } from '../../fs/mounts.ts';
import type { TrashRecord } from '../../store/trash.repo.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { contentDisposition, type FileToSend } from '../file-to-send.ts';
import { canCreate, canDelete, canDownload, canModify, isAdmin } from '../permissions.ts';
import { inlineContentType } from '../raw/inline-type.ts';
import { formatTime } from '../resources/file-info.ts';
import { freeName } from '../resources/free-name.ts';
import type { ShareService } from '../share.service.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { QuotaService } from '../quota/quota.service.ts';
import { systemClock, type Clock } from '../../coordination/index.ts';
import { deleterPathOf, ROOT_TRASH, trashOwnerOf, type TrashOwner } from './trash-grants.ts';

const SETTINGS_KEY = 'trash-settings';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A trash row as known before the move: what a pending marker records. */
type PendingRecord = Omit<TrashRecord, 'size' | 'shares'>;

/** What a restore did: the item's new path, or the clash that needs the user's choice. */
export type RestoreOutcome =
  | {
      kind: 'restored';
      path: string;
      /** The item a `replace` sent to the trash. */
      replaced?: string;
    }
  | { kind: 'conflict' };

/** Where a restore lands: the owner's path, the deleter's path in a grant, or the root's. */
type RestorePlace =
  | { kind: 'owner'; owner: UserRecord; path: string }
  | { kind: 'deleter'; fs: ScopedFs; path: string }
  | { kind: 'root'; path: string };

/** Who removes trashed items for good, and from where (the audit entry's actor and address). */
export interface TrashActor {
  actor: Pick<UserRecord, 'id' | 'username'>;
  address: string;
}

/** Whose trash a listing shows: the caller's, one user's (admins) or everyone's (admins). */
export interface TrashListScope {
  userId?: number;
  all?: boolean;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface TrashDeps {
  config: Pick<ServerConfig, 'data'>;
  store: Pick<Store, 'kv' | 'trash' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
  /** The grants a view mounts: deletes inside them go to their owner's trash (docs/teams.md). */
  grants?: GrantSource;
}

/**
 * The trash (docs/trash.md): deletes through Cabinet move the item to `<data>/trash/…` with a
 * record, from where it is restored, deleted for good, or purged by the scheduler after the
 * retention period or when its owner's trash is over the byte cap. With the trash turned off a
 * delete is immediate, as in filebrowser.
 */
export class TrashService {
  private readonly folder: TrashFolder;
  /** The clock of retention (tests replace it to age items without waiting). */
  clock: Clock;

  /**
   * `quota`: trashed bytes count toward their owner's quota until they leave the trash for good
   * (docs/quotas.md); a restore is judged by the quotas of the scopes it lands in. `audit`: every
   * item that leaves the trash for good is recorded as a `file.delete` (docs/audit.md).
   */
  constructor(
    private readonly ctx: TrashDeps,
    private readonly shares: ShareService,
    private readonly quota?: QuotaService,
    private readonly audit?: AuditLog,
    now: Clock = systemClock,
  ) {
    this.clock = now;
    this.folder = new TrashFolder(ctx.config.data, ctx.files.dirMode);
  }

  /** The global trash settings (defaults until an administrator saves them). */
  async settings(): Promise<TrashSettings> {
    const saved = await this.ctx.store.kv.get<Partial<TrashSettings>>(SETTINGS_KEY);
    const merged = { ...DEFAULT_TRASH_SETTINGS, ...saved };
    const parsed = TrashSettings.safeParse(merged);
    return parsed.success ? parsed.data : { ...DEFAULT_TRASH_SETTINGS };
  }

  async saveSettings(actor: UserRecord, body: unknown): Promise<TrashSettings> {
    if (!isAdmin(actor)) throw errors.forbidden();
    const parsed = TrashSettings.safeParse(body);
    if (!parsed.success) throw errors.badRequest('invalid trash settings');
    await this.ctx.store.kv.set(SETTINGS_KEY, parsed.data);
    return parsed.data;
  }

  /**
   * Deletes an item of `user`'s view: into the trash when it is on, else for good. Either way the
   * item is gone from its folder and its share links stop working (while trashed they are kept
   * aside and come back with a restore). Permissions are the caller's to check.
   */
  async discard(
    user: UserRecord,
    fs: ScopedFs,
    target: Resolved,
    /** The settings the caller already read to decide what the delete frees. */
    settings: TrashSettings | undefined = undefined,
    /** Whose trash it goes to when `fs` is not a user's view (the root's, for a restore there). */
    overrideOwner?: TrashOwner,
  ): Promise<void> {
    settings ??= await this.settings();
    if (!settings.enabled) {
      const removed = await fs.remove(target);
      await this.shares.forgetOwnLinksAtOrUnder(user.id, removed.path, fs.caseInsensitive);
      await this.shares.forgetRemoved(removed);
      return;
    }
    const id = randomBytes(12).toString('base64url');
    const isDir = target.stat?.isDirectory() === true && !target.isSymlink;
    const name = target.name;
    // Inside a grant the item goes to the folder's owner (docs/teams.md); `path` is the owner's.
    const owner = overrideOwner ?? (await trashOwnerOf(user.id, fs, target));
    const pending: PendingRecord = {
      id,
      userId: owner.userId,
      name,
      path: owner.path,
      target: this.shares.targetOf(target),
      isDir,
      deletedAt: this.clock(),
      deletedBy: user.id,
    };
    // The marker comes first: a crash anywhere from here to the row (the item's folder made, the
    // item moved in) leaves it for recoverInterrupted, which records or undoes what was done.
    await this.folder.markPending(owner.userId, id, pending);
    await this.folder.prepare(owner.userId, id);
    try {
      await fs.trash.moveOut(target, this.folder.itemPath(owner.userId, id, name));
    } catch (error) {
      await this.folder.discard(owner.userId, id);
      await this.folder.clearPending(owner.userId, id);
      throw error;
    }
    // The owner's links to the item (by the owner's path) and anyone's to its real place.
    const links = await this.shares.suspendFor(
      owner.userId,
      { ...target, path: owner.path },
      fs.caseInsensitive,
    );
    const size = await this.folder.sizeOf(owner.userId, id, name);
    await this.ctx.store.trash.insert({ ...pending, size, shares: links });
    await this.folder.clearPending(owner.userId, id);
    // The bytes leave every scope that held them and join the owner's trash, which their usage
    // counts: the owner's own usage stays, an overlapping scope's goes down. The root's trash (a
    // team folder's deletes) counts toward no user.
    await this.quota?.recordChange(target.real, -size);
    const ownerUser =
      owner.userId === user.id ? user : await this.ctx.store.users.byId(owner.userId);
    if (ownerUser) await this.quota?.adjustUser(ownerUser, size);
    if (settings.maxBytesPerUser > 0) {
      await this.enforceCap(owner.userId, settings.maxBytesPerUser, id);
    }
  }

  /**
   * Finishes the deletes a crash interrupted (run at start): an item that reached the trash
   * folder gets its row, so it is listed, restorable and purged like any other (share links it had
   * are not brought back: they were suspended with the row that was never written); a delete that
   * had not moved its item yet is undone (the item is still in place). Returns how many items it
   * recorded.
   */
  async recoverInterrupted(): Promise<number> {
    let recorded = 0;
    for (const { userId, id, record, writerAlive } of await this.folder.pending<PendingRecord>()) {
      if (writerAlive) continue;
      const moved =
        record !== undefined &&
        record.userId === userId &&
        record.id === id &&
        (await this.folder.exists(userId, id, record.name));
      if (moved && !(await this.ctx.store.trash.get(id))) {
        await this.ctx.store.trash.insert({
          ...record,
          size: await this.folder.sizeOf(userId, id, record.name),
          shares: [],
        });
        recorded++;
      } else if (!moved) {
        // Never anything but an empty folder: a marker that cannot be read costs no item.
        await this.folder.discardEmpty(userId, id);
      }
      await this.folder.clearPending(userId, id);
    }
    return recorded;
  }

  /** Bytes in a user's trash (their quota counts them, docs/quotas.md). */
  async bytesOf(userId: number): Promise<number> {
    const records = await this.ctx.store.trash.list(userId);
    return records.reduce((sum, record) => sum + record.size, 0);
  }

  /**
   * The items the actor may see: their own, or (administrators) one user's or everyone's. The
   * caller's own list also holds what they deleted inside a grant they still hold, under its path
   * in their view (the item itself is in the folder owner's trash, docs/teams.md).
   */
  async list(actor: UserRecord, scope: TrashListScope = {}): Promise<TrashItem[]> {
    let owner: number | undefined = actor.id;
    if (scope.all || (scope.userId !== undefined && scope.userId !== actor.id)) {
      if (!isAdmin(actor)) throw errors.forbidden();
      owner = scope.all ? undefined : scope.userId;
    }
    const records = await this.ctx.store.trash.list(owner);
    const shown: Array<{ record: TrashRecord; path: string }> = records.map((record) => ({
      record,
      path: record.path,
    }));
    if (owner === actor.id) {
      const theirs = (await this.ctx.store.trash.deletedBy(actor.id)).filter(
        (record) => record.userId !== actor.id,
      );
      if (theirs.length > 0) {
        const fs = await ScopedFs.forUser(this.ctx, actor);
        for (const record of theirs) {
          const path = await deleterPathOf(fs, record);
          if (path !== null) shown.push({ record, path });
        }
        shown.sort((a, b) => b.record.deletedAt - a.record.deletedAt);
      }
    }
    const names = new Map<number, string>();
    const nameOf = async (id: number) => {
      if (!names.has(id)) names.set(id, (await this.ctx.store.users.byId(id))?.username ?? '');
      return names.get(id)!;
    };
    const items: TrashItem[] = [];
    for (const { record, path } of shown) {
      items.push({
        id: record.id,
        name: record.name,
        path,
        isDir: record.isDir,
        size: record.size,
        deletedAt: formatTime(record.deletedAt),
        userID: record.userId,
        username: await nameOf(record.userId),
        deletedBy: await nameOf(record.deletedBy),
      });
    }
    return items;
  }

  /**
   * A trashed item the actor may act on: their own, one they deleted inside a grant they still
   * hold (with its path in their view), or any for administrators; 404 otherwise.
   */
  private async itemFor(
    actor: UserRecord,
    id: string,
  ): Promise<{ record: TrashRecord; place: RestorePlace }> {
    const record = await this.ctx.store.trash.get(id);
    if (!record) throw errors.notFound();
    if (record.userId === actor.id) {
      return { record, place: { kind: 'owner', owner: actor, path: record.path } };
    }
    if (record.deletedBy === actor.id) {
      const fs = await ScopedFs.forUser(this.ctx, actor);
      const path = await deleterPathOf(fs, record);
      if (path !== null) return { record, place: { kind: 'deleter', fs, path } };
    }
    if (!isAdmin(actor)) throw errors.notFound();
    if (record.userId === ROOT_TRASH) return { record, place: { kind: 'root', path: record.path } };
    const owner = await this.ctx.store.users.byId(record.userId);
    if (!owner) throw errors.notFound();
    return { record, place: { kind: 'owner', owner, path: record.path } };
  }

  /** A trashed file to download or preview (folders have no raw form here: 404). */
  async rawFile(actor: UserRecord, id: string, inline: boolean): Promise<FileToSend | undefined> {
    const { record } = await this.itemFor(actor, id);
    if (!canDownload(actor)) return undefined;
    const { handle, stat } = await this.folder.openFile(record.userId, record.id, record.name);
    let head = Buffer.alloc(0);
    if (inline) {
      const buffer = Buffer.alloc(512);
      const { bytesRead } = await handle.read(buffer, 0, 512, 0);
      head = buffer.subarray(0, bytesRead);
    }
    let first: typeof handle | undefined = handle;
    return {
      size: stat.size,
      mtime: stat.mtime,
      contentType: inline ? inlineContentType(record.name, head) : 'application/octet-stream',
      disposition: contentDisposition(inline ? 'inline' : 'attachment', record.name),
      open: async () => {
        // The handle opened to sniff the type serves the first read; later ones open afresh.
        if (first) {
          const opened = first;
          first = undefined;
          return opened;
        }
        return (await this.folder.openFile(record.userId, record.id, record.name)).handle;
      },
    };
  }

  /**
   * Puts an item back where it was, in its owner's view (parents re-created). A taken place is a
   * conflict unless the body says `replace` (the item there goes to the trash in turn; needs
   * modify) or `keep-both` (a free `name(N).ext` beside it). Needs create, and the owner's rules
   * must allow every entry at its place. `address`: the client's, for the audit entry of a
   * replaced item.
   */
  async restore(
    actor: UserRecord,
    id: string,
    body: TrashRestoreBody,
    address = '',
  ): Promise<RestoreOutcome> {
    const { record, place: where } = await this.itemFor(actor, id);
    if (!canCreate(actor)) throw errors.forbidden();
    if (body.onConflict === 'replace' && !canModify(actor)) throw errors.forbidden();
    // The view it lands through: the owner's, the deleter's (back into the grant, judged by the
    // grant's access and both sides' rules now), or the root's (a team folder's item, admins).
    const fs = await this.restoreView(where);
    const ownerUser =
      record.userId === actor.id ? actor : await this.ctx.store.users.byId(record.userId);
    const viewer = where.kind === 'owner' ? where.owner : actor;
    let place = await fs.resolve(canonicalPath(where.path).path);
    let replaced: string | undefined;
    if (place.stat || place.isSymlink) {
      if (body.onConflict === undefined) return { kind: 'conflict' };
      if (body.onConflict === 'keep-both') {
        place = await fs.resolve(await freeName(fs, place.path));
      } else {
        if (!canDelete(actor)) throw errors.forbidden();
        replaced = place.path;
      }
    }
    // The owner's usage already counts their trash; another user's scope that holds the place
    // (an outer team folder) gains the bytes and is judged by its quota before anything moves.
    if (this.quota) {
      const ownerFs =
        where.kind === 'owner' ? fs : ownerUser && (await ScopedFs.forUser(this.ctx, ownerUser));
      await this.quota.checkLanding(place.real, record.size, {
        // Back into a grant: a team folder's own quota judges it too.
        ...(where.kind === 'deleter' && { writer: { user: actor, fs } }),
        except: ownerFs ? [this.quota.scopeKeyOf(ownerFs)] : [],
      });
    }
    if (replaced !== undefined) {
      await this.discard(
        viewer,
        fs,
        place,
        undefined,
        where.kind === 'root' ? { userId: ROOT_TRASH, path: place.path } : undefined,
      );
      place = await fs.resolve(place.path);
      this.audit?.record({
        action: 'file.replace',
        outcome: 'ok',
        actor: { id: actor.id, username: actor.username },
        address,
        target: replaced,
        details: { via: 'trash.restore', trashId: record.id, trash: true },
      });
    }
    // The row is the claim: of two restores (or a restore and a purge) only one moves the item.
    if (!(await this.ctx.store.trash.remove(record.id))) throw errors.notFound();
    let restored: Resolved;
    try {
      restored = await fs.trash.moveIn(
        this.folder.itemPath(record.userId, record.id, record.name),
        place,
      );
    } catch (error) {
      await this.ctx.store.trash.insert(record);
      throw error;
    }
    await this.folder.discard(record.userId, record.id);
    await this.quota?.recordChange(restored.real, record.size);
    if (ownerUser) await this.quota?.adjustUser(ownerUser, -record.size);
    await this.shares.resume(record.shares);
    const now = this.shares.targetOf(restored);
    if (now !== record.target) await this.shares.followTarget(record.target, now);
    return { kind: 'restored', path: restored.path, ...(replaced !== undefined && { replaced }) };
  }

  /** The view a restore lands through (see RestorePlace). */
  private async restoreView(where: RestorePlace): Promise<ScopedFs> {
    if (where.kind === 'deleter') return where.fs;
    if (where.kind === 'owner') return ScopedFs.forUser(this.ctx, where.owner);
    const { rules } = await this.ctx.settings.get();
    return ScopedFs.open(this.ctx.files, { scope: '/', rules, hideDotfiles: false });
  }

  /** Deletes one item for good; `address`: the client's, for the audit entry. */
  async remove(actor: UserRecord, id: string, address = ''): Promise<void> {
    const { record, place } = await this.itemFor(actor, id);
    if (!canDelete(actor)) throw errors.forbidden();
    // What someone deleted in another's folder is the owner's to delete for good (docs/teams.md).
    if (place.kind === 'deleter') throw errors.forbidden();
    await this.drop(record, 'trash.delete', { actor, address });
  }

  /** Deletes every item of the actor's own trash for good; returns how many. */
  async empty(actor: UserRecord, address = ''): Promise<number> {
    if (!canDelete(actor)) throw errors.forbidden();
    let count = 0;
    for (const record of await this.ctx.store.trash.list(actor.id)) {
      if (await this.drop(record, 'trash.empty', { actor, address })) count += 1;
    }
    return count;
  }

  /**
   * The scheduler's purge: items older than the retention period, then the oldest items of each
   * user whose trash holds more than the byte cap. Returns how many went.
   */
  async purge(): Promise<number> {
    const settings = await this.settings();
    let count = 0;
    const cutoff = this.clock() - settings.retentionDays * DAY_MS;
    for (const record of await this.ctx.store.trash.deletedBefore(cutoff)) {
      if (await this.drop(record, 'trash.retention')) count += 1;
    }
    if (settings.maxBytesPerUser > 0) {
      for (const userId of await this.ctx.store.trash.owners()) {
        count += await this.enforceCap(userId, settings.maxBytesPerUser);
      }
    }
    return count;
  }

  /**
   * Purges a user's oldest items until their trash holds at most `cap` bytes. `keep` (the item
   * just deleted) is never purged by its own delete, even when it alone is over the cap.
   */
  private async enforceCap(userId: number, cap: number, keep?: string): Promise<number> {
    const items = (await this.ctx.store.trash.list(userId)).reverse(); // oldest first
    let total = items.reduce((sum, item) => sum + item.size, 0);
    let count = 0;
    for (const item of items) {
      if (total <= cap) break;
      if (item.id === keep) continue;
      if (await this.drop(item, 'trash.cap')) count += 1;
      total -= item.size;
    }
    return count;
  }

  /**
   * Removes a record and its files; false when another request or instance took it first. The
   * item is gone for good: recorded as a `file.delete` of its path, `via` the way it went (a
   * user's delete or empty, or the scheduler's retention and cap, which have no actor).
   */
  private async drop(
    record: TrashRecord,
    via: 'trash.delete' | 'trash.empty' | 'trash.retention' | 'trash.cap',
    by?: TrashActor,
  ): Promise<boolean> {
    if (!(await this.ctx.store.trash.remove(record.id))) return false;
    await this.folder.discard(record.userId, record.id);
    const owner = await this.ctx.store.users.byId(record.userId);
    if (owner) await this.quota?.adjustUser(owner, -record.size);
    this.audit?.record({
      action: 'file.delete',
      outcome: 'ok',
      actor: by?.actor ?? null,
      address: by?.address ?? '',
      target: record.path,
      details: {
        via,
        trashId: record.id,
        owner: owner?.username ?? '',
        isDir: record.isDir,
        size: record.size,
      },
    });
    return true;
  }
}
