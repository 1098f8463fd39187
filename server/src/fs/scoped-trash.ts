import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { joinVirtual } from './canonical-path.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';
import type { ScopedListing } from './scoped-listing.ts';
import { relocate } from './trash-folder.ts';

/**
 * Moving a user's item out of the tree into the trash and back (docs/trash.md). The checks are
 * those of a delete and of a create: the scope root never moves, every descendant must be allowed
 * by the rules, and a restore lands only where the rules allow each of its entries.
 */
export class ScopedTrash {
  constructor(
    private readonly scope: ScopeResolver,
    private readonly listing: ScopedListing,
  ) {}

  /**
   * Moves an item (a link as itself, not its target) to `destination`, a real path outside the
   * root that must not exist yet. Announced on the change feed as a removal.
   */
  async moveOut(virtual: string | Resolved, destination: string): Promise<Resolved> {
    const resolved = await this.scope.resolve(virtual);
    if (resolved.path === '/') throw errors.forbidden();
    if (!resolved.stat && !resolved.isSymlink) throw errors.notFound();
    await this.listing.assertTreeAllowed(resolved);
    await relocate(resolved.entry, destination, this.scope.root.dirMode);
    const changes = this.scope.root.changes;
    changes.emit({ kind: 'remove', real: resolved.entry, recursive: true });
    if (resolved.real !== resolved.entry) {
      changes.emit({ kind: 'remove', real: resolved.real, recursive: false });
    }
    return resolved;
  }

  /**
   * Moves a trashed item (`source`, a real path outside the root) to a virtual path whose place
   * must be free; missing parent folders are created. Every entry of the item is judged by the
   * rules at its new path first (403 before anything moves).
   */
  async moveIn(source: string, virtual: string | Resolved): Promise<Resolved> {
    const resolved = await this.scope.resolve(virtual);
    if (resolved.path === '/') throw errors.forbidden();
    if (resolved.stat || resolved.isSymlink) throw errors.conflict();
    // Judged as spelled and where it really lands (a restore through an alias).
    await this.assertItemAllowed(source, resolved.path);
    if (resolved.entryPath !== resolved.path)
      await this.assertItemAllowed(source, resolved.entryPath);
    this.scope.assertRealInside(path.dirname(resolved.entry));
    await relocate(source, resolved.entry, this.scope.root.dirMode);
    this.scope.root.changes.emit({ kind: 'write', real: resolved.entry, recursive: true });
    return this.scope.resolve(resolved.path);
  }

  /** Throws 403 unless the rules allow the item at `virtual` and each of its entries below it. */
  private async assertItemAllowed(source: string, virtual: string): Promise<void> {
    if (!this.scope.isAllowed(virtual)) throw errors.forbidden();
    if (!this.scope.hasRules) return;
    const visit = async (real: string, at: string): Promise<void> => {
      const info = await lstat(real);
      if (!info.isDirectory()) return;
      for (const name of await readdir(real)) {
        const child = joinVirtual(at, name);
        if (!this.scope.rulesAllow(child)) throw errors.forbidden();
        await visit(path.join(real, name), child);
      }
    };
    await visit(source, virtual);
  }
}
