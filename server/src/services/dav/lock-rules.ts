import type { DavLock } from '../../coordination/index.ts';

/** True when `inner` lies strictly below `outer` (paths from the served root). */
export function isBelow(inner: string, outer: string): boolean {
  return outer === '/' ? inner !== '/' : inner.startsWith(`${outer}/`);
}

/** Locks on `path` itself or on an ancestor with Depth: infinity. */
export function locksCovering(locks: readonly DavLock[], path: string): DavLock[] {
  return locks.filter((l) => l.path === path || (l.deep && isBelow(path, l.path)));
}

/** Locks on anything below `path`. */
export function locksBelow(locks: readonly DavLock[], path: string): DavLock[] {
  return locks.filter((l) => isBelow(l.path, path));
}

/** Locks that a new lock on `path` would conflict with (an exclusive one conflicts with any). */
export function conflictingLocks(
  locks: readonly DavLock[],
  path: string,
  deep: boolean,
  shared: boolean,
): DavLock[] {
  const overlapping = [...locksCovering(locks, path), ...(deep ? locksBelow(locks, path) : [])];
  return overlapping.filter((l) => !shared || !l.shared);
}

/**
 * Locks that keep `userId` from changing what `paths` name: every locked root among them needs one
 * of its locks' tokens submitted by that lock's owner. Returns the locks left unsatisfied.
 */
export function unsatisfiedLocks(
  relevant: readonly DavLock[],
  submitted: readonly string[],
  userId: number,
): DavLock[] {
  const byPath = new Map<string, DavLock[]>();
  for (const lock of relevant) byPath.set(lock.path, [...(byPath.get(lock.path) ?? []), lock]);
  const left: DavLock[] = [];
  for (const group of byPath.values()) {
    const ok = group.some((l) => l.userId === userId && submitted.includes(l.token));
    if (!ok) left.push(...group);
  }
  return left;
}

/** Seconds a lock lasts: the client's first acceptable `Second-n`, capped; default 10 minutes. */
export function lockTimeout(header: string | undefined): number {
  const MAX = 7 * 24 * 3600;
  const DEFAULT = 600;
  if (!header) return DEFAULT;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return MAX;
    const match = /^second-(\d+)$/i.exec(value);
    if (match) return Math.max(1, Math.min(MAX, Number(match[1])));
  }
  return DEFAULT;
}
