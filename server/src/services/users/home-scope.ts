import path from 'node:path';
import { errors } from '../../errors.ts';

/**
 * The home scope derived from a username: spaces trimmed, `..` dropped, any
 * character outside `[0-9A-Za-z@_.-]` replaced by `-`, runs of dashes collapsed, then joined under
 * the home base path. Names that would leave nothing usable are refused.
 */
export function deriveHomeScope(basePath: string, username: string): string {
  const name = username
    .trim()
    .replaceAll('..', '')
    .replace(/[^0-9A-Za-z@_.-]/g, '-')
    .replace(/-+/g, '-');
  if (name === '' || name === '-' || name === '.') {
    throw errors.badRequest('this username cannot be used as a home folder name');
  }
  return path.posix.join('/', basePath || '/users', name);
}

/** Scopes compared the way a case-insensitive file system would see them. */
export function sameScope(a: string, b: string): boolean {
  const norm = (s: string) => path.posix.normalize(`/${s}/`).toLowerCase();
  return norm(a) === norm(b);
}
