import path from 'node:path';
import type { ScopedFs } from '../../fs/scoped-fs.ts';

/** Above this many changed paths in one batch, a user is told "anything in your scope". */
export const MAX_PATHS_PER_BATCH = 100;

/**
 * The scope paths a user may learn changed, out of real paths seen on disk: only those inside the
 * user's scope whose every folder on the way, and the entry itself, the rules and hideDotfiles
 * allow (what a listing or a search would show). The paths are real places, so no change is told
 * under an alias; a symlink whose target the rules deny (an alias of a denied folder) is left out
 * as a listing leaves it out. Too many come back as the scope's root.
 */
export async function visibleChanges(fs: ScopedFs, reals: Iterable<string>): Promise<string[]> {
  const scope = fs.scopeReal;
  const found = new Set<string>();
  for (const real of reals) {
    const relative = path.relative(scope, real);
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    if (relative === '') {
      found.add('/');
      continue;
    }
    let virtual = '';
    let allowed = true;
    for (const name of relative.split(path.sep)) {
      virtual = `${virtual}/${name}`;
      if (!fs.isEntryAllowed(virtual)) {
        allowed = false;
        break;
      }
    }
    if (!allowed) continue;
    found.add(virtual);
    if (found.size > MAX_PATHS_PER_BATCH) return ['/'];
  }
  const shown: string[] = [];
  for (const virtual of found) if (!(await fs.isTargetDenied(virtual))) shown.push(virtual);
  return shown;
}
