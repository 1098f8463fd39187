import { mkdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errors } from '../errors.ts';

/**
 * Creates a user's home folder `<root>/<scope>` (and its parents). The scope is joined lexically
 * under the root so `..` cannot leave it, and the created folder's real path must still be inside
 * the root, so a symlink planted on the way cannot redirect the home elsewhere.
 */
export async function ensureHomeDir(root: string, scope: string): Promise<void> {
  const rootReal = await realpath(root);
  const target = path.join(rootReal, path.posix.normalize(`/${scope}`));
  await mkdir(target, { recursive: true, mode: 0o750 });
  const real = await realpath(target);
  if (real !== rootReal && !real.startsWith(rootReal + path.sep)) {
    throw errors.forbidden('home folder resolves outside the root');
  }
}
