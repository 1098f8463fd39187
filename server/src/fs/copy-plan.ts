import type { Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { isRealInside, joinVirtual } from './canonical-path.ts';
import { lstatOrNull, toAppError } from './fs-errors.ts';
import { mapInOrder } from './map-in-order.ts';
import { followSegments } from './real-path.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';
import { isTempName } from './temp-files.ts';

/** One step of a copy, decided (and rule-checked) before anything is written. */
export type CopyStep = { kind: 'dir'; to: string; mode: number } | FileStep;

/** A file to copy (`mode` and `size` as the source had them when planned). */
export interface FileStep {
  kind: 'file';
  from: string;
  to: string;
  mode: number;
  size: number;
}

interface Place {
  /** Virtual path of the real location, used for rule checks. */
  virtual: string;
  /** Real path. */
  real: string;
  /** The destination as the user spelled it, when through an alias: judged as well. */
  spelled?: string;
}

/**
 * The views a copy reads from and writes into: one scope, or two (between a user's files and a
 * grant, or two grants, docs/teams.md), each judging its own side's paths, rules and links.
 */
export interface CopyScopes {
  from: ScopeResolver;
  to: ScopeResolver;
  /**
   * Judge every path by the rules and hideDotfiles of its side, not the rules alone: across views
   * a name one side hides must not reach the other (within one scope a copy keeps dotfiles).
   */
  strict?: boolean;
}

/** Whether a side allows a path (see CopyScopes.strict). */
function allows(scopes: CopyScopes, side: 'from' | 'to', canonical: string): boolean {
  const scope = scopes[side];
  return scopes.strict ? scope.isCanonicalAllowed(canonical) : scope.rulesAllow(canonical);
}

/**
 * Plans a copy of `source` onto `destination`: walks the source (following in-scope links as
 * content, never following escaping or dangling ones), checks every item's own virtual path and its
 * destination counterpart against the rules, and refuses type clashes and destination links that
 * leave the scope. Throws before a single byte is written.
 */
export async function planCopy(
  within: ScopeResolver | CopyScopes,
  source: Resolved,
  destination: Resolved,
): Promise<CopyStep[]> {
  const scope: CopyScopes = 'from' in within ? within : { from: within, to: within };
  const steps: CopyStep[] = [];
  if (!source.stat) throw errors.notFound();
  const from: Place = { virtual: scope.from.virtualOf(source.real), real: source.real };
  // The destination is judged where the copy really lands, and as spelled.
  const to: Place = {
    virtual: destination.realPath,
    real: destination.real,
    ...(destination.realPath !== destination.path && { spelled: destination.path }),
  };
  if (source.stat.isDirectory()) {
    await planFolder(scope, from, to, source.stat, steps, new Set([source.real]), source.real);
  } else if (source.stat.isFile()) {
    steps.push({
      kind: 'file',
      from: from.real,
      to: to.real,
      mode: source.stat.mode,
      size: source.stat.size,
    });
  } else {
    throw errors.badRequest('only files and folders can be copied');
  }
  return steps;
}

/** Lookups of one folder's children in flight at once while planning. */
const PLAN_LOOKUPS = 16;

/** One child of a folder as planning found it. */
type Child =
  | { kind: 'skip' }
  | { kind: 'dir'; from: Place; to: Place; info: Stats }
  | { kind: 'file'; step: FileStep };

/**
 * Plans one folder: its children are looked up together (their lstats overlap), then taken in
 * name order. `fresh`: the destination folder did not exist when planned, so none of its children
 * can, and their destinations need no lookup.
 */
async function planFolder(
  scope: CopyScopes,
  from: Place,
  to: Place,
  info: Stats,
  steps: CopyStep[],
  visiting: Set<string>,
  topSource: string,
  fresh = false,
): Promise<void> {
  const existing = fresh ? null : await lstatOrNull(to.real);
  if (existing && !existing.isDirectory()) throw errors.conflict();
  steps.push({ kind: 'dir', to: to.real, mode: info.mode });
  let names: string[];
  try {
    names = (await readdir(from.real)).sort().filter((name) => !isTempName(name));
  } catch (error) {
    throw toAppError(error);
  }
  const childrenFresh = existing === null;
  // Rules first, in name order: a denied child refuses the copy before any lookup.
  const places = names.map((name) => {
    const child: Place = {
      virtual: joinVirtual(from.virtual, name),
      real: path.join(from.real, name),
    };
    const target: Place = {
      virtual: joinVirtual(to.virtual, name),
      real: path.join(to.real, name),
      ...(to.spelled !== undefined && { spelled: joinVirtual(to.spelled, name) }),
    };
    if (!allows(scope, 'from', child.virtual) || !allows(scope, 'to', target.virtual))
      throw errors.forbidden();
    if (target.spelled !== undefined && !allows(scope, 'to', target.spelled))
      throw errors.forbidden();
    return { name, child, target };
  });
  const children = await mapInOrder(places, PLAN_LOOKUPS, ({ name, child, target }) =>
    lookUpChild(scope, from, to, name, child, target, visiting, topSource, childrenFresh),
  );
  for (const found of children) {
    if (found.kind === 'file') steps.push(found.step);
    else if (found.kind === 'dir') {
      visiting.add(found.from.real);
      await planFolder(
        scope,
        found.from,
        found.to,
        found.info,
        steps,
        visiting,
        topSource,
        childrenFresh,
      );
      visiting.delete(found.from.real);
    }
  }
}

/** What one child is and where it lands (following in-scope links; see planCopy). */
async function lookUpChild(
  scope: CopyScopes,
  from: Place,
  to: Place,
  name: string,
  child: Place,
  target: Place,
  visiting: Set<string>,
  topSource: string,
  fresh: boolean,
): Promise<Child> {
  let childInfo = await lstatOrNull(child.real);
  if (!childInfo) return { kind: 'skip' };
  if (childInfo.isSymbolicLink()) {
    let followed;
    try {
      followed = await followSegments(from.real, [name], scope.from.scopeReal);
    } catch {
      return { kind: 'skip' }; // Escaping or looping links are never followed.
    }
    if (!followed.stat) return { kind: 'skip' }; // Dangling: nothing to copy.
    const followedVirtual = scope.from.virtualOf(followed.real);
    if (!allows(scope, 'from', followedVirtual)) throw errors.forbidden();
    child.real = followed.real;
    child.virtual = followedVirtual;
    childInfo = followed.stat;
    // A link back to a folder being copied would recurse forever.
    if (
      childInfo.isDirectory() &&
      (visiting.has(child.real) || isRealInside(topSource, child.real))
    ) {
      return { kind: 'skip' };
    }
  }
  const destination = fresh ? target : await destinationOf(scope, to.real, name, target);
  if (childInfo.isDirectory())
    return { kind: 'dir', from: child, to: destination, info: childInfo };
  if (!childInfo.isFile()) return { kind: 'skip' }; // Pipes, sockets and devices are not copied.
  if (!fresh) {
    const existing = await lstatOrNull(destination.real);
    if (existing?.isDirectory()) throw errors.conflict();
  }
  return {
    kind: 'file',
    step: {
      kind: 'file',
      from: child.real,
      to: destination.real,
      mode: childInfo.mode,
      size: childInfo.size,
    },
  };
}

/** Where a child lands: through an existing in-scope destination link, never out of the scope. */
async function destinationOf(
  scopes: CopyScopes,
  parentReal: string,
  name: string,
  target: Place,
): Promise<Place> {
  const info = await lstatOrNull(target.real);
  if (!info?.isSymbolicLink()) return target;
  const followed = await followSegments(parentReal, [name], scopes.to.scopeReal);
  const virtual = scopes.to.virtualOf(followed.real);
  if (!allows(scopes, 'to', virtual)) throw errors.forbidden();
  return { ...target, virtual, real: followed.real };
}
