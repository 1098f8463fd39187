import type { Stats } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { isRealInside, joinVirtual, virtualOfReal } from './canonical-path.ts';
import { copyFileAtomic } from './atomic-write.ts';
import type { FileRoot } from './file-root.ts';
import { errorCode, lstatOrNull, toAppError } from './fs-errors.ts';
import { followSegments } from './real-path.ts';
import type { Resolved, ScopeResolver } from './scope-resolver.ts';
import { isTempName } from './temp-files.ts';

/** One step of a copy, decided (and rule-checked) before anything is written. */
export type CopyStep =
  | { kind: 'dir'; to: string; mode: number }
  | { kind: 'file'; from: string; to: string; mode: number; size: number };

/** How a caller follows and stops a copy (background jobs, docs/jobs.md). */
export interface CopyControl {
  /** Checked before each step; a file being copied when it aborts is dropped, never renamed. */
  signal?: AbortSignal;
  /** File steps an earlier run already copied: skipped (their folders are still made). */
  skipFiles?: number;
  /** Called with the plan before anything is written. */
  onPlan?: (files: number, bytes: number) => void | Promise<void>;
  /** Called after each file landed under its final name, with its size. */
  onFile?: (bytes: number) => void | Promise<void>;
}

interface Place {
  /** Virtual path used for rule checks. */
  virtual: string;
  /** Real path. */
  real: string;
}

/**
 * Plans a copy of `source` onto `destination`: walks the source (following in-scope links as
 * content, never following escaping or dangling ones), checks every item's own virtual path and its
 * destination counterpart against the rules, and refuses type clashes and destination links that
 * leave the scope. Throws before a single byte is written.
 */
export async function planCopy(
  scope: ScopeResolver,
  source: Resolved,
  destination: Resolved,
): Promise<CopyStep[]> {
  const steps: CopyStep[] = [];
  if (!source.stat) throw errors.notFound();
  const from: Place = { virtual: scope.virtualOf(source.real), real: source.real };
  const to: Place = { virtual: destination.path, real: destination.real };
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

async function planFolder(
  scope: ScopeResolver,
  from: Place,
  to: Place,
  info: Stats,
  steps: CopyStep[],
  visiting: Set<string>,
  topSource: string,
): Promise<void> {
  const existing = await lstatOrNull(to.real);
  if (existing && !existing.isDirectory()) throw errors.conflict();
  steps.push({ kind: 'dir', to: to.real, mode: info.mode });
  let names: string[];
  try {
    names = (await readdir(from.real)).sort();
  } catch (error) {
    throw toAppError(error);
  }
  for (const name of names) {
    if (isTempName(name)) continue;
    const child: Place = {
      virtual: joinVirtual(from.virtual, name),
      real: path.join(from.real, name),
    };
    const target: Place = {
      virtual: joinVirtual(to.virtual, name),
      real: path.join(to.real, name),
    };
    if (!scope.rulesAllow(child.virtual) || !scope.rulesAllow(target.virtual))
      throw errors.forbidden();
    let childInfo = await lstatOrNull(child.real);
    if (!childInfo) continue;
    if (childInfo.isSymbolicLink()) {
      let followed;
      try {
        followed = await followSegments(from.real, [name], scope.scopeReal);
      } catch {
        continue; // Escaping or looping links are never followed.
      }
      if (!followed.stat) continue; // Dangling: nothing to copy.
      const followedVirtual = virtualOfReal(followed.real, scope.scopeReal);
      if (!scope.rulesAllow(followedVirtual)) throw errors.forbidden();
      child.real = followed.real;
      child.virtual = followedVirtual;
      childInfo = followed.stat;
      // A link back to a folder being copied would recurse forever.
      if (
        childInfo.isDirectory() &&
        (visiting.has(child.real) || isRealInside(topSource, child.real))
      ) {
        continue;
      }
    }
    const destination = await destinationOf(scope, to.real, name, target);
    if (childInfo.isDirectory()) {
      visiting.add(child.real);
      await planFolder(scope, child, destination, childInfo, steps, visiting, topSource);
      visiting.delete(child.real);
    } else if (childInfo.isFile()) {
      const existing = await lstatOrNull(destination.real);
      if (existing?.isDirectory()) throw errors.conflict();
      steps.push({
        kind: 'file',
        from: child.real,
        to: destination.real,
        mode: childInfo.mode,
        size: childInfo.size,
      });
    }
    // Pipes, sockets and devices are not copied.
  }
}

/** Where a child lands: through an existing in-scope destination link, never out of the scope. */
async function destinationOf(
  scope: ScopeResolver,
  parentReal: string,
  name: string,
  target: Place,
): Promise<Place> {
  const info = await lstatOrNull(target.real);
  if (!info?.isSymbolicLink()) return target;
  const followed = await followSegments(parentReal, [name], scope.scopeReal);
  const virtual = virtualOfReal(followed.real, scope.scopeReal);
  if (!scope.rulesAllow(virtual)) throw errors.forbidden();
  return { virtual, real: followed.real };
}

/**
 * Carries out a plan: folders first as met, each file copied atomically over its target. With a
 * `control`, reports each file and stops at its signal (between files, or dropping the file in
 * flight), skipping the files an earlier run copied.
 */
export async function runCopyPlan(
  steps: CopyStep[],
  root: FileRoot,
  control: CopyControl = {},
): Promise<void> {
  const { signal, onFile } = control;
  if (control.onPlan) {
    const files = steps.filter((step) => step.kind === 'file');
    await control.onPlan(
      files.length,
      files.reduce((sum, step) => sum + step.size, 0),
    );
  }
  let toSkip = control.skipFiles ?? 0;
  for (const step of steps) {
    signal?.throwIfAborted();
    if (step.kind === 'dir') {
      try {
        await mkdir(step.to, { recursive: true, mode: root.dirMode });
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw toAppError(error);
      }
    } else if (toSkip > 0) {
      toSkip -= 1;
    } else {
      await copyFileAtomic(step.from, step.to, step.mode, root.journal, signal);
      await onFile?.(step.size);
    }
  }
}
