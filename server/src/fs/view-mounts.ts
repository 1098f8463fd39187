import path from 'node:path';
import { canonicalPath } from './canonical-path.ts';
import { lstatOrNull } from './fs-errors.ts';
import type { MountSpec, PlacedMount } from './mounts.ts';

/** The virtual folder holding what people shared with a user (docs/teams.md). */
export const SHARED_WITH_ME = 'Shared with me';

/** Where a view path leads: the user's own files, a mounted grant, or the "Shared with me" folder. */
export type Route =
  | { kind: 'own' }
  | { kind: 'mount'; mount: PlacedMount }
  | { kind: 'shared-root'; path: string }
  | { kind: 'shared-missing' };

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
  private constructor(
    readonly team: readonly PlacedMount[],
    readonly people: readonly PlacedMount[],
    /** The "Shared with me" folder's name in this view, or null when nothing is shared. */
    readonly sharedName: string | null,
    private readonly fold: (name: string) => string,
  ) {}

  /** Places the grants around the user's own top-level names (one lstat per grant). */
  static async place(
    ownReal: string,
    specs: readonly MountSpec[],
    caseInsensitive: boolean,
  ): Promise<ViewMounts> {
    const fold = (name: string) => (caseInsensitive ? name.toLowerCase() : name);
    const taken = new Set<string>();
    const free = async (candidates: (n: number) => string): Promise<string> => {
      for (let n = 0; ; n++) {
        const name = candidates(n);
        if (taken.has(fold(name))) continue;
        if (await lstatOrNull(path.join(ownReal, name)).catch(() => null)) continue;
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

  /** Top-level names (lower case) the user's own scope may not answer for. */
  reserved(): Set<string> {
    const names = this.team.map((mount) => mount.path.slice(1).toLowerCase());
    if (this.sharedName) names.push(this.sharedName.toLowerCase());
    return new Set(names);
  }

  get all(): PlacedMount[] {
    return [...this.team, ...this.people];
  }

  /** Where a view path leads (see Route). */
  route(virtual: string): Route {
    const segments = canonicalPath(virtual).segments;
    if (segments.length === 0) return { kind: 'own' };
    const first = this.fold(segments[0]!);
    for (const mount of this.team) {
      if (this.fold(mount.path.slice(1)) === first) return { kind: 'mount', mount };
    }
    if (this.sharedName === null || this.fold(this.sharedName) !== first) return { kind: 'own' };
    if (segments.length === 1) return { kind: 'shared-root', path: `/${this.sharedName}` };
    const second = this.fold(segments[1]!);
    const prefix = `/${this.sharedName}/`;
    for (const mount of this.people) {
      if (this.fold(mount.path.slice(prefix.length)) === second) return { kind: 'mount', mount };
    }
    return { kind: 'shared-missing' };
  }
}
