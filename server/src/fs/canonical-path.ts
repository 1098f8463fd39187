import path from 'node:path';
import { errors } from '../errors.ts';

/** A user-visible path after canonicalisation. */
export interface CanonicalPath {
  /** Leading `/`, no `.`/`..`/`//` segments, no trailing `/` (the root is `/`). */
  path: string;
  /** The request ended in `/` (POST uses it to mean "create a folder"); never set for the root. */
  trailingSlash: boolean;
  /** The path's segments, empty for the root. */
  segments: string[];
}

/**
 * Canonicalises an already percent-decoded virtual path. It is never decoded again here: the router
 * decodes once, and decoding twice is how `%252e%252e` style escapes slip past checks.
 * Only `/` separates segments: on POSIX a backslash is an ordinary byte of a name, so `..\\x` is one
 * name, never a step up (docs/scoped-fs.md, "Names"). Containment therefore never depends on
 * treating `\\` as a separator: `..` cannot climb above the scope root because the path is cleaned
 * as an absolute one with `/` only, and the real path is checked against the root again after
 * links are resolved. NUL bytes are refused outright: they truncate paths in C APIs and are never
 * part of a real name.
 */
export function canonicalPath(raw: string): CanonicalPath {
  if (raw.includes('\0')) throw errors.badRequest('invalid path');
  const cleaned = path.posix.normalize(`/${raw}`);
  const trimmed = cleaned.length > 1 && cleaned.endsWith('/') ? cleaned.slice(0, -1) : cleaned;
  const segments = trimmed === '/' ? [] : trimmed.slice(1).split('/');
  return { path: trimmed, trailingSlash: trimmed !== '/' && raw.endsWith('/'), segments };
}

/** Joins a canonical virtual folder and a child name. */
export function joinVirtual(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

/** The base name of a canonical virtual path (`""` for the root). */
export function virtualBaseName(virtual: string): string {
  return virtual === '/' ? '' : virtual.slice(virtual.lastIndexOf('/') + 1);
}

/** The parent of a canonical virtual path (the root is its own parent). */
export function virtualParent(virtual: string): string {
  const index = virtual.lastIndexOf('/');
  return index <= 0 ? '/' : virtual.slice(0, index);
}

/** True when `inner` equals `outer` or lies below it, on segment boundaries. */
export function isVirtualInside(inner: string, outer: string): boolean {
  if (outer === '/') return true;
  return inner === outer || inner.startsWith(`${outer}/`);
}

/** True when an absolute real path equals `root` or lies below it, on segment boundaries. */
export function isRealInside(real: string, root: string): boolean {
  if (root === path.sep) return real.startsWith(path.sep);
  return real === root || real.startsWith(root + path.sep);
}

/** The virtual path of a real path inside `root` (which must hold). */
export function virtualOfReal(real: string, root: string): string {
  const relative = path.relative(root, real);
  return relative === '' ? '/' : `/${relative.split(path.sep).join('/')}`;
}
