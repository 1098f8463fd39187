import path from 'node:path';
import { FILE_TYPE, SlimStat } from '../../fs/entry-stat.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import { ScopedFs, type KnownTop } from '../../fs/scoped-fs.ts';
import type { CachedFolder, ListingCache } from '../../tree/listing/listing-cache.ts';

/**
 * The tops of the team folders a root listing shows, from the listing cache of the folders that
 * hold them (docs/teams.md, "Cost"): per holding folder, one realpath (it is reached through no
 * symlink), one lstat and the cache's stamp, whatever the number of team folders in it. The
 * cache serves a folder only while its stamp is unchanged and its watches report every change:
 * a team folder deleted, renamed or replaced by a link changes its holder's stamp; one written
 * into is reported by the watches and stat'ed again. What it cannot tell (a folder not watched, a
 * name it does not hold) is read from the disk as before. One per request.
 */
export function knownTops(root: FileRoot, cache: ListingCache | undefined): KnownTop | undefined {
  if (!cache || cache.capacity <= 0) return undefined;
  const holders = new Map<string, Promise<{ real: string; folder: CachedFolder } | null>>();
  const holder = async (scope: string) => {
    const fs = await ScopedFs.open(root, { scope, rules: [], hideDotfiles: false });
    const real = path.join(root.realRoot, scope);
    // Reached through a link: its team folders are followed hop by hop instead.
    if (fs.scopeReal !== real) return null;
    const dir = await fs.stat('/');
    if (!dir.stat.isDirectory()) return null;
    const folder = await cache.folder(fs, dir);
    return folder && { real, folder };
  };
  return async (mount) => {
    const scope = mount.spec.scope;
    if (mount.spec.kind !== 'team' || scope === '/') return undefined;
    const parent = path.posix.dirname(scope);
    let held = holders.get(parent);
    if (!held) {
      held = holder(parent).catch(() => null);
      holders.set(parent, held);
    }
    const found = await held;
    if (!found) return undefined;
    const { folder } = found;
    const i = indexOf(folder.names, path.posix.basename(scope));
    // A name the cache does not hold (gone, or spelled in another case) is asked of the disk.
    if (i < 0) return undefined;
    const mode = folder.modes[i]!;
    if ((mode & FILE_TYPE.S_IFMT) === FILE_TYPE.S_IFLNK) return undefined;
    return {
      real: path.join(found.real, folder.names[i]!),
      stat: new SlimStat(folder.sizes[i]!, folder.mtimes[i]!, mode),
    };
  };
}

/** The index of `name` in names sorted by code unit, or -1. */
function indexOf(names: readonly string[], name: string): number {
  let low = 0;
  let high = names.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = names[mid]!;
    if (at === name) return mid;
    if (at < name) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
