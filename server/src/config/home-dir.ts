import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { errors } from '../errors.ts';

/**
 * Creates a user's home folder `<root>/<scope>` (and its parents). The scope is joined lexically
 * under the root so `..` cannot leave it, and the created folder's real path must still be inside
 * the root, so a symlink planted on the way cannot redirect the home elsewhere.
 */
export function ensureHomeDir(root: string, scope: string): void {
  const rootReal = realpathSync(root);
  const target = path.join(rootReal, path.posix.normalize(`/${scope}`));
  mkdirSync(target, { recursive: true, mode: 0o750 });
  const real = realpathSync(target);
  if (real !== rootReal && !real.startsWith(rootReal + path.sep)) {
    throw errors.forbidden('home folder resolves outside the root');
  }
}
