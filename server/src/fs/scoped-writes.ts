import type { Stats } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { isRealInside, isVirtualInside } from './canonical-path.ts';
import { AtomicWrite, type WriteSource } from './atomic-write.ts';
import { planCopy, type CopyStep } from './copy-plan.ts';
import { runCopyPlan, type CopyControl } from './copy-run.ts';
import { errorCode, mapFsErrors, toAppError } from './fs-errors.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';
import type { ScopedListing } from './scoped-listing.ts';
import type { TempKind } from './temp-files.ts';

export interface WriteOptions {
  /** Replace an existing file (the service checks the modify permission). */
  override?: boolean;
  /** Resumable uploads keep their temp across restarts. */
  tempKind?: TempKind;
}

/**
 * Writing user files: atomic writes, folders, deletes, copies and moves. Every path is resolved
 * (and rule-checked) first; a tree operation checks every descendant before it touches one, and
 * every change is announced on the root's change feed (caches, the search index).
 */
export class ScopedWrites {
  constructor(
    private readonly scope: ScopeResolver,
    private readonly listing: ScopedListing,
  ) {}

  /**
   * Starts an atomic write of a file: parents are created, content goes to a temp file in the
   * target's folder and replaces the target only on commit(). 409 when the file exists and
   * `override` is off, or when the path is a folder.
   */
  async createWriteAtomic(
    virtual: string | Resolved,
    options: WriteOptions = {},
  ): Promise<{ resolved: Resolved; write: AtomicWrite }> {
    const resolved = await this.scope.resolve(virtual);
    if (resolved.path === '/') throw errors.forbidden();
    if (resolved.stat?.isDirectory()) throw errors.conflict('path is a directory');
    if (resolved.stat && !options.override) throw errors.conflict();
    await this.makeFolders(path.dirname(resolved.real));
    const root = this.scope.root;
    const write = await AtomicWrite.begin({
      real: resolved.real,
      override: options.override ?? false,
      mode: root.fileMode,
      keepMode: resolved.stat?.mode,
      journal: root.journal,
      buffers: root.writeBuffers,
      kind: options.tempKind,
      onCommit: (real) => root.changes.emit({ kind: 'write', real, recursive: false }),
    });
    return { resolved, write };
  }

  /**
   * Writes a whole stream atomically (see createWriteAtomic). A failure or a client that goes away
   * mid-body leaves the original file untouched and no temp file behind.
   */
  async writeFile(
    virtual: string | Resolved,
    source: WriteSource,
    options: WriteOptions = {},
  ): Promise<{ resolved: Resolved; stat: Stats }> {
    const { resolved, write } = await this.createWriteAtomic(virtual, options);
    try {
      await write.pour(source);
      return { resolved, stat: await write.commit() };
    } catch (error) {
      await write.abort();
      throw toAppError(error);
    }
  }

  /** Creates a folder and its parents; an existing folder is fine, an existing file is 409. */
  async mkdir(virtual: string | Resolved): Promise<Resolved> {
    const resolved = await this.scope.resolve(virtual);
    if (resolved.stat) {
      if (resolved.stat.isDirectory()) return resolved;
      throw errors.conflict();
    }
    await this.makeFolders(resolved.real);
    this.scope.root.changes.emit({ kind: 'write', real: resolved.real, recursive: false });
    return this.scope.resolve(resolved.path);
  }

  /** Creates missing folders down to a real path inside the scope. */
  async makeFolders(real: string): Promise<void> {
    this.scope.assertRealInside(real);
    await mapFsErrors(() => mkdir(real, { recursive: true, mode: this.scope.root.dirMode }));
  }

  /**
   * Deletes a file, a link (not its target) or a whole folder. The scope root cannot be deleted and
   * every descendant is rule-checked first: one denied child refuses the whole delete.
   */
  async remove(virtual: string | Resolved): Promise<Resolved> {
    const resolved = await this.scope.resolve(virtual);
    if (resolved.path === '/') throw errors.forbidden();
    if (!resolved.stat && !resolved.isSymlink) throw errors.notFound();
    await this.listing.assertTreeAllowed(resolved);
    await mapFsErrors(() => rm(resolved.entry, { recursive: true, force: false }));
    const changes = this.scope.root.changes;
    changes.emit({ kind: 'remove', real: resolved.entry, recursive: true });
    if (resolved.real !== resolved.entry) {
      changes.emit({ kind: 'remove', real: resolved.real, recursive: false });
    }
    return resolved;
  }

  /**
   * Copies a file or folder tree (merging into an existing folder). Every source item and its
   * destination is rule-checked before anything is written; in-scope links are copied as their
   * content, escaping or dangling links are skipped; each file lands atomically. `control`
   * follows and stops the copy (background jobs).
   */
  async copy(
    sourcePath: string | Resolved,
    destinationPath: string | Resolved,
    options: { override?: boolean; control?: CopyControl } = {},
  ): Promise<Resolved> {
    const { source, destination } = await this.prepareTransfer(
      sourcePath,
      destinationPath,
      options.override ?? false,
      false,
    );
    return this.landCopy(await planCopy(this.scope, source, destination), destination, options);
  }

  /**
   * Copies a file or folder tree of another view (`sourceScope`: the user's own files or a grant,
   * docs/teams.md) into this one: the source is judged by its view (rules, hideDotfiles, links
   * followed only inside it), the destination by this one, every path before a byte is written.
   */
  async copyFrom(
    sourceScope: ScopeResolver,
    sourcePath: string | Resolved,
    destinationPath: string | Resolved,
    options: { override?: boolean; control?: CopyControl } = {},
  ): Promise<Resolved> {
    const source = await sourceScope.resolve(sourcePath);
    const destination = await this.scope.resolve(destinationPath);
    if (!source.stat) throw errors.notFound();
    if (source.stat.isDirectory() && isRealInside(destination.real, source.real)) {
      throw errors.badRequest('source is parent');
    }
    if (destination.stat) checkReplace(source, destination.stat, options.override ?? false);
    const plan = await planCopy(
      { from: sourceScope, to: this.scope, strict: true },
      source,
      destination,
    );
    return this.landCopy(plan, destination, options);
  }

  /** Runs a copy's plan into `destination` and answers what landed there. */
  private async landCopy(
    plan: CopyStep[],
    destination: Resolved,
    options: { control?: CopyControl },
  ): Promise<Resolved> {
    await this.makeFolders(path.dirname(destination.real));
    try {
      await runCopyPlan(plan, this.scope.root, options.control);
    } finally {
      // A stopped copy still changed the tree: caches and the search index must see what landed.
      this.scope.root.changes.emit({ kind: 'write', real: destination.real, recursive: true });
    }
    return this.scope.resolve(destination.path);
  }

  /**
   * Moves (renames) a file or folder. Uses rename(2); across devices, or onto a non-empty folder,
   * falls back to copy then delete. A case-only rename of the same file is allowed without override.
   */
  async move(
    sourcePath: string | Resolved,
    destinationPath: string | Resolved,
    options: { override?: boolean } = {},
  ): Promise<Resolved> {
    const override = options.override ?? false;
    const { source, destination } = await this.prepareTransfer(
      sourcePath,
      destinationPath,
      override,
      true,
    );
    await this.listing.assertTreeAllowed(source, destination);
    await this.makeFolders(path.dirname(destination.entry));
    try {
      await rename(source.entry, destination.entry);
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'EXDEV' && code !== 'ENOTEMPTY' && code !== 'EEXIST') throw toAppError(error);
      const plan = await planCopy(this.scope, source, destination);
      await runCopyPlan(plan, this.scope.root);
      await mapFsErrors(() => rm(source.entry, { recursive: true, force: false }));
    }
    this.scope.root.changes.emit({
      kind: 'rename',
      real: source.real,
      to: destination.real,
      recursive: true,
    });
    return this.scope.resolve(destination.path);
  }

  /**
   * Shared checks of copy and move (docs/scoped-fs.md): neither end is the scope root, the
   * destination is not inside the source, and an existing destination needs override and the
   * same kind (file or folder).
   */
  private async prepareTransfer(
    sourcePath: string | Resolved,
    destinationPath: string | Resolved,
    override: boolean,
    isMove: boolean,
  ): Promise<{ source: Resolved & { stat: Stats | null }; destination: Resolved }> {
    const source = await this.scope.resolve(sourcePath);
    const destination = await this.scope.resolve(destinationPath);
    if (source.path === '/' || destination.path === '/') throw errors.forbidden();
    if (!source.stat && !(isMove && source.isSymlink)) throw errors.notFound();
    const folds = this.scope.root.caseInsensitive;
    const samePath = folds
      ? source.path.toLowerCase() === destination.path.toLowerCase()
      : source.path === destination.path;
    const inside =
      (isVirtualInside(
        folds ? destination.path.toLowerCase() : destination.path,
        folds ? source.path.toLowerCase() : source.path,
      ) &&
        !samePath) ||
      (source.stat?.isDirectory() === true &&
        isRealInside(destination.real, source.real) &&
        destination.real !== source.real);
    if (inside) throw errors.badRequest('source is parent');
    // A case-only rename names the same file: not a conflict.
    const isCaseOnlyRename = isMove && samePath && source.path !== destination.path;
    if (destination.stat && !isCaseOnlyRename) checkReplace(source, destination.stat, override);
    return { source, destination };
  }
}

/** An existing destination is replaced only when asked, and only by the same kind of item. */
function checkReplace(source: Resolved, existing: Stats, override: boolean): void {
  if (!override) throw errors.conflict();
  if (source.stat && existing.isDirectory() !== source.stat.isDirectory()) {
    throw errors.conflict('cannot replace a file with a folder or a folder with a file');
  }
}
