import type { Stats } from 'node:fs';
import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';
import { isRealInside } from './canonical-path.ts';
import { errorCode, toAppError } from './fs-errors.ts';

/** Symlink hops allowed while resolving one path (Linux's own limit is 40; filebrowser uses 255). */
export const MAX_SYMLINK_HOPS = 255;

/** Where a path really lands. */
export interface RealTarget {
  /** Absolute real path (every symlink followed); for a missing path, where it would be created. */
  real: string;
  /** Stat of the target, or null when it does not exist (including a dangling symlink). */
  stat: Stats | null;
}

/**
 * Follows `segments` from the real folder `start`, one component and one symlink hop at a time,
 * and refuses (403) any result outside `confine`. Unlike realpath(3) it also resolves dangling links
 * and paths that do not exist yet, so that a write through `link -> /etc/x` or `dir-link/new-file`
 * is judged by where it would really land (GHSA-239w-m3h6-ch8v).
 */
export async function followSegments(
  start: string,
  segments: readonly string[],
  confine: string,
): Promise<RealTarget> {
  let current = start;
  const queue = [...segments];
  let hops = 0;
  while (queue.length > 0) {
    const segment = queue.shift()!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    let info: Stats;
    try {
      info = await lstat(next);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw toAppError(error);
      // Nothing exists from here on, so no further symlink can redirect the rest.
      const missing = path.resolve(next, ...queue);
      if (!isRealInside(missing, confine)) throw errors.forbidden();
      return { real: missing, stat: null };
    }
    if (info.isSymbolicLink()) {
      if (++hops > MAX_SYMLINK_HOPS) throw errors.forbidden();
      const target = await readlink(next);
      if (path.isAbsolute(target)) current = path.parse(target).root;
      queue.unshift(...target.split(/[\\/]+/));
      continue;
    }
    if (queue.length > 0 && !info.isDirectory()) throw errors.notFound();
    current = next;
  }
  if (!isRealInside(current, confine)) throw errors.forbidden();
  return { real: current, stat: await lstat(current) };
}

/**
 * Resolves a real folder reached by lexically safe `segments` below the real folder `start`.
 * Uses realpath(3) for the common case and the hop-by-hop walk when a component is missing or
 * dangling. Returns null stat when the folder does not exist.
 */
export async function resolveFolder(
  start: string,
  segments: readonly string[],
  confine: string,
): Promise<RealTarget> {
  if (segments.length === 0) return { real: start, stat: await lstat(start) };
  try {
    const real = await realpath(path.join(start, ...segments));
    if (!isRealInside(real, confine)) throw errors.forbidden();
    return { real, stat: await lstat(real) };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT') return followSegments(start, segments, confine);
    if (code === 'ENOTDIR') throw errors.notFound();
    throw toAppError(error);
  }
}
