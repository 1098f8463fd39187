import path from 'node:path';
import { isRealInside } from '../../fs/canonical-path.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';

/** Above this many changed paths in one batch, a user is told "anything in your scope". */
export const MAX_PATHS_PER_BATCH = 100;

/**
 * The view paths a user may learn changed, out of real paths seen on disk: those inside the user's
 * scope, and those inside a grant's real folder (docs/teams.md) under the grant's path in the
 * user's view, when every folder on the way and the entry itself are allowed (what a listing or a
 * search would show: inside a grant, the owner's rules and the user's). The paths are real places,
 * so no change is told under an alias; a symlink whose target the rules deny (an alias of a denied
 * folder) is left out as a listing leaves it out. Too many come back as the scope's root.
 */
export async function visibleChanges(fs: ScopedFs, reals: Iterable<string>): Promise<string[]> {
  const all = [...reals];
  const found = new Set<string>();
  const judged: Array<{ view: ScopedFs; virtual: string }> = [];
  const add = (view: ScopedFs, virtual: string): boolean => {
    if (!found.has(virtual)) judged.push({ view, virtual });
    found.add(virtual);
    return found.size > MAX_PATHS_PER_BATCH;
  };
  for (const real of all) {
    const virtual = below(fs.scopeReal, real, '/', (at) => fs.isEntryAllowed(at));
    if (virtual !== null && add(fs, virtual)) return ['/'];
  }
  for (const { view, virtual } of await grantChanges(fs, all)) {
    if (add(view, virtual)) return ['/'];
  }
  const shown: string[] = [];
  for (const { view, virtual } of judged) {
    if (!(await view.isTargetDenied(virtual))) shown.push(virtual);
  }
  return shown;
}

/**
 * The view path of `real` below the folder `top` (shown at `shownTop`), when `allowed` lets each
 * segment on the way be seen; null outside it or when one is hidden.
 */
function below(
  top: string,
  real: string,
  shownTop: string,
  allowed: (virtual: string) => boolean,
): string | null {
  const relative = path.relative(top, real);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  if (relative === '') return shownTop;
  let virtual = shownTop === '/' ? '' : shownTop;
  for (const name of relative.split(path.sep)) {
    virtual = `${virtual}/${name}`;
    if (!allowed(virtual)) return null;
  }
  return virtual;
}

/**
 * Changes inside the user's grants, each judged by the grant's own view. Only grants whose folder
 * (by its root-relative place) holds a changed path are opened.
 */
async function grantChanges(
  fs: ScopedFs,
  reals: string[],
): Promise<Array<{ view: ScopedFs; virtual: string }>> {
  const found: Array<{ view: ScopedFs; virtual: string }> = [];
  for (const mount of await fs.mountList()) {
    const near = path.join(fs.root.realRoot, mount.spec.scope);
    if (!reals.some((real) => isRealInside(real, near))) continue;
    const view = await fs.viewOf(mount.path).catch(() => null);
    if (!view) continue;
    for (const real of reals) {
      if (!isRealInside(real, view.scopeReal)) continue;
      let virtual: string | null;
      if (mount.spec.file !== undefined) {
        // A shared file: only the file itself is the grant's.
        virtual = real === path.join(view.scopeReal, mount.spec.file) ? mount.path : null;
        if (virtual !== null && !view.isEntryAllowed(virtual)) virtual = null;
      } else {
        virtual = below(view.scopeReal, real, mount.path, (at) => view.isEntryAllowed(at));
      }
      if (virtual !== null) found.push({ view, virtual });
    }
  }
  return found;
}
