import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Rule } from '@cabinet/protocol';
import { AppError, errors } from '../errors.ts';
import { join } from 'node:path';
import { canonicalPath, isRealInside, joinVirtual, virtualOfReal } from './canonical-path.ts';
import type { AtomicWrite, WriteSource } from './atomic-write.ts';
import { diskUsage } from './disk-usage.ts';
import { treeBytes, treeSize, type TreeSize } from './tree-bytes.ts';
import type { TypedNames } from './typed-names.ts';
import type { CopyControl } from './copy-run.ts';
import type { FileRoot } from './file-root.ts';
import type { FolderChildren, ListEntry } from '../tree/read/folder-children.ts';
import {
  DENIED_BY_RULES,
  ScopeResolver,
  type JudgedFolder,
  type Resolved,
  type ScopedFsOptions,
} from './scope-resolver.ts';
import { ScopedListing, type Entry, type ListOptions, type WalkOptions } from './scoped-listing.ts';
import { ScopedReads } from './scoped-reads.ts';
import { ScopedUploads, type UploadPlace } from './scoped-uploads.ts';
import { ScopedWrites, type WriteOptions } from './scoped-writes.ts';
import { ScopedTrash } from './scoped-trash.ts';
import type { Grants, GrantSource, MountSpec, PlacedMount } from './mounts.ts';
import { ViewMounts, type Route, type RulesMemo } from './view-mounts.ts';
import { folderStamp, type FolderStamp } from '../tree/read/folder-stamp.ts';
import type { GrantAccess } from '@cabinet/protocol';
import { MountedParts, type KnownTops, type MountOpener } from './mounted-parts.ts';

/** File stats as ScopedFs returns them (services may not import node:fs). */
export type { Stats } from 'node:fs';
export type { EntryStat } from './entry-stat.ts';
export { EntryKind, type NamePattern, type TypedNames } from './typed-names.ts';
export type { FolderChildren, ListEntry } from '../tree/read/folder-children.ts';
export type { KnownHolder, KnownTops } from './mounted-parts.ts';
export type { Resolved, ScopedFsOptions } from './scope-resolver.ts';
export type { Entry, ListOptions, WalkOptions } from './scoped-listing.ts';
export type { WriteOptions } from './scoped-writes.ts';
export type { UploadPlace } from './scoped-uploads.ts';

/**
 * The only code that touches user files. A ScopedFs is one user's view of the tree: every virtual
 * path is canonicalised, checked against global then user rules (and hideDotfiles), and resolved to
 * a real path whose every symlink hop stays inside the user's scope. This class is the face the
 * services use; each job lives in its own part (see docs/scoped-fs.md): resolution and rules
 * (scope-resolver.ts, the security boundary), listing and walking, reads, writes and transfers,
 * disk usage.
 */
export class ScopedFs {
  private readonly listing: ScopedListing;
  private readonly reads: ScopedReads;
  private readonly writes: ScopedWrites;
  /** Resumable uploads: staging files beside their targets, appended to and renamed into place. */
  readonly uploads: ScopedUploads;
  /** Moves into the trash and back out of it (docs/trash.md). */
  readonly trash: ScopedTrash;
  /** The grants this view mounts and their opened views (docs/teams.md), or null. */
  private readonly mounted: MountedParts | null;
  /**
   * The stamp of the scope folder (`scopeReal`) taken as this view was built, when it was (a view
   * with grants places them by it): the first listing of the scope in the same request may use it
   * as its own, taken before anything of the folder was read (services/resources/listing.ts).
   */
  readonly builtStamp: FolderStamp | null;

  private constructor(
    private readonly scope: ScopeResolver,
    mounts: {
      table: ViewMounts;
      open: MountOpener;
      showsTop: (mount: PlacedMount) => boolean;
      memo: RulesMemo;
      stamp: FolderStamp | null;
    } | null = null,
  ) {
    this.builtStamp = mounts?.stamp ?? null;
    this.listing = new ScopedListing(scope);
    this.reads = new ScopedReads(scope);
    this.writes = new ScopedWrites(scope, this.listing);
    this.mounted =
      mounts && new MountedParts(this, mounts.table, mounts.open, mounts.showsTop, mounts.memo);
    this.uploads = this.mounted
      ? this.mounted.uploads(new ScopedUploads(scope))
      : new ScopedUploads(scope);
    this.trash = this.mounted
      ? this.mounted.trash(new ScopedTrash(scope, this.listing))
      : new ScopedTrash(scope, this.listing);
  }

  /**
   * One user's view: scope under the root, global rules then the user's, the user's hideDotfiles.
   * `settings` is anything with `get()` returning the global settings (the SettingsRepo).
   */
  static async forUser(
    ctx: {
      files: FileRoot;
      settings: { get(): Promise<{ rules: Rule[] }> };
      grants?: GrantSource;
    },
    user: {
      id?: number;
      scope: string;
      rules: readonly Rule[];
      hideDotfiles: boolean;
      rulePrefix?: string;
    },
  ): Promise<ScopedFs> {
    const settings = await ctx.settings.get();
    const options: ScopedFsOptions = {
      scope: user.scope,
      rules: [...settings.rules, ...user.rules],
      hideDotfiles: user.hideDotfiles,
      // A folder-limited app password re-roots the view; the rules still judge account paths.
      ...(user.rulePrefix !== undefined && { rulePrefix: user.rulePrefix }),
    };
    // Grants are checked against the store's generation at each view, so a revocation holds
    // from the next request on (docs/teams.md). A folder-limited app password sees its folder
    // only, never the grants.
    const grants =
      ctx.grants && user.id !== undefined && user.rulePrefix === undefined
        ? await ctx.grants.grantsFor({ id: user.id }, settings.rules)
        : null;
    if (!grants || grants.specs.length === 0) return ScopedFs.open(ctx.files, options);
    return ScopedFs.withMounts(ctx.files, options, grants);
  }

  /** A user's view with grants mounted on top of their scope (docs/teams.md). */
  static async withMounts(
    root: FileRoot,
    options: ScopedFsOptions,
    grants: Grants | readonly MountSpec[],
  ): Promise<ScopedFs> {
    // The scope folder's stamp, which the placement is checked against, is taken beside its
    // realpath (one trip to the thread pool less); it counts only if the scope is where it seems.
    const lexical = ScopeResolver.lexicalOf(root, options.scope);
    const [own, stamp] = await Promise.all([
      ScopeResolver.open(root, options),
      folderStamp(lexical),
    ]);
    const scopeStamp = own.scopeReal === lexical ? stamp : undefined;
    const table = await ViewMounts.placed(
      own.scopeReal,
      'specs' in grants ? grants : { specs: grants },
      root.caseInsensitive,
      scopeStamp,
    );
    const scope = own.withReserved(table.reserved());
    const open = (mount: PlacedMount) => ScopedFs.openMount(root, options, mount);
    // Whether the rules let the user see a grant's top, as a `stat` of it judges: no disk (the
    // resolver's real place is never read by isAllowed). Kept with the placement for these rules.
    const memo = table.forRules(JSON.stringify([options.rules, options.hideDotfiles]));
    const showsTop = (mount: PlacedMount) => {
      let shown = memo.shown.get(mount);
      if (shown === undefined) {
        const judge = ScopeResolver.at(root, '', ScopedFs.mountOptions(options, mount, undefined));
        shown = judge.isAllowed(mount.path);
        memo.shown.set(mount, shown);
      }
      return shown;
    };
    return new ScopedFs(scope, { table, open, showsTop, memo, stamp: scopeStamp ?? null });
  }

  /**
   * A grant's own view: its folder as a scope, speaking the user's view paths. A share with
   * people is entered only while its item lies inside its owner's scope (404 otherwise), and the
   * owner's rules judge it on the owner's paths: both need the owner's scope, opened here, when
   * a request enters the share, not for every view (docs/teams.md).
   */
  private static async openMount(
    root: FileRoot,
    options: ScopedFsOptions,
    mount: PlacedMount,
  ): Promise<ScopedFs> {
    const { spec } = mount;
    let rulePrefix = spec.rulePrefix;
    if (spec.ownerScope !== undefined) {
      const owner = await ScopeResolver.open(root, {
        scope: spec.ownerScope,
        rules: [],
        hideDotfiles: false,
      });
      const folder = join(root.realRoot, spec.scope);
      const item = spec.file ? join(folder, spec.file) : folder;
      if (!isRealInside(item, owner.scopeReal) || item === owner.scopeReal) {
        throw errors.notFound();
      }
      rulePrefix = virtualOfReal(folder, owner.scopeReal);
    }
    return ScopedFs.open(root, ScopedFs.mountOptions(options, mount, rulePrefix));
  }

  /** A grant's view options: its folder, the owner's rules, the user's on the view's paths. */
  private static mountOptions(
    options: ScopedFsOptions,
    mount: PlacedMount,
    rulePrefix: string | undefined,
  ): ScopedFsOptions {
    const { spec } = mount;
    return {
      scope: spec.scope,
      rules: spec.rules,
      hideDotfiles: spec.hideDotfiles,
      ...(rulePrefix !== undefined && { rulePrefix }),
      view: { outer: mount.path, inner: spec.file ? `/${spec.file}` : '/' },
      viewRules: { rules: options.rules, hideDotfiles: options.hideDotfiles },
    };
  }

  /** Where a folder of the root is if it is reached through no symlink. */
  static lexicalPath(root: FileRoot, scope: string): string {
    return ScopeResolver.lexicalOf(root, scope);
  }

  /** The real path of a folder of the root when it is reached through no symlink, else null. */
  static directPath(root: FileRoot, scope: string): Promise<string | null> {
    return ScopeResolver.directPath(root, scope);
  }

  /** A view with explicit options (shares re-root at a sub-folder with a rule prefix). */
  static async open(root: FileRoot, options: ScopedFsOptions): Promise<ScopedFs> {
    return new ScopedFs(await ScopeResolver.open(root, options));
  }

  /**
   * This view re-rooted at one of its folders, judged as this view judges it (a public link to a
   * folder inside a grant is served through the grant's view, docs/teams.md).
   */
  async rootedAt(folder: Resolved): Promise<ScopedFs> {
    const other = await this.other(folder);
    if (other === 'shared') throw errors.forbidden();
    if (other) return other.rootedAt(folder);
    return ScopedFs.open(this.root, this.scope.optionsAt(folder));
  }

  /** The grant a path lies in (or is), or null for the user's own files (docs/teams.md). */
  mountOf(virtual: string | Resolved): PlacedMount | null {
    if (!this.mounted) return null;
    const route = this.mounted.route(virtual);
    return route.kind === 'mount' ? route.mount : null;
  }

  /** Whether a path is one of the virtual folders (a grant's top, "Shared with me") or inside one. */
  isInGrant(virtual: string | Resolved): boolean {
    return this.mounted !== null && this.mounted.route(virtual).kind !== 'own';
  }

  /**
   * The owner's path of a grant's folder: a team folder's root path, a people share's path in its
   * owner's scope (known once the share is entered: its view is opened here), or null when the
   * owner's scope no longer holds it.
   */
  async grantOwnerPath(mount: PlacedMount): Promise<string | null> {
    if (mount.spec.kind === 'team') return canonicalPath(mount.spec.scope).path;
    if (!this.mounted) return null;
    const view = await this.mounted.mountFs(mount).catch(() => null);
    const prefix = view?.scope.rulePrefix;
    return prefix === undefined ? null : canonicalPath(prefix).path;
  }

  /** Every grant placed in this view, team folders first. */
  mountList(): Promise<PlacedMount[]> {
    return Promise.resolve(this.mounted?.table.all ?? []);
  }

  /** The view a grant path is served by (its own ScopedFs), or null for the user's own files. */
  viewOf(virtual: string | Resolved): Promise<ScopedFs | null> {
    return this.mounted ? this.mounted.viewOf(virtual) : Promise.resolve(null);
  }

  /** What a grant allows at a path (null: the user's own files, their permissions alone). */
  accessAt(virtual: string | Resolved): GrantAccess | null {
    return this.mountOf(virtual)?.spec.access ?? null;
  }

  /**
   * The room of a team folder with a quota of its own that holds the real path `real` (bytes
   * landing there), or null (docs/teams.md). Its usage is counted by walking the folder.
   */
  async grantRoom(real: string): Promise<{ quota: number; used: number } | null> {
    if (!this.mounted) return null;
    for (const mount of this.mounted.table.team) {
      if (mount.spec.quota <= 0) continue;
      const view = await this.mounted.mountFs(mount);
      if (!isRealInside(real, view.scopeReal)) continue;
      return { quota: mount.spec.quota, used: await view.bytesUnder(mount.path) };
    }
    return null;
  }

  /** The route of a path (MountedParts). */
  route(virtual: string | Resolved): Route {
    return this.mounted ? this.mounted.route(virtual) : { kind: 'own' };
  }

  /** Removes an abandoned upload's staging file on no user's behalf (the expiry sweeper). */
  static discardUpload(root: FileRoot, place: UploadPlace): Promise<boolean> {
    return ScopedUploads.discard(root, place);
  }

  /** The tree this view belongs to. */
  get root(): FileRoot {
    return this.scope.root;
  }

  /** Real path of the user's scope folder (may not exist yet). */
  get scopeReal(): string {
    return this.scope.scopeReal;
  }

  /** True when the file system of the root folds case (rules then fold too). */
  get caseInsensitive(): boolean {
    return this.scope.root.caseInsensitive;
  }

  /** True when any global or user rule exists. */
  get hasRules(): boolean {
    return this.scope.hasRules;
  }

  /** Whether rules (and hideDotfiles) allow a virtual path; never touches the disk. */
  isAllowed(virtual: string, options: { rulesOnly?: boolean } = {}): boolean {
    const other = this.syncOther(virtual);
    if (other !== null)
      return typeof other === 'boolean' ? other : other.isAllowed(virtual, options);
    return this.scope.isAllowed(virtual, options);
  }

  /**
   * For checks that cannot wait (docs/teams.md): the grant view of a path when it is opened
   * already, `true` for "Shared with me" itself, `false` for anything else of the grants, null
   * for the user's own files.
   */
  private syncOther(virtual: string | Resolved): ScopedFs | boolean | null {
    if (!this.mounted) return null;
    const route = this.mounted.route(virtual);
    if (route.kind === 'own') return null;
    if (route.kind === 'shared-root') return true;
    if (route.kind === 'shared-missing') return false;
    return this.mounted.readyFs(route.mount) ?? false;
  }

  /** The grant view serving a path, 'shared' for "Shared with me" itself, null for own files. */
  private async other(virtual: string | Resolved): Promise<ScopedFs | 'shared' | null> {
    if (!this.mounted) return null;
    if (this.mounted.route(virtual).kind === 'shared-root') return 'shared';
    return this.mounted.viewOf(virtual);
  }

  private async sharedRoot(virtual: string | Resolved): Promise<Resolved & { stat: Stats }> {
    const route = this.mounted!.route(virtual);
    const trailing =
      typeof virtual === 'string' ? canonicalPath(virtual).trailingSlash : virtual.trailingSlash;
    return this.mounted!.sharedRootResolved(
      route.kind === 'shared-root' ? route.path : '/',
      trailing,
    );
  }

  /**
   * isAllowed for a path built from a canonical folder and a name read from disk (the search index),
   * judged exactly as walks and listings judge their children: no re-parsing of the name.
   */
  isEntryAllowed(canonical: string): boolean {
    const other = this.syncOther(canonical);
    if (other !== null) return typeof other === 'boolean' ? other : other.isEntryAllowed(canonical);
    return this.scope.isCanonicalAllowed(canonical);
  }

  /**
   * Whether rules or hideDotfiles deny a virtual path as spelled or where it really is (through an
   * alias: a symlink back into the scope), resolving it. Other refusals (a link out of the scope,
   * a missing folder) are not a rule's verdict and answer false: the operation reports them.
   */
  async isDenied(virtual: string): Promise<boolean> {
    const other = await this.other(virtual).catch(() => false as const);
    if (other === false) return false;
    if (other === 'shared') return false;
    if (other) return other.isDenied(virtual);
    if (!this.scope.isAllowed(virtual)) return true;
    try {
      await this.scope.resolve(virtual);
      return false;
    } catch (error) {
      return error instanceof AppError && error.reason === DENIED_BY_RULES;
    }
  }

  /**
   * isDenied for a real place already judged by its name (changed paths): only a symlink's target
   * is left to judge, so with no rule and no hidden dotfiles nothing is resolved.
   */
  async isTargetDenied(virtual: string): Promise<boolean> {
    return this.scope.judgesPaths && this.isDenied(virtual);
  }

  /** Throws 403 unless rules and hideDotfiles allow a virtual path. */
  checkAllowed(virtual: string): void {
    if (!this.isAllowed(virtual)) throw errors.forbidden();
  }

  /** See ScopeResolver.resolve: the one way from a user path to a real one. */
  async resolve(virtual: string | Resolved): Promise<Resolved> {
    const other = await this.other(virtual);
    if (other === 'shared') return this.sharedRoot(virtual);
    if (other) return other.resolve(virtual);
    return this.scope.resolve(virtual);
  }

  /** Resolves a path that must exist (404 otherwise). */
  async stat(virtual: string | Resolved): Promise<Resolved & { stat: Stats }> {
    const other = await this.other(virtual);
    if (other === 'shared') return this.sharedRoot(virtual);
    if (other) return other.stat(virtual);
    return this.scope.stat(virtual);
  }

  /** Virtual path of a real path inside this scope (for entries found by walking). */
  virtualOf(real: string): string {
    return this.scope.virtualOf(real);
  }

  /** Whether rules alone allow a canonical virtual path (descendant checks). */
  rulesAllow(virtual: string): boolean {
    const other = this.syncOther(virtual);
    if (other !== null) return typeof other === 'boolean' ? other : other.rulesAllow(virtual);
    return this.scope.rulesAllow(virtual);
  }

  /** See ScopedListing.list. */
  async list(
    virtual: string | Resolved,
    options?: ListOptions,
  ): Promise<{ dir: Resolved & { stat: Stats }; entries: ListEntry[] }> {
    const other = await this.other(virtual);
    if (other === 'shared') {
      return { dir: await this.sharedRoot(virtual), entries: await this.mounted!.sharedEntries() };
    }
    if (other) return other.list(virtual, options);
    const listed = await this.listing.list(virtual, options);
    if (!this.mounted || listed.dir.path !== '/') return listed;
    // The grants show at the top of the user's own content (docs/teams.md).
    const entries = [...listed.entries, ...(await this.mounted.rootEntries())];
    if (options?.sorted ?? true)
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { dir: listed.dir, entries };
  }

  /**
   * The entries a listing of the top adds for the grants (the resources listing appends them; not
   * to be changed: the top's are kept with the placement). `known`: team folders' tops a cache
   * knows (see KnownTops), read from the disk otherwise.
   */
  async grantEntries(virtual: string | Resolved, known?: KnownTops): Promise<readonly ListEntry[]> {
    if (!this.mounted) return [];
    const route = this.mounted.route(virtual);
    if (route.kind === 'shared-root') return this.mounted.sharedEntries();
    const path = typeof virtual === 'string' ? canonicalPath(virtual).path : virtual.path;
    return route.kind === 'own' && path === '/' ? this.mounted.rootEntries(known) : [];
  }

  /** See ScopedListing.listChildren. */
  async listChildren(
    virtual: string | Resolved,
    options?: ListOptions,
  ): Promise<{ dir: Resolved & { stat: Stats }; children: FolderChildren }> {
    const other = await this.other(virtual);
    if (other === 'shared') {
      // Its grants are added by grantEntries; its real place is an empty folder.
      const dir = await this.sharedRoot(virtual);
      return { dir, children: await this.listing.statVisible(dir, [], options) };
    }
    if (other) return other.listChildren(virtual, options);
    return this.listing.listChildren(virtual, options);
  }

  /** See ScopedListing.readAllChildren (shared caches only: filter with `isChildAllowed`). */
  async readAllChildren(
    dir: Resolved & { stat: Stats },
    options?: ListOptions & { maxCount?: number },
  ): Promise<FolderChildren | null> {
    const other = await this.other(dir);
    if (other && other !== 'shared') return other.readAllChildren(dir, options);
    return this.listing.readAllChildren(dir, options);
  }

  /** See ScopedListing.readVisibleNames. */
  async readVisibleNames(
    dir: Resolved & { stat: Stats },
    known?: TypedNames | null,
  ): Promise<TypedNames> {
    const other = await this.other(dir);
    if (other && other !== 'shared') return other.readVisibleNames(dir, known);
    return this.listing.readVisibleNames(dir, other === 'shared' ? null : known);
  }

  /** See ScopedListing.statVisible. */
  async statVisible(
    dir: Resolved & { stat: Stats },
    names: string[],
    options?: ListOptions,
  ): Promise<FolderChildren> {
    const other = await this.other(dir);
    if (other === 'shared') return this.listing.statVisible(dir, [], options);
    if (other) return other.statVisible(dir, names, options);
    return this.listing.statVisible(dir, names, options);
  }

  /** See ScopedListing.isChildAllowed. */
  isChildAllowed(folder: string | JudgedFolder, name: string): boolean {
    const path = typeof folder === 'string' ? folder : folder.path;
    const other = this.syncOther(path);
    if (other === true) return this.mounted!.route(joinVirtual(path, name)).kind === 'mount';
    if (other !== null) return other !== false && other.isChildAllowed(folder, name);
    return this.listing.isChildAllowed(folder, name);
  }

  /**
   * Whether every child whose name does not start with '.' may be shown (no rules): a big
   * folder's names are then judged by their first unit.
   */
  get allowsUndottedChildren(): boolean {
    // With grants, a folder may lie in one, where the owner's rules and the grant's judge names
    // too: every child is judged there (docs/teams.md).
    return !this.mounted && this.listing.allowsUndottedChildren;
  }

  /**
   * allowsUndottedChildren for the children of one folder: in a view with grants, a folder of the
   * user's own files is judged by their own rules alone (a name reserved for a grant is never on
   * disk there: grants are placed around the user's own names), one in a grant never.
   */
  allowsUndottedChildrenIn(folder: string | Resolved): boolean {
    if (!this.mounted) return this.listing.allowsUndottedChildren;
    return this.mounted.route(folder).kind === 'own' && this.listing.allowsUndottedChildren;
  }

  /** See ScopedListing.walk. */
  async *walk(virtual: string | Resolved, options?: WalkOptions): AsyncGenerator<Entry> {
    const other = await this.other(virtual);
    // "Shared with me" itself holds no files: only its shares, when the walk asks for grants.
    if (other === 'shared') {
      if (options?.grants) yield* this.walkGrants(this.mounted!.table.people, 1, options);
      return;
    }
    if (other) return yield* other.walk(virtual, options);
    yield* this.listing.walk(virtual, options);
    const path = typeof virtual === 'string' ? canonicalPath(virtual).path : virtual.path;
    if (!options?.grants || !this.mounted || path !== '/') return;
    // After the user's own files: each team folder, then "Shared with me" and its shares.
    yield* this.walkGrants(this.mounted.table.team, 1, options);
    const sharedName = this.mounted.table.sharedName;
    if (sharedName === null) return;
    const shared = await this.sharedRoot(`/${sharedName}`);
    yield { ...shared, isSymlink: false, allowed: true, depth: 1 };
    yield* this.walkGrants(this.mounted.table.people, 2, options);
  }

  /** Each grant's top (when still there and visible to its owner), and its walk through its view. */
  private async *walkGrants(
    mounts: readonly PlacedMount[],
    depth: number,
    options: WalkOptions,
  ): AsyncGenerator<Entry> {
    for (const mount of mounts) {
      options.signal?.throwIfAborted();
      const view = await this.mounted!.mountFs(mount);
      const top = await view.stat(mount.path).catch(() => null);
      if (!top) continue;
      yield {
        name: top.name,
        path: top.path,
        real: top.real,
        entry: top.entry,
        stat: top.stat,
        isSymlink: false,
        allowed: true,
        depth,
      };
      if (!top.stat.isDirectory()) continue;
      for await (const child of view.walk(top, { ...options, grants: false })) {
        yield { ...child, depth: child.depth + depth };
      }
    }
  }

  /** See ScopedListing.assertTreeAllowed. */
  async assertTreeAllowed(source: Resolved, destination?: string): Promise<void> {
    const other = await this.other(source);
    if (other === 'shared') throw errors.forbidden();
    if (other) return other.assertTreeAllowed(source, destination);
    return this.listing.assertTreeAllowed(source, destination);
  }

  /** See ScopedReads.openRead. */
  async openRead(
    virtual: string | Resolved,
    range?: { start?: number; end?: number },
  ): Promise<{ resolved: Resolved; stat: Stats; stream: Readable }> {
    const other = await this.other(virtual);
    if (other === 'shared') throw errors.badRequest('a folder has no content');
    if (other) return other.openRead(virtual, range);
    return this.reads.openRead(virtual, range);
  }

  /** See ScopedReads.openFile. */
  async openFile(virtual: string | Resolved): Promise<FileHandle> {
    const other = await this.other(virtual);
    if (other === 'shared') throw errors.badRequest('a folder has no content');
    if (other) return other.openFile(virtual);
    return this.reads.openFile(virtual);
  }

  /** See ScopedReads.openKnown. */
  async openKnown(known: { path: string; real: string; stat: Stats }): Promise<FileHandle> {
    const other = await this.other(known.path);
    if (other === 'shared') throw errors.notFound();
    if (other) return other.openKnown(known);
    return this.reads.openKnown(known);
  }

  /** See ScopedReads.readAll. */
  async readAll(virtual: string | Resolved, maxBytes: number): Promise<Buffer> {
    const other = await this.other(virtual);
    if (other === 'shared') throw errors.badRequest('a folder has no content');
    if (other) return other.readAll(virtual, maxBytes);
    return this.reads.readAll(virtual, maxBytes);
  }

  /** See ScopedReads.readHead. */
  async readHead(virtual: string | Resolved, bytes?: number): Promise<Buffer> {
    const other = await this.other(virtual);
    if (other === 'shared') throw errors.badRequest('a folder has no content');
    if (other) return other.readHead(virtual, bytes);
    return this.reads.readHead(virtual, bytes);
  }

  /** See ScopedWrites.createWriteAtomic. */
  async createWriteAtomic(
    virtual: string | Resolved,
    options?: WriteOptions,
  ): Promise<{ resolved: Resolved; write: AtomicWrite }> {
    const other = await this.writable(virtual);
    if (other) return other.createWriteAtomic(virtual, options);
    return this.writes.createWriteAtomic(virtual, options);
  }

  /**
   * The grant view a write to a path goes to, after the grant's access allowed it: `modify` to
   * replace what exists, `create` otherwise (docs/teams.md). Null for the user's own files.
   */
  private async writable(virtual: string | Resolved): Promise<ScopedFs | null> {
    const other = await this.other(virtual);
    if (other === null) return null;
    if (other === 'shared') throw errors.forbidden('shared folders themselves cannot be changed');
    const resolved = await other.resolve(virtual);
    this.mounted!.check(resolved, resolved.stat ? 'modify' : 'create');
    return other;
  }

  /** See ScopedWrites.writeFile. */
  async writeFile(
    virtual: string | Resolved,
    source: WriteSource,
    options?: WriteOptions,
  ): Promise<{ resolved: Resolved; stat: Stats }> {
    const other = await this.writable(virtual);
    if (other) return other.writeFile(virtual, source, options);
    return this.writes.writeFile(virtual, source, options);
  }

  /** See ScopedWrites.mkdir. */
  async mkdir(virtual: string | Resolved): Promise<Resolved> {
    const other = await this.other(virtual);
    if (other === 'shared') throw errors.forbidden('shared folders themselves cannot be changed');
    if (other) {
      const resolved = await other.resolve(virtual);
      if (resolved.stat?.isDirectory()) return resolved;
      this.mounted!.check(resolved, 'create');
      return other.mkdir(virtual);
    }
    return this.writes.mkdir(virtual);
  }

  /** See ScopedWrites.remove. */
  async remove(virtual: string | Resolved): Promise<Resolved> {
    this.mounted?.check(virtual, 'delete');
    const other = await this.other(virtual);
    if (other && other !== 'shared') return other.remove(virtual);
    return this.writes.remove(virtual);
  }

  /** See ScopedWrites.copy. */
  async copy(
    source: string | Resolved,
    destination: string | Resolved,
    options?: { override?: boolean; control?: CopyControl },
  ): Promise<Resolved> {
    if (!this.mounted) return this.writes.copy(source, destination, options);
    const from = await this.other(source);
    const to = await this.writable(destination);
    if (from === 'shared') throw errors.forbidden('shared folders themselves cannot be copied');
    if (from === to) return (to ?? this).writes.copy(source, destination, options);
    return this.copyAcross(from ?? this, to ?? this, source, destination, options);
  }

  /**
   * A copy between two views (the user's files and a grant, or two grants, docs/teams.md): each
   * side judged by its own view (see ScopedWrites.copyFrom). A folder lands in a grant only with
   * its `create` access (files inside it are new), on top of what `writable` checked.
   */
  private async copyAcross(
    from: ScopedFs,
    to: ScopedFs,
    source: string | Resolved,
    destination: string | Resolved,
    options: { override?: boolean; control?: CopyControl } = {},
  ): Promise<Resolved> {
    const item = await from.scope.stat(source);
    if (item.stat.isDirectory() && to !== this) this.mounted!.check(destination, 'create');
    if (!item.stat.isDirectory() && !item.stat.isFile()) {
      throw errors.badRequest('only files and folders can be copied');
    }
    return to.writes.copyFrom(from.scope, item, destination, options);
  }

  /** See ScopedWrites.move. */
  async move(
    source: string | Resolved,
    destination: string | Resolved,
    options?: { override?: boolean },
  ): Promise<Resolved> {
    if (!this.mounted) return this.writes.move(source, destination, options);
    const from = await this.other(source);
    const to = await this.other(destination);
    if (from === 'shared' || to === 'shared') {
      throw errors.forbidden('shared folders themselves cannot be moved');
    }
    if (from === to) {
      this.mounted.check(source, 'rename');
      this.mounted.check(destination, 'rename');
      return (to ?? this).writes.move(source, destination, options);
    }
    // Between views: a copy, then the delete of the original; every check (the source's delete
    // access and its whole tree, the destination's) comes first, and a failed copy costs nothing
    // of the original (docs/teams.md).
    this.mounted.check(source, 'delete');
    await this.writable(destination);
    const origin = from ?? this;
    const item = await origin.scope.stat(source);
    await origin.listing.assertTreeAllowed(item);
    const moved = await this.copyAcross(origin, to ?? this, item, destination, options);
    await origin.writes.remove(item);
    return moved;
  }

  /**
   * Bytes of the files at or under a path (a file's size, a folder's tree), as quotas count them
   * (see treeBytes). The path is resolved first, so a denied or escaping path is refused.
   */
  async bytesUnder(virtual: string | Resolved, signal?: AbortSignal): Promise<number> {
    const other = await this.other(virtual);
    if (other === 'shared') return 0;
    if (other) return other.bytesUnder(virtual, signal);
    const resolved = await this.scope.resolve(virtual);
    if (!resolved.stat && !resolved.isSymlink) return 0;
    return treeBytes(resolved.real, signal);
  }

  /** Files and their bytes at or under a path (a background job's totals); 0 when it is gone. */
  async treeSize(virtual: string | Resolved, signal?: AbortSignal): Promise<TreeSize> {
    const other = await this.other(virtual);
    if (other === 'shared') return { files: 0, bytes: 0 };
    if (other) return other.treeSize(virtual, signal);
    const resolved = await this.scope.resolve(virtual);
    if (!resolved.stat && !resolved.isSymlink) return { files: 0, bytes: 0 };
    return treeSize(resolved.real, signal);
  }

  /** Bytes of the files under the user's whole scope (the quota reconcile walk). */
  scopeBytes(signal?: AbortSignal): Promise<number> {
    return treeBytes(this.scope.scopeReal, signal);
  }

  /** See diskUsage. */
  async usage(virtual: string | Resolved): Promise<{ total: number; used: number }> {
    const other = await this.other(virtual);
    if (other === 'shared') return diskUsage(this.scope, '/');
    if (other) return other.usage(virtual);
    return diskUsage(this.scope, virtual);
  }
}
