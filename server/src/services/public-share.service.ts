import type { FastifyBaseLogger } from 'fastify';
import type { PublicUploadReply, RawDownloadQuery, Resource } from '@cabinet/protocol';
import type { Store } from '../store/store.ts';
import type { SettingsRepo } from '../store/settings.repo.ts';
import type { FileRoot } from '../fs/file-root.ts';
import { errors } from '../errors.ts';
import type { Readable } from 'node:stream';
import { archiveSelection } from '../archive/archive-selection.ts';
import { canonicalPath, virtualBaseName } from '../fs/canonical-path.ts';
import { detectType, SNIFF_BYTES } from '../file-kinds/file-type.ts';
import { ScopedFs, type Resolved, type Stats } from '../fs/scoped-fs.ts';
import { verifyPassword } from '../credentials/password.ts';
import type { ShareRecord } from '../store/shares.repo.ts';
import type { UserRecord } from '../store/users.repo.ts';
import type { AttemptCounter } from '../coordination/index.ts';
import { fileDownload, type RawDownload } from './raw.service.ts';
import { fileInfo } from './resources/file-info.ts';
import { readListing, type Listing } from './resources/listing.ts';
import type { ListingCache } from '../tree/listing/listing-cache.ts';
import type { InstanceChanges } from '../tree/change-relay.ts';
import { EntryBudget } from './resources/listing-memory.ts';
import { freeName } from './resources/free-name.ts';
import type { ShareService } from './share.service.ts';
import { isValidDownloadToken, issueDownloadToken } from './share/download-token.ts';
import { issueVisitTicket, readVisitTicket, type VisitTicket } from './share/visit-ticket.ts';
import { canCreate, canShare } from './permissions.ts';
import type { QuotaService } from './quota/quota.service.ts';
import { systemClock, type Clock } from '../coordination/index.ts';

/** What a visitor presents: the password header, a download token, and where they come from. */
export interface ShareCredentials {
  /** X-SHARE-PASSWORD as sent (the reference client URL-encodes it). */
  password?: string;
  /** `?token=` (or `?auth=`) of a download URL. */
  token?: string;
  /** `?visit=`: the page visit's ticket (docs/sharing.md). */
  visit?: string;
  address: string;
}

/** A live link, checked and opened: the owner's item and a view to read it through. */
interface OpenShare {
  share: ShareRecord;
  owner: UserRecord;
  /** Set for password links: the token the page builds download URLs with. */
  token?: string;
  /** The shared item's base name. */
  name: string;
  /** The visit ticket the request carried, when it is valid for this link. */
  visit?: VisitTicket;
  /**
   * Folder links: a view re-rooted at the folder, with the owner's rules applied on the owner's
   * own paths. File links: the owner's view (the item is `item`).
   */
  fs: ScopedFs;
  item: Resolved & { stat: Stats };
}

/** Wrong passwords allowed per link and address within the window. */
export const SHARE_PASSWORD_LIMIT = { max: 10, windowMs: 15 * 60 * 1000 };

/** Public share order. */
const PUBLIC_SORTING = { by: 'name', asc: false };

/** Splits `{hash}/{sub/path}` (the wildcard after /api/public/share/ or /dl/). */
export function splitShareUrl(wildcard: string): { hash: string; sub: string } {
  const trimmed = wildcard.replace(/^\/+/, '');
  const slash = trimmed.indexOf('/');
  return slash < 0
    ? { hash: trimmed, sub: '/' }
    : { hash: trimmed.slice(0, slash), sub: trimmed.slice(slash) };
}

function decodedPassword(header: string): string {
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface PublicShareDeps {
  store: Pick<Store, 'shares' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
  signingKey: Uint8Array;
}

/**
 * The visitor's side of share links: no account, only the link. Every
 * request checks the link again (expiry, download limit, password, the owner's permissions, rules
 * and scope), so a link dies as soon as any of them says no.
 */
export class PublicShareService {
  private readonly listingBudget = new EntryBudget(100_000, 1_000);

  /**
   * `passwordAttempts` counts wrong link passwords (SHARE_PASSWORD_LIMIT), on every instance.
   * `quota`: a file request's uploads count against its owner's quota (docs/quotas.md).
   */
  constructor(
    private readonly ctx: PublicShareDeps,
    private readonly shares: ShareService,
    private readonly passwordAttempts: AttemptCounter,
    private readonly quota: QuotaService,
    private readonly listingCache?: ListingCache,
    /** Other instances' changes, applied before a listing (tree/change-relay.ts). */
    private readonly instances?: InstanceChanges,
    private readonly now: Clock = systemClock,
  ) {}

  /** GET /api/public/share: the item's metadata, or the folder's listing. */
  async info(
    wildcard: string,
    credentials: ShareCredentials,
  ): Promise<{ kind: 'json'; body: Resource } | { kind: 'listing'; listing: Listing }> {
    const { hash, sub } = splitShareUrl(wildcard);
    const open = await this.open(hash, credentials);
    // A visit keeps its ticket while it walks a folder link; a fresh visit gets a fresh one.
    const visit =
      open.visit && credentials.visit
        ? credentials.visit
        : issueVisitTicket(this.ctx.signingKey, hash, this.now());
    const extra = open.token ? { token: open.token, visit } : { visit };
    if (open.share.isRequest) {
      // A file request shows its folder's name and nothing of what is in it.
      if (canonicalPath(sub).path !== '/') throw errors.forbidden();
      const folder = fileInfo({ ...open.item, path: '/', name: open.name, type: '' });
      return { kind: 'json', body: { ...folder, request: true, ...extra } };
    }
    if (!open.item.stat.isDirectory()) {
      const head = await open.fs.readHead(open.item, SNIFF_BYTES);
      const body = fileInfo({
        path: '',
        name: open.name,
        stat: open.item.stat,
        isSymlink: open.item.isSymlink,
        type: detectType(open.name, open.item.stat, head),
      });
      return { kind: 'json', body: { ...body, ...extra } };
    }
    const dir = await open.fs.stat(sub);
    if (!dir.stat.isDirectory()) {
      const head = await open.fs.readHead(dir, SNIFF_BYTES);
      const body = fileInfo({
        path: dir.path,
        name: dir.name,
        stat: dir.stat,
        isSymlink: dir.isSymlink,
        type: detectType(dir.name, dir.stat, head),
      });
      return { kind: 'json', body: { ...body, ...extra } };
    }
    const shown = dir.path + (dir.trailingSlash ? '/' : '');
    // A link shows what another instance changed before now, deleted files included.
    await this.instances?.synced();
    const listing = await readListing(
      open.fs,
      dir,
      shown,
      PUBLIC_SORTING,
      this.listingBudget,
      this.listingCache,
    );
    // The folder is named after the shared folder even below it (the reference client shows it).
    return {
      kind: 'listing',
      listing: { ...listing, folder: { ...listing.folder, name: open.name, ...extra } },
    };
  }

  /**
   * GET /api/public/dl: a file (ranges allowed) or an archive of the folder or a selection. With a
   * visit ticket, the visit's first request counts one download and its later ones nothing (the
   * page's preview, a PDF viewer's range requests and the Download button are one copy). Without
   * one, a request that starts at the first byte counts as one download against the link's limit.
   */
  async download(
    wildcard: string,
    credentials: ShareCredentials,
    query: RawDownloadQuery,
    range: string | undefined,
    signal: AbortSignal,
    log: FastifyBaseLogger,
  ): Promise<Exclude<RawDownload, { kind: 'accepted' }>> {
    const { hash, sub } = splitShareUrl(wildcard);
    const open = await this.open(hash, credentials);
    if (open.share.isRequest) throw errors.forbidden(); // Upload only.
    const isFileLink = !open.item.stat.isDirectory();
    const target = isFileLink ? open.item : await open.fs.stat(sub);
    if (open.visit) {
      const { id, expiresAt } = open.visit;
      const taken = await this.ctx.store.shares.takeVisitDownload(hash, id, expiresAt, this.now());
      if (taken === 'used-up') throw errors.gone();
    } else {
      const continuing = range !== undefined && !/^bytes=0-/.test(range.trim());
      if (!continuing && !(await this.ctx.store.shares.takeDownload(hash))) throw errors.gone();
    }
    if (!target.stat.isDirectory()) {
      const named = isFileLink ? { ...target, name: open.name } : target;
      return { kind: 'file', file: await fileDownload(open.fs, named, query.inline) };
    }
    const archive = await archiveSelection(open.fs, target, {
      algo: query.algo,
      files: query.files,
      signal,
      log,
    });
    return { kind: 'archive', ...archive };
  }

  /**
   * POST /api/public/upload/{hash}/{name}: a visitor's file into a file request's folder. Never
   * overwrites: a taken name (or one the visitor may not see) gets the first free `name(N).ext`.
   * Each upload counts against the link's limit. Returns the name the file was saved under.
   */
  async upload(
    wildcard: string,
    credentials: ShareCredentials,
    body: Readable,
    declaredLength?: number,
  ): Promise<PublicUploadReply> {
    const { hash, sub } = splitShareUrl(wildcard);
    const wanted = canonicalPath(sub);
    if (wanted.segments.length !== 1 || wanted.trailingSlash) {
      throw errors.badRequest(
        'send one file, named after the link: /api/public/upload/{hash}/{name}',
      );
    }
    const open = await this.open(hash, credentials);
    if (!open.share.isRequest) throw errors.forbidden();
    if (!canCreate(open.owner)) throw errors.forbidden();
    // The owner's quota, judged on the owner's whole scope (the link's view is only the folder):
    // a Content-Length that does not fit is refused before the link's count is taken, a body
    // without one as soon as it passes the room left (the atomic write then leaves nothing).
    // Other users whose scope holds the folder (an outer team folder) are held to theirs too.
    let target = await open.fs.resolve(wanted.path);
    if (target.stat || target.isSymlink) {
      target = await open.fs.resolve(await freeName(open.fs, target.path));
    }
    const ownerFs = await ScopedFs.forUser(this.ctx, open.owner);
    const limited = await this.quota.limitBody(
      open.owner,
      ownerFs,
      body,
      0,
      declaredLength,
      target.real,
    );
    if (!(await this.ctx.store.shares.takeDownload(hash))) throw errors.gone();
    // override: false, so a name taken meanwhile by another upload answers 409, never replaced.
    const { resolved, stat } = await open.fs.writeFile(target, limited, { override: false });
    await this.quota.recordChange(resolved.real, stat.size);
    return { name: resolved.name };
  }

  /** Checks a link from the top and opens its item (404 / 401 / 403 / 429 otherwise). */
  private async open(hash: string, credentials: ShareCredentials): Promise<OpenShare> {
    if (!hash) throw errors.notFound();
    const share = await this.ctx.store.shares.get(hash);
    if (!share) throw errors.notFound();
    if (this.shares.hasExpired(share)) {
      await this.ctx.store.shares.remove([hash]);
      throw errors.notFound();
    }
    const ticket = credentials.visit;
    const visit = ticket
      ? readVisitTicket(this.ctx.signingKey, hash, ticket, this.now())
      : undefined;
    if (share.downloadLimit > 0 && share.downloads >= share.downloadLimit) {
      // Used up (410, said so on the page) — except for a visit that already had its copy counted:
      // it may finish fetching what it shows.
      if (!visit || !(await this.ctx.store.shares.visitCounted(hash, visit.id))) {
        throw errors.gone();
      }
    }
    const token = share.passwordHash ? await this.checkPassword(share, credentials) : undefined;
    const owner = await this.ctx.store.users.byId(share.userId);
    if (!owner) throw errors.notFound();
    // A link lives only as long as its owner may share and download (advisory: links outliving
    // permissions).
    if (!canShare(owner)) throw errors.forbidden();
    return { share, owner, token, visit, ...(await this.openItem(share, owner)) };
  }

  /**
   * Resolves the shared item through the owner's own view (scope, rules, hideDotfiles) and checks
   * it is still the item the link was made for: a path that now leads elsewhere (a swapped link,
   * a folder moved outside Cabinet) answers 404.
   */
  private async openItem(
    share: ShareRecord,
    owner: UserRecord,
  ): Promise<Pick<OpenShare, 'name' | 'fs' | 'item'>> {
    const ownerFs = await ScopedFs.forUser(this.ctx, owner);
    const item = await ownerFs.stat(share.path);
    if (share.target && this.shares.targetOf(item) !== share.target) throw errors.notFound();
    const name = virtualBaseName(canonicalPath(share.path).path) || virtualBaseName(share.target);
    // A link made inside a grant lives while its maker holds the grant with `share` (a file
    // request: `create` too), and is served through the grant's view: confined to it, judged by
    // the folder owner's rules and the maker's (docs/teams.md).
    const grant = ownerFs.accessAt(item);
    if (ownerFs.isInGrant(item)) {
      if (!grant?.share || (share.isRequest && !grant.create)) throw errors.notFound();
      if (!item.stat.isDirectory()) return { name, fs: ownerFs, item };
      const fs = await ownerFs.rootedAt(item);
      return { name, fs, item: await fs.stat('/') };
    }
    if (!item.stat.isDirectory()) return { name, fs: ownerFs, item };
    const settings = await this.ctx.settings.get();
    // Re-rooted at the folder itself, never its parent (GHSA-mr74-928f-rw69); the owner's rules
    // still judge the owner's paths (GHSA-j9jx-hp4c-ghhh).
    const fs = await ScopedFs.open(this.ctx.files, {
      scope: this.shares.targetOf(item),
      rules: [...settings.rules, ...owner.rules],
      hideDotfiles: owner.hideDotfiles,
      rulePrefix: ownerFs.virtualOf(item.real),
    });
    return { name, fs, item: await fs.stat('/') };
  }

  /**
   * A password link opens with a valid download token or the right password; wrong guesses are
   * limited per link and address. Returns a fresh download token for the page.
   */
  private async checkPassword(share: ShareRecord, credentials: ShareCredentials): Promise<string> {
    const key = this.ctx.signingKey;
    if (
      credentials.token &&
      isValidDownloadToken(key, share.hash, share.passwordHash, credentials.token, this.now())
    ) {
      return credentials.token; // Not renewed: a token lasts DOWNLOAD_TOKEN_SECONDS, no more.
    }
    if (!credentials.password) throw errors.unauthorized();
    const limitKey = `${share.hash}\n${credentials.address}`;
    if ((await this.passwordAttempts.retryAfter(limitKey)) > 0) throw errors.tooManyRequests();
    if (!(await verifyPassword(share.passwordHash, decodedPassword(credentials.password)))) {
      await this.passwordAttempts.hit(limitKey);
      throw errors.unauthorized();
    }
    return issueDownloadToken(key, share.hash, share.passwordHash, this.now());
  }
}
