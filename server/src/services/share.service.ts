import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { LIMITS, ShareCreateRequest, type Share } from '@cabinet/protocol';
import type { Store } from '../store/store.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { errors } from '../errors.ts';
import {
  canonicalPath,
  isRealInside,
  isVirtualInside,
  virtualOfReal,
} from '../fs/canonical-path.ts';
import { ScopedFs, type Resolved } from '../fs/scoped-fs.ts';
import { hashPassword } from '../credentials/password.ts';
import type { ShareRecord } from '../store/shares.repo.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { canCreate, canShare, isAdmin } from './permissions.ts';
import { systemClock, type Clock } from '../coordination/index.ts';

const UNIT_SECONDS: Record<string, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };

/** Whether a link has expired at `now` (milliseconds). */
export function isExpired(share: ShareRecord, now: number): boolean {
  return share.expire !== 0 && share.expire * 1000 <= now;
}

/**
 * Where a real path is in a user's view: in their own scope, or inside one of their grants (a
 * link a recipient made inside a shared folder follows its item there, docs/teams.md). Null when
 * the view no longer reaches it.
 */
async function viewPathOf(fs: ScopedFs, real: string): Promise<string | null> {
  if (isRealInside(real, fs.scopeReal)) return fs.virtualOf(real);
  for (const mount of await fs.mountList()) {
    const view = await fs.viewOf(mount.path).catch(() => null);
    if (!view || !isRealInside(real, view.scopeReal)) continue;
    try {
      return view.virtualOf(real);
    } catch {
      // Outside the part of the folder this grant shows (a shared file's neighbours).
    }
  }
  return null;
}

/** A share as the API shows it: no password hash, no token (GHSA-833g-cqhp-h72j). */
export function shareJson(share: ShareRecord, username: string): Share {
  return {
    hash: share.hash,
    path: share.path,
    userID: share.userId,
    expire: share.expire,
    hasPassword: share.passwordHash !== '',
    downloadLimit: share.downloadLimit,
    downloads: share.downloads,
    isDir: share.isDir,
    isRequest: share.isRequest,
    username,
  };
}

/** An integer in [0, shareDurationMax] from a string or a number; undefined when malformed. */
function boundedInteger(value: string | number | undefined): number | undefined {
  if (value === undefined || value === '') return 0;
  const text = String(value).trim();
  if (!/^\d+$/.test(text)) return undefined;
  const number = Number(text);
  return number <= LIMITS.shareDurationMax ? number : undefined;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface ShareDeps {
  store: Pick<Store, 'shares' | 'teams' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * Who hears of a share with people that moved with its item or ended with it (TeamsService): its
 * recipients and its owner get the `shared` event, so an open "Shared with me" or Shares screen
 * re-reads (docs/teams.md).
 */
export interface SharedNotices {
  recipientsOf(kind: 'people', id: number): Promise<number[]>;
  notify(userIds: readonly number[]): Promise<void>;
}

/**
 * The owner's side of share links: list, create, delete, and keeping links on
 * their item when it moves or is deleted. The public side is PublicShareService.
 */
export class ShareService {
  constructor(
    private readonly ctx: ShareDeps,
    /** The clock links expire by (tests drive it; see RuntimeOptions.now). */
    private readonly now: Clock = systemClock,
    private readonly notices?: SharedNotices,
  ) {}

  /** Whether a link has expired by this service's clock. */
  hasExpired(share: ShareRecord): boolean {
    return isExpired(share, this.now());
  }

  /** The root-relative real path of a resolved item: what a link is bound to. */
  targetOf(resolved: Resolved): string {
    return virtualOfReal(resolved.real, this.ctx.files.realRoot);
  }

  /** GET /api/shares: all links for admins, the user's own otherwise; expired ones are deleted. */
  async list(user: UserRecord): Promise<Share[]> {
    if (!canShare(user)) throw errors.forbidden();
    const all = isAdmin(user)
      ? await this.ctx.store.shares.all()
      : await this.ctx.store.shares.byUser(user.id);
    return this.present(all);
  }

  /** GET /api/share/{path}: the links of one item (every owner's for admins). */
  async forPath(user: UserRecord, rawPath: string): Promise<Share[]> {
    if (!canShare(user)) throw errors.forbidden();
    const fs = await ScopedFs.forUser(this.ctx, user);
    const item = await fs.stat(rawPath);
    const target = this.targetOf(item);
    const links = (await this.ctx.store.shares.atOrUnderTarget(target)).filter(
      (share) => share.target === target && (isAdmin(user) || share.userId === user.id),
    );
    return this.present(links);
  }

  /** POST /api/share/{path}: a new link to an existing item of the user's scope. */
  async create(user: UserRecord, rawPath: string, body: unknown): Promise<Share> {
    if (!canShare(user)) throw errors.forbidden();
    if (body === undefined || body === null) {
      throw errors.badRequest('the request body is empty; send a JSON document');
    }
    const request = ShareCreateRequest.parse(body);
    const amount = boundedInteger(request.expires);
    if (amount === undefined) {
      throw errors.badRequest(
        `expires must be a whole number from 0 to ${LIMITS.shareDurationMax}`,
      );
    }
    const downloadLimit = boundedInteger(request.downloadLimit);
    if (downloadLimit === undefined) {
      throw errors.badRequest(
        `downloadLimit must be a whole number from 0 to ${LIMITS.shareDurationMax}`,
      );
    }
    const fs = await ScopedFs.forUser(this.ctx, user);
    const item = await fs.stat(rawPath);
    const isRequest = request.request === true;
    // Inside a grant, only with its `share` access (a file request: `create` too); never on
    // "Shared with me" itself. The link is served through the grant's view (docs/teams.md).
    if (fs.isInGrant(item)) {
      const grant = fs.accessAt(item);
      if (!grant?.share) throw errors.forbidden('this shared folder does not allow links');
      if (isRequest && !grant.create)
        throw errors.forbidden('this shared folder does not allow links');
    }
    if (isRequest && !item.stat.isDirectory()) {
      throw errors.badRequest('files can be requested into a folder only');
    }
    // A file request writes into the owner's folder: it needs the create permission too.
    if (isRequest && !canCreate(user)) throw errors.forbidden();
    const seconds = amount * (UNIT_SECONDS[request.unit ?? 'hours'] ?? UNIT_SECONDS.hours!);
    const share: ShareRecord = {
      // 16 URL-safe characters (96 bits): not guessable, unlike the reference's 48 bits.
      hash: randomBytes(12).toString('base64url'),
      path: item.path + (item.trailingSlash ? '/' : ''),
      userId: user.id,
      expire: seconds === 0 ? 0 : Math.floor(this.now() / 1000) + seconds,
      passwordHash: request.password ? await hashPassword(request.password) : '',
      target: this.targetOf(item),
      downloadLimit,
      downloads: 0,
      isDir: item.stat.isDirectory(),
      isRequest,
    };
    await this.ctx.store.shares.insert(share);
    return shareJson(share, user.username);
  }

  /** DELETE /api/share/{hash}: only the owner or an admin (commit 0231b7e). */
  async remove(user: UserRecord, hash: string): Promise<void> {
    if (!canShare(user)) throw errors.forbidden();
    if (!hash) throw errors.badRequest('missing share hash');
    const share = await this.ctx.store.shares.get(hash);
    if (!share) throw errors.notFound();
    if (share.userId !== user.id && !isAdmin(user)) throw errors.forbidden();
    await this.ctx.store.shares.remove([hash]);
  }

  /**
   * After a move through Cabinet: links to the moved item or to anything inside it follow it. A
   * link whose item left its owner's scope is deleted (the owner can no longer reach it).
   */
  async followMove(source: Resolved, destination: Resolved): Promise<void> {
    if (source.isSymlink) return; // Moving a link moves no linked item.
    await this.followTarget(this.targetOf(source), this.targetOf(destination));
  }

  /**
   * followMove by root-relative real paths (the trash restores an item under another name). Shares
   * with people follow first, so that a link made inside one is judged by where it now is.
   */
  async followTarget(from: string, to: string): Promise<void> {
    await this.followPeopleShares(from, to);
    const links = await this.ctx.store.shares.atOrUnderTarget(from);
    const doomed: string[] = [];
    for (const share of links) {
      const owner = await this.ctx.store.users.byId(share.userId);
      const newTarget = to + share.target.slice(from.length);
      const newReal = path.join(this.ctx.files.realRoot, newTarget);
      const ownerFs = owner && (await ScopedFs.forUser(this.ctx, owner));
      const shown = ownerFs && (await viewPathOf(ownerFs, newReal));
      if (!shown) {
        doomed.push(share.hash);
        continue;
      }
      const trailing = share.path.endsWith('/') && share.path !== '/' ? '/' : '';
      await this.ctx.store.shares.relocate(share.hash, shown + trailing, newTarget);
    }
    await this.ctx.store.shares.remove(doomed);
  }

  /** Shares with people follow their item as links do, and end when it leaves its owner's scope. */
  private async followPeopleShares(from: string, to: string): Promise<void> {
    const told: number[] = [];
    for (const share of await this.ctx.store.teams.peopleSharesAtOrUnder(from)) {
      told.push(share.ownerId, ...((await this.notices?.recipientsOf('people', share.id)) ?? []));
      const owner = await this.ctx.store.users.byId(share.ownerId);
      const newTarget = to + share.target.slice(from.length);
      const newReal = path.join(this.ctx.files.realRoot, newTarget);
      const ownerFs =
        owner &&
        (await ScopedFs.open(this.ctx.files, {
          scope: owner.scope,
          rules: [],
          hideDotfiles: false,
        }));
      if (!ownerFs || !isRealInside(newReal, ownerFs.scopeReal) || newReal === ownerFs.scopeReal) {
        await this.ctx.store.teams.removeGrant('people', share.id);
        continue;
      }
      await this.ctx.store.teams.relocatePeopleShare(
        share.id,
        ownerFs.virtualOf(newReal),
        newTarget,
      );
    }
    if (told.length > 0) await this.notices?.notify(told);
  }

  /** A deleted item's shares with people end with it (trashed or not: a restore does not revive them). */
  private async endPeopleShares(removed: Resolved): Promise<void> {
    if (removed.isSymlink) return;
    const told: number[] = [];
    for (const share of await this.ctx.store.teams.peopleSharesAtOrUnder(this.targetOf(removed))) {
      // Asked before the grant goes: its grantees go with it.
      told.push(share.ownerId, ...((await this.notices?.recipientsOf('people', share.id)) ?? []));
      await this.ctx.store.teams.removeGrant('people', share.id);
    }
    if (told.length > 0) await this.notices?.notify(told);
  }

  /**
   * Deletes a user's links to `path` and to everything below it, on folder boundaries: deleting
   * `/docs` removes links to `/docs`, `/docs/` and `/docs/a`, never `/docs-old` (GHSA-pp88-jhwj-5qh5).
   * Compared on canonical paths (case-folded when the file system folds case). Returns the count.
   */
  async forgetOwnLinksAtOrUnder(userId: number, path: string, foldCase = false): Promise<number> {
    const fold = (value: string) => (foldCase ? value.toLowerCase() : value);
    const canonical = (value: string) => {
      try {
        return fold(canonicalPath(value).path);
      } catch {
        return undefined; // A stored path with a NUL byte can never name a real file.
      }
    };
    const target = canonical(path);
    if (target === undefined) return 0;
    const doomed = (await this.ctx.store.shares.byUser(userId))
      .filter((share) => {
        const sharePath = canonical(share.path);
        return sharePath !== undefined && isVirtualInside(sharePath, target);
      })
      .map((share) => share.hash);
    return this.ctx.store.shares.remove(doomed);
  }

  /** After a delete through Cabinet: links to the item or into it die, whoever owned them. */
  async forgetRemoved(removed: Resolved): Promise<void> {
    if (removed.isSymlink) return;
    const links = await this.ctx.store.shares.atOrUnderTarget(this.targetOf(removed));
    await this.ctx.store.shares.remove(links.map((share) => share.hash));
    await this.endPeopleShares(removed);
  }

  /**
   * Takes down the links a delete would remove (see forgetOwnLinksAtOrUnder and forgetRemoved) and
   * returns them, so that the trash can put them back when the item is restored (docs/trash.md).
   */
  async suspendFor(userId: number, removed: Resolved, foldCase: boolean): Promise<ShareRecord[]> {
    const fold = (value: string) => (foldCase ? value.toLowerCase() : value);
    const at = fold(removed.path);
    const links = new Map<string, ShareRecord>();
    for (const share of await this.ctx.store.shares.byUser(userId)) {
      let sharePath: string;
      try {
        sharePath = fold(canonicalPath(share.path).path);
      } catch {
        continue;
      }
      if (isVirtualInside(sharePath, at)) links.set(share.hash, share);
    }
    if (!removed.isSymlink) {
      for (const share of await this.ctx.store.shares.atOrUnderTarget(this.targetOf(removed))) {
        links.set(share.hash, share);
      }
    }
    await this.ctx.store.shares.remove([...links.keys()]);
    await this.endPeopleShares(removed);
    return [...links.values()];
  }

  /** Puts suspended links back (a hash taken meanwhile is skipped). */
  async resume(links: readonly ShareRecord[]): Promise<void> {
    for (const share of links) {
      if (await this.ctx.store.shares.get(share.hash)) continue;
      await this.ctx.store.shares.insert(share);
    }
  }

  /** Drops expired links and shapes the rest with their owners' names. */
  private async present(links: ShareRecord[]): Promise<Share[]> {
    const now = this.now();
    const expired = links.filter((share) => isExpired(share, now));
    await this.ctx.store.shares.remove(expired.map((share) => share.hash));
    const names = new Map<number, string>();
    const shown: Share[] = [];
    for (const share of links) {
      if (isExpired(share, now)) continue;
      if (!names.has(share.userId)) {
        names.set(share.userId, (await this.ctx.store.users.byId(share.userId))?.username ?? '');
      }
      shown.push(shareJson(share, names.get(share.userId)!));
    }
    return shown;
  }
}
