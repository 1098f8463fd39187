import path from 'node:path';
import { FILE_TYPE, SlimStat } from '../../fs/entry-stat.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import {
  ScopedFs,
  type KnownHolder,
  type KnownTops,
  type Resolved,
  type Stats,
} from '../../fs/scoped-fs.ts';
import { folderStamp } from '../../tree/read/folder-stamp.ts';
import type { CachedFolder, ListingCache } from '../../tree/listing/listing-cache.ts';

/**
 * The holding folders' own views (no rules: only the listing cache reads through them) and their
 * top, opened once and kept across requests by the service: one per folder holding team folders.
 * They are used only while the folder is still reached through no symlink, checked each time.
 */
export type HolderViews = Map<string, { fs: ScopedFs; dir: Resolved & { stat: Stats } }>;

/** Holding folders kept at most (HolderViews); past it they are opened again. */
const MAX_HOLDERS = 1_000;

/**
 * The tops of the team folders a root listing shows, from the listing cache of the folders that
 * hold them (docs/teams.md, "Cost"): per holding folder, one realpath (it is reached through no
 * symlink) beside the stamp the cache checks, whatever the number of team folders in it. The
 * cache serves a folder only while its stamp is unchanged and its watches report every change: a
 * team folder deleted, renamed or replaced by a link changes its holder's stamp; one written into
 * is reported by the watches and stat'ed again. Either way the cache hands out another
 * CachedFolder, the `source` the root's entries are kept against (MountedParts). What it cannot
 * tell (a folder not watched, a name it does not hold) is read from the disk as before.
 */
export function knownTops(
  root: FileRoot,
  cache: ListingCache | undefined,
  views: HolderViews,
): KnownTops | undefined {
  if (!cache || cache.capacity <= 0) return undefined;
  return async (holder) => {
    try {
      // The stamp is taken beside the realpath, not after it (one trip to the thread pool less),
      // and before the cache is asked: a change after it makes the cached folder look stale,
      // never fresh. Reached through a link: its team folders are followed hop by hop instead.
      const [real, stamp] = await Promise.all([
        ScopedFs.directPath(root, holder),
        folderStamp(ScopedFs.lexicalPath(root, holder)),
      ]);
      if (!real || !stamp) return null;
      let view = views.get(holder);
      if (!view || view.fs.scopeReal !== real) {
        const fs = await ScopedFs.open(root, { scope: holder, rules: [], hideDotfiles: false });
        const dir = await fs.stat('/');
        if (fs.scopeReal !== real || !dir.stat.isDirectory()) return null;
        view = { fs, dir };
        if (views.size >= MAX_HOLDERS) views.clear();
        views.set(holder, view);
      }
      // Only the folder's real path counts on a hit (its stamp is the one just taken).
      const folder = await cache.folder(view.fs, view.dir, { stamp });
      return folder && holderOf(real, folder);
    } catch {
      return null;
    }
  };
}

function holderOf(real: string, folder: CachedFolder): KnownHolder {
  return {
    source: folder,
    top(name) {
      const i = indexOf(folder.names, name);
      // A name the cache does not hold (gone, or spelled in another case) is asked of the disk.
      if (i < 0) return undefined;
      const mode = folder.modes[i]!;
      if ((mode & FILE_TYPE.S_IFMT) === FILE_TYPE.S_IFLNK) return undefined;
      return {
        real: path.join(real, folder.names[i]!),
        stat: new SlimStat(folder.sizes[i]!, folder.mtimes[i]!, mode),
      };
    },
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
