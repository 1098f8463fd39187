import type { Stats } from 'node:fs';
import type { GrantAccess } from '@cabinet/protocol';
import { errors } from '../errors.ts';
import { canonicalPath } from './canonical-path.ts';
import { SlimStat, type EntryStat } from './entry-stat.ts';
import type { ListEntry } from '../tree/read/folder-children.ts';
import type { PlacedMount } from './mounts.ts';
import type { Resolved } from './scope-resolver.ts';
import type { ScopedFs } from './scoped-fs.ts';
import type { ScopedTrash } from './scoped-trash.ts';
import type { ScopedUploads, UploadPlace } from './scoped-uploads.ts';
import type { Route, RulesMemo, ViewMounts } from './view-mounts.ts';

/** Refused in a grant: what its access level does not allow, or the virtual folders themselves. */
const READ_ONLY = 'the shared folder does not allow this';
const VIRTUAL = 'shared folders themselves cannot be created, renamed or deleted';

export type GrantAction = 'create' | 'rename' | 'modify' | 'delete';

/** Opens a grant's own view. */
export type MountOpener = (mount: PlacedMount) => Promise<ScopedFs>;

/**
 * What a cache knows now of the team folders held in one folder of the root (docs/teams.md,
 * "Cost"), for the root listing. `source` is the holder's state it answers from: the same object
 * exactly as long as what it says of every child is unchanged (a cached listing of the holder),
 * so the entries built from it are kept with the placement and checked against it.
 */
export interface KnownHolder {
  readonly source: object;
  /**
   * A team folder's top by its name in the holder: its real location (reached through no
   * symlink) and its lstat; undefined when the cache cannot tell (then the disk is asked).
   */
  top(name: string): { real: string; stat: EntryStat } | undefined;
}

/** The holder of team folders at a root path (`/teams`) as a cache knows it now, or null. */
export type KnownTops = (holder: string) => Promise<KnownHolder | null>;

/**
 * The grants of one view at work (docs/teams.md): which ScopedFs answers a path (each grant is its
 * own view of its folder, speaking the user's view paths), what a grant's access allows, and the
 * "Shared with me" folder, a virtual folder whose real place is an empty folder of the data
 * folder. Opened grant views are kept for this view's life (one request).
 */
export class MountedParts {
  private readonly opened = new Map<PlacedMount, Promise<ScopedFs>>();
  private readonly ready = new Map<PlacedMount, ScopedFs>();
  private sharedRoot: Promise<Resolved & { stat: Stats }> | undefined;

  constructor(
    private readonly owner: ScopedFs,
    readonly table: ViewMounts,
    private readonly open: MountOpener,
    /** Whether the rules let the user see a grant's top (what a `stat` of it judges). */
    private readonly showsTop: (mount: PlacedMount) => boolean,
    /** What the placement keeps for this view's rules (ViewMounts.forRules). */
    private readonly memo: RulesMemo,
  ) {}

  route(virtual: string | Resolved): Route {
    return this.table.route(typeof virtual === 'string' ? virtual : virtual.path);
  }

  /** The opened view of a grant. */
  mountFs(mount: PlacedMount): Promise<ScopedFs> {
    let view = this.opened.get(mount);
    if (!view) {
      view = this.open(mount).then((fs) => {
        this.ready.set(mount, fs);
        return fs;
      });
      this.opened.set(mount, view);
    }
    return view;
  }

  /** The opened view of a grant when it was opened already (sync checks), else undefined. */
  readyFs(mount: PlacedMount): ScopedFs | undefined {
    return this.ready.get(mount);
  }

  /** The grant view serving a path, or null for the user's own files. 404 under "Shared with me". */
  async viewOf(virtual: string | Resolved): Promise<ScopedFs | null> {
    const route = this.route(virtual);
    if (route.kind === 'mount') return this.mountFs(route.mount);
    if (route.kind === 'shared-missing') throw errors.notFound();
    return null;
  }

  /** The "Shared with me" folder as a Resolved: its real place is the root's empty folder. */
  sharedRootResolved(
    shownPath: string,
    trailingSlash: boolean,
  ): Promise<Resolved & { stat: Stats }> {
    this.sharedRoot ??= (async () => {
      const real = this.owner.root.emptyFolder;
      return {
        path: shownPath,
        trailingSlash: false,
        name: shownPath.slice(1),
        real,
        entry: real,
        stat: await this.table.emptyFolderStat(real),
        isSymlink: false,
        entryPath: shownPath,
        realPath: shownPath,
      };
    })();
    return this.sharedRoot.then((resolved) =>
      trailingSlash ? { ...resolved, trailingSlash } : resolved,
    );
  }

  /**
   * Refuses what a grant's access does not allow at a path, and any change to the virtual
   * folders themselves (a grant's top, "Shared with me"). The user's own permissions are the
   * services' to check: together they make the intersection.
   */
  check(virtual: string | Resolved, action: GrantAction): void {
    const route = this.route(virtual);
    if (route.kind === 'own') return;
    if (route.kind !== 'mount') throw errors.forbidden(VIRTUAL);
    const path = canonicalPath(typeof virtual === 'string' ? virtual : virtual.path).path;
    const top = path === route.mount.path;
    // The top of a shared folder is not the user's to create, rename or delete; a shared file's
    // content may still be modified in place.
    if (top && (action !== 'modify' || route.mount.spec.isDir)) throw errors.forbidden(VIRTUAL);
    if (!allows(route.mount.spec.access, action)) throw errors.forbidden(READ_ONLY);
  }

  /**
   * The entries the user's root shows for the grants: each team folder, "Shared with me". A top
   * `known` to a cache costs no disk access; the rules judge it as a `stat` of it would. When
   * every top was known, the entries are kept with the placement and handed out again (the same
   * array, not to be changed) while each holder's state is the same object as when they were
   * read: no entry is made per request (docs/teams.md, "Cost").
   */
  async rootEntries(known?: KnownTops): Promise<readonly ListEntry[]> {
    const tops = this.table.teamTops();
    const held = known ? await Promise.all(tops.holders.map((holder) => known(holder))) : null;
    const kept = this.memo.top;
    if (held && kept && this.opened.size === 0 && sameSources(kept.sources, held)) {
      return kept.entries;
    }
    let allKnown = held !== null;
    const entries = (
      await Promise.all(
        this.table.team.map(async (mount) => {
          const place = tops.of.get(mount);
          const top =
            place && !this.opened.has(mount) ? held?.[place.holder]?.top(place.name) : undefined;
          if (top === undefined) {
            allKnown = false;
            return this.mountEntry(mount);
          }
          if (!this.showsTop(mount)) return null;
          return {
            name: mount.path.slice(1),
            path: mount.path,
            real: top.real,
            stat: top.stat,
            isSymlink: false,
          };
        }),
      )
    ).filter((entry): entry is ListEntry => entry !== null);
    if (this.table.sharedName) {
      const shared = await this.sharedRootResolved(`/${this.table.sharedName}`, false);
      entries.push({
        name: this.table.sharedName,
        path: shared.path,
        real: shared.real,
        stat: SlimStat.of(shared.stat),
        isSymlink: false,
      });
    }
    if (held && allKnown) {
      // Weakly: a holder's state the cache let go of (a folder changed since) is not kept alive.
      const sources = held.map((holder) => new WeakRef(holder!.source));
      this.memo.top = { sources, entries };
    }
    return entries;
  }

  /** The entries of "Shared with me": each share with people whose item is still there. */
  async sharedEntries(): Promise<ListEntry[]> {
    return (await Promise.all(this.table.people.map((mount) => this.mountEntry(mount)))).filter(
      (entry): entry is ListEntry => entry !== null,
    );
  }

  /** A grant's top as a listing entry, or null when it is gone or its owner may not see it. */
  async mountEntry(mount: PlacedMount): Promise<ListEntry | null> {
    try {
      const fs = await this.mountFs(mount);
      const top = await fs.stat(mount.path);
      return {
        name: mount.path.slice(mount.path.lastIndexOf('/') + 1),
        path: mount.path,
        real: top.real,
        stat: SlimStat.of(top.stat),
        isSymlink: false,
      };
    } catch {
      return null;
    }
  }

  /** Resumable uploads: a grant's target is checked against its access before any byte lands. */
  uploads(own: ScopedUploads): ScopedUploads {
    const check = (target: Resolved) => this.check(target, target.stat ? 'modify' : 'create');
    return new Proxy(own, {
      get: (target, key, receiver) => {
        if (key === 'placeFor') {
          return (resolved: Resolved, id: string): UploadPlace => {
            check(resolved);
            return target.placeFor(resolved, id);
          };
        }
        if (key === 'commit') {
          return (place: UploadPlace, resolved: Resolved, override: boolean) => {
            check(resolved);
            return target.commit(place, resolved, override);
          };
        }
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
  }

  /** The trash: an item of a grant leaves (and comes back) through the grant's own view. */
  trash(own: ScopedTrash): ScopedTrash {
    return new Proxy(own, {
      get: (target, key, receiver) => {
        if (key === 'moveOut') {
          return async (virtual: string | Resolved, destination: string) => {
            this.check(virtual, 'delete');
            const view = await this.viewOf(virtual);
            return (view ? view.trash : target).moveOut(virtual, destination);
          };
        }
        if (key === 'moveIn') {
          return async (source: string, virtual: string | Resolved) => {
            this.check(virtual, 'create');
            const view = await this.viewOf(virtual);
            return (view ? view.trash : target).moveIn(source, virtual);
          };
        }
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
  }
}

function allows(access: GrantAccess, action: GrantAction): boolean {
  return access[action];
}

/** Whether every holder is in the state the kept entries were read from. */
function sameSources(
  kept: readonly WeakRef<object>[],
  now: readonly (KnownHolder | null)[],
): boolean {
  if (kept.length !== now.length) return false;
  for (let i = 0; i < kept.length; i++) {
    const source = now[i]?.source;
    if (source === undefined || kept[i]!.deref() !== source) return false;
  }
  return true;
}
