import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Rule } from '@cabinet/protocol';
import { AppError, errors } from '../errors.ts';
import type { AtomicWrite, WriteSource } from './atomic-write.ts';
import { diskUsage } from './disk-usage.ts';
import { treeBytes, treeSize, type TreeSize } from './tree-bytes.ts';
import type { TypedNames } from './typed-names.ts';
import type { CopyControl } from './copy-run.ts';
import type { FileRoot } from './file-root.ts';
import type { FolderChildren, ListEntry } from './folder-children.ts';
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
import type { PlacedMount } from './mounts.ts';

/** File stats as ScopedFs returns them (services may not import node:fs). */
export type { Stats } from 'node:fs';
export type { EntryStat } from './entry-stat.ts';
export { EntryKind, type NamePattern, type TypedNames } from './typed-names.ts';
export type { FolderChildren, ListEntry } from './folder-children.ts';
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

  private constructor(private readonly scope: ScopeResolver) {
    this.listing = new ScopedListing(scope);
    this.reads = new ScopedReads(scope);
    this.writes = new ScopedWrites(scope, this.listing);
    this.uploads = new ScopedUploads(scope);
    this.trash = new ScopedTrash(scope, this.listing);
  }

  /**
   * One user's view: scope under the root, global rules then the user's, the user's hideDotfiles.
   * `settings` is anything with `get()` returning the global settings (the SettingsRepo).
   */
  static async forUser(
    ctx: { files: FileRoot; settings: { get(): Promise<{ rules: Rule[] }> } },
    user: { scope: string; rules: readonly Rule[]; hideDotfiles: boolean; rulePrefix?: string },
  ): Promise<ScopedFs> {
    const settings = await ctx.settings.get();
    return ScopedFs.open(ctx.files, {
      scope: user.scope,
      rules: [...settings.rules, ...user.rules],
      hideDotfiles: user.hideDotfiles,
      // A folder-limited app password re-roots the view; the rules still judge account paths.
      ...(user.rulePrefix !== undefined && { rulePrefix: user.rulePrefix }),
    });
  }

  /** A view with explicit options (shares re-root at a sub-folder with a rule prefix). */
  static async open(root: FileRoot, options: ScopedFsOptions): Promise<ScopedFs> {
    return new ScopedFs(await ScopeResolver.open(root, options));
  }

  /** The grant a path lies in (or is), or null for the user's own files (docs/teams.md). */
  mountOf(_virtual: string | Resolved): PlacedMount | null {
    return null;
  }

  /** Every grant placed in this view, team folders first. */
  mountList(): Promise<PlacedMount[]> {
    return Promise.resolve([]);
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
    return this.scope.isAllowed(virtual, options);
  }

  /**
   * isAllowed for a path built from a canonical folder and a name read from disk (the search index),
   * judged exactly as walks and listings judge their children: no re-parsing of the name.
   */
  isEntryAllowed(canonical: string): boolean {
    return this.scope.isCanonicalAllowed(canonical);
  }

  /**
   * Whether rules or hideDotfiles deny a virtual path as spelled or where it really is (through an
   * alias: a symlink back into the scope), resolving it. Other refusals (a link out of the scope,
   * a missing folder) are not a rule's verdict and answer false: the operation reports them.
   */
  async isDenied(virtual: string): Promise<boolean> {
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
    if (!this.scope.isAllowed(virtual)) throw errors.forbidden();
  }

  /** See ScopeResolver.resolve: the one way from a user path to a real one. */
  resolve(virtual: string | Resolved): Promise<Resolved> {
    return this.scope.resolve(virtual);
  }

  /** Resolves a path that must exist (404 otherwise). */
  stat(virtual: string | Resolved): Promise<Resolved & { stat: Stats }> {
    return this.scope.stat(virtual);
  }

  /** Virtual path of a real path inside this scope (for entries found by walking). */
  virtualOf(real: string): string {
    return this.scope.virtualOf(real);
  }

  /** Whether rules alone allow a canonical virtual path (descendant checks). */
  rulesAllow(virtual: string): boolean {
    return this.scope.rulesAllow(virtual);
  }

  /** See ScopedListing.list. */
  list(
    virtual: string | Resolved,
    options?: ListOptions,
  ): Promise<{ dir: Resolved & { stat: Stats }; entries: ListEntry[] }> {
    return this.listing.list(virtual, options);
  }

  /** See ScopedListing.listChildren. */
  listChildren(
    virtual: string | Resolved,
    options?: ListOptions,
  ): Promise<{ dir: Resolved & { stat: Stats }; children: FolderChildren }> {
    return this.listing.listChildren(virtual, options);
  }

  /** See ScopedListing.readAllChildren (shared caches only: filter with `isChildAllowed`). */
  readAllChildren(
    dir: Resolved & { stat: Stats },
    options?: ListOptions & { maxCount?: number },
  ): Promise<FolderChildren | null> {
    return this.listing.readAllChildren(dir, options);
  }

  /** See ScopedListing.readVisibleNames. */
  readVisibleNames(
    dir: Resolved & { stat: Stats },
    known?: TypedNames | null,
  ): Promise<TypedNames> {
    return this.listing.readVisibleNames(dir, known);
  }

  /** See ScopedListing.statVisible. */
  statVisible(
    dir: Resolved & { stat: Stats },
    names: string[],
    options?: ListOptions,
  ): Promise<FolderChildren> {
    return this.listing.statVisible(dir, names, options);
  }

  /** See ScopedListing.isChildAllowed. */
  isChildAllowed(folder: string | JudgedFolder, name: string): boolean {
    return this.listing.isChildAllowed(folder, name);
  }

  /** See ScopedListing.walk. */
  walk(virtual: string | Resolved, options?: WalkOptions): AsyncGenerator<Entry> {
    return this.listing.walk(virtual, options);
  }

  /** See ScopedListing.assertTreeAllowed. */
  assertTreeAllowed(source: Resolved, destination?: string): Promise<void> {
    return this.listing.assertTreeAllowed(source, destination);
  }

  /** See ScopedReads.openRead. */
  openRead(
    virtual: string | Resolved,
    range?: { start?: number; end?: number },
  ): Promise<{ resolved: Resolved; stat: Stats; stream: Readable }> {
    return this.reads.openRead(virtual, range);
  }

  /** See ScopedReads.openFile. */
  openFile(virtual: string | Resolved): Promise<FileHandle> {
    return this.reads.openFile(virtual);
  }

  /** See ScopedReads.openKnown. */
  openKnown(known: { path: string; real: string; stat: Stats }): Promise<FileHandle> {
    return this.reads.openKnown(known);
  }

  /** See ScopedReads.readAll. */
  readAll(virtual: string | Resolved, maxBytes: number): Promise<Buffer> {
    return this.reads.readAll(virtual, maxBytes);
  }

  /** See ScopedReads.readHead. */
  readHead(virtual: string | Resolved, bytes?: number): Promise<Buffer> {
    return this.reads.readHead(virtual, bytes);
  }

  /** See ScopedWrites.createWriteAtomic. */
  createWriteAtomic(
    virtual: string | Resolved,
    options?: WriteOptions,
  ): Promise<{ resolved: Resolved; write: AtomicWrite }> {
    return this.writes.createWriteAtomic(virtual, options);
  }

  /** See ScopedWrites.writeFile. */
  writeFile(
    virtual: string | Resolved,
    source: WriteSource,
    options?: WriteOptions,
  ): Promise<{ resolved: Resolved; stat: Stats }> {
    return this.writes.writeFile(virtual, source, options);
  }

  /** See ScopedWrites.mkdir. */
  mkdir(virtual: string | Resolved): Promise<Resolved> {
    return this.writes.mkdir(virtual);
  }

  /** See ScopedWrites.remove. */
  remove(virtual: string | Resolved): Promise<Resolved> {
    return this.writes.remove(virtual);
  }

  /** See ScopedWrites.copy. */
  copy(
    source: string | Resolved,
    destination: string | Resolved,
    options?: { override?: boolean; control?: CopyControl },
  ): Promise<Resolved> {
    return this.writes.copy(source, destination, options);
  }

  /** See ScopedWrites.move. */
  move(
    source: string | Resolved,
    destination: string | Resolved,
    options?: { override?: boolean },
  ): Promise<Resolved> {
    return this.writes.move(source, destination, options);
  }

  /**
   * Bytes of the files at or under a path (a file's size, a folder's tree), as quotas count them
   * (see treeBytes). The path is resolved first, so a denied or escaping path is refused.
   */
  async bytesUnder(virtual: string | Resolved, signal?: AbortSignal): Promise<number> {
    const resolved = await this.scope.resolve(virtual);
    if (!resolved.stat && !resolved.isSymlink) return 0;
    return treeBytes(resolved.real, signal);
  }

  /** Files and their bytes at or under a path (a background job's totals); 0 when it is gone. */
  async treeSize(virtual: string | Resolved, signal?: AbortSignal): Promise<TreeSize> {
    const resolved = await this.scope.resolve(virtual);
    if (!resolved.stat && !resolved.isSymlink) return { files: 0, bytes: 0 };
    return treeSize(resolved.real, signal);
  }

  /** Bytes of the files under the user's whole scope (the quota reconcile walk). */
  scopeBytes(signal?: AbortSignal): Promise<number> {
    return treeBytes(this.scope.scopeReal, signal);
  }

  /** See diskUsage. */
  usage(virtual: string | Resolved): Promise<{ total: number; used: number }> {
    return diskUsage(this.scope, virtual);
  }
}
