import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { canonicalPath } from './canonical-path.ts';
import { folderStamp, sameStamp, type FolderStamp } from '../tree/read/folder-stamp.ts';
import { lstatOrNull } from './fs-errors.ts';
import type { ListEntry } from '../tree/read/folder-children.ts';
import type { Grants, MountSpec, PlacedMount } from './mounts.ts';

/** The virtual folder holding what people shared with a user (docs/teams.md). */
export const SHARED_WITH_ME = 'Shared with me';

/** Where a view path leads: the user's own files, a mounted grant, or the "Shared with me" folder. */
export type Route =
  | { kind: 'own' }
  | { kind: 'mount'; mount: PlacedMount }
  | { kind: 'shared-root'; path: string }
  | { kind: 'shared-missing' };

/**
 * A placement kept with the grants it placed (Grants.placement): valid while the user's scope
 * folder is the same folder with the same stamp (no name added, removed or renamed at its top).
 */
export interface Placement {
  readonly ownReal: string;
  readonly stamp: FolderStamp;
  readonly table: ViewMounts;
}

/** What a placement keeps for one set of the user's rules (ViewMounts.forRules). */
export interface RulesMemo {
  /** Whether the rules let the user see each grant's top, as a `stat` of it judges. */
  readonly shown: Map<PlacedMount, boolean>;
  /**
   * The entries the top of the view showed for the grants, and the states of the holding
   * folders they were read from (`KnownHolder.source`, by holder): handed out again only while
   * every holder is in the same state (MountedParts.rootEntries).
   */
  top?: { readonly sources: readonly WeakRef<object>[]; readonly entries: readonly ListEntry[] };
}

/** Team folders' tops by holding folder (ViewMounts.teamTops). */
export interface TeamTops {
  /** Root paths of the folders holding team folders (`/teams`). */
  readonly holders: readonly string[];
  /** Each team folder's holder (index in `holders`) and name there. */
  readonly of: ReadonlyMap<PlacedMount, { readonly holder: number; readonly name: string }>;
}

/** A shared file keeps its extension when a number or the owner is added to its name. */
function withSuffix(name: string, suffix: string, isDir: boolean): string {
  const dot = name.lastIndexOf('.');
  if (isDir || dot <= 0) return `${name} (${suffix})`;
  return `${name.slice(0, dot)} (${suffix})${name.slice(dot)}`;
}

/**
 * The grants one view mounts and where (docs/teams.md): team folders at the top under their names,
 * "Shared with me" holding each share with people under its item's name. A clash with the user's
 * own content renames the grant ("Design (team)"), never hides either; clashes among shares add
 * the owner's name, then a number.
 */
export class ViewMounts {
  /** Team folders and "Shared with me" by folded top-level name; shares by folded name in it. */
  private readonly tops = new Map<string, PlacedMount>();
  private readonly shares = new Map<string, PlacedMount>();

  private constructor(
    readonly team: readonly PlacedMount[],
    readonly people: readonly PlacedMount[],
    /** The "Shared with me" folder's name in this view, or null when nothing is shared. */
    readonly sharedName: string | null,
    private readonly fold: (name: string) => string,
  ) {
    for (const mount of team) this.tops.set(fold(mount.path.slice(1)), mount);
    const prefix = `/${sharedName}/`.length;
    for (const mount of people) this.shares.set(fold(mount.path.slice(prefix)), mount);
  }

  /**
   * The placement of a user's grants, built once and kept with them (docs/teams.md): one stat of
   * the user's scope folder per view tells whether its top-level names may have changed since. A
   * folder stamped within a clock tick of its last change is placed again (FolderStamp.racy).
   * `stamp`: that stat when the caller took it already (beside resolving the scope).
   */
  static async placed(
    ownReal: string,
    grants: Grants,
    caseInsensitive: boolean,
    stamp?: FolderStamp | null,
  ): Promise<ViewMounts> {
    if (stamp === undefined) stamp = await folderStamp(ownReal);
    const kept = grants.placement;
    if (stamp && kept && kept.ownReal === ownReal && sameStamp(kept.stamp, stamp))
      return kept.table;
    const table = await ViewMounts.place(ownReal, grants.specs, caseInsensitive);
    if (stamp && !stamp.racy) grants.placement = { ownReal, stamp, table };
    return table;
  }

  /** Places the grants around the user's own top-level names (one lstat per grant). */
  static async place(
    ownReal: string,
    specs: readonly MountSpec[],
    caseInsensitive: boolean,
  ): Promise<ViewMounts> {
    const fold = (name: string) => (caseInsensitive ? name.toLowerCase() : name);
    const taken = new Set<string>();
    const exists = (name: string) =>
      lstatOrNull(path.join(ownReal, name)).then(
        (info) => info !== null,
        () => true,
      );
    // The wanted names are looked up all at once; only a clash asks further, one name at a time.
    const wanted = [...new Set(specs.filter((s) => s.kind === 'team').map((s) => s.name))];
    if (specs.some((s) => s.kind === 'people')) wanted.push(SHARED_WITH_ME);
    const found = new Map(
      await Promise.all(wanted.map(async (name) => [name, await exists(name)] as const)),
    );
    const free = async (candidates: (n: number) => string): Promise<string> => {
      for (let n = 0; ; n++) {
        const name = candidates(n);
        if (taken.has(fold(name))) continue;
        if (found.get(name) ?? (await exists(name))) continue;
        taken.add(fold(name));
        return name;
      }
    };
    const team: PlacedMount[] = [];
    for (const spec of specs.filter((s) => s.kind === 'team')) {
      const name = await free((n) =>
        n === 0 ? spec.name : n === 1 ? `${spec.name} (team)` : `${spec.name} (team ${n})`,
      );
      team.push({ spec, path: `/${name}` });
    }
    const peopleSpecs = specs.filter((s) => s.kind === 'people');
    let sharedName: string | null = null;
    const people: PlacedMount[] = [];
    if (peopleSpecs.length > 0) {
      sharedName = await free((n) =>
        n === 0
          ? SHARED_WITH_ME
          : n === 1
            ? `${SHARED_WITH_ME} (shared)`
            : `${SHARED_WITH_ME} (${n})`,
      );
      const inside = new Set<string>();
      for (const spec of peopleSpecs) {
        let chosen = spec.name;
        for (let n = 0; inside.has(fold(chosen)); n++) {
          const suffix = n === 0 ? (spec.owner ?? '2') : `${spec.owner ?? ''} ${n + 1}`.trim();
          chosen = withSuffix(spec.name, suffix, spec.isDir);
        }
        inside.add(fold(chosen));
        people.push({ spec, path: `/${sharedName}/${chosen}` });
      }
    }
    return new ViewMounts(team, people, sharedName, fold);
  }

  /**
   * Top-level names the user's own scope may not answer for, folded as the file system compares
   * names (lower case only where it ignores case: `team 5` of one's own stays next to a team
   * folder `Team 5` on a case-sensitive disk).
   */
  reserved(): ReadonlySet<string> {
    if (!this.reservedNames) {
      const names = this.team.map((mount) => this.fold(mount.path.slice(1)));
      if (this.sharedName) names.push(this.fold(this.sharedName));
      this.reservedNames = new Set(names);
    }
    return this.reservedNames;
  }

  private reservedNames: ReadonlySet<string> | undefined;

  /**
   * What the placement keeps for the user's rules named by `key` (MountedParts), for the last
   * rules asked: which grants' tops they let the user see (rules alone decide it), and the
   * entries the top of the view showed last.
   */
  forRules(key: string): RulesMemo {
    if (this.memo?.key !== key) this.memo = { key, shown: new Map() };
    return this.memo;
  }

  private memo: (RulesMemo & { readonly key: string }) | undefined;

  /**
   * Each team folder's top as a name in a folder of the root, and those folders: where a
   * cache of the folders' listings may know the tops (MountedParts.rootEntries). A team folder
   * that is the root itself has none.
   */
  teamTops(): TeamTops {
    if (!this.placedTops) {
      const of = new Map<PlacedMount, { holder: number; name: string }>();
      const holders: string[] = [];
      for (const mount of this.team) {
        const scope = mount.spec.scope;
        if (scope === '/') continue;
        const parent = path.posix.dirname(scope);
        let holder = holders.indexOf(parent);
        if (holder < 0) holder = holders.push(parent) - 1;
        of.set(mount, { holder, name: path.posix.basename(scope) });
      }
      this.placedTops = { holders, of };
    }
    return this.placedTops;
  }

  private placedTops: TeamTops | undefined;

  /**
   * The stat "Shared with me" shows: that of the root's empty folder (FileRoot.emptyFolder), which
   * nothing writes into, read once for the placement.
   */
  emptyFolderStat(real: string): Promise<Stats> {
    // A failed read is not kept: the next view asks again.
    this.emptyStat ??= stat(real).catch((error: unknown) => {
      this.emptyStat = undefined;
      throw error;
    });
    return this.emptyStat;
  }

  private emptyStat: Promise<Stats> | undefined;

  get all(): PlacedMount[] {
    return [...this.team, ...this.people];
  }

  /** Where a view path leads (see Route). */
  route(virtual: string): Route {
    const segments = canonicalPath(virtual).segments;
    if (segments.length === 0) return { kind: 'own' };
    const first = this.fold(segments[0]!);
    const team = this.tops.get(first);
    if (team) return { kind: 'mount', mount: team };
    if (this.sharedName === null || this.fold(this.sharedName) !== first) return { kind: 'own' };
    if (segments.length === 1) return { kind: 'shared-root', path: `/${this.sharedName}` };
    const share = this.shares.get(this.fold(segments[1]!));
    return share ? { kind: 'mount', mount: share } : { kind: 'shared-missing' };
  }
}
