import { sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../file-kinds/file-type.ts';
import { readSortedNames, statChildren } from '../read/child-stats.ts';
import type { FindStats } from '../read/find-stats.ts';
import { FolderChildren } from '../read/folder-children.ts';
import type { FolderStamp } from '../read/folder-stamp.ts';
import type { Resolved } from '../../fs/scoped-fs.ts';
import { isTempName } from '../../fs/temp-files.ts';
import { build, packedFolder, STRING_OVERHEAD, type CachedFolder } from './listing-cache.ts';

/**
 * A cached folder brought up to date after it changed, instead of read again whole (the folder a
 * user works in changes before most of its listings). Its names are read again (one directory
 * read, no stat), so every name added, removed or renamed since is known for sure; only the new
 * names and those the watches reported changed (`dirty`: written in place, chmod, a child
 * folder's content) are stat'ed, and every other child keeps the numbers the cache held, which is
 * what a cache hit serves too. `stamp` was taken before the names are read. Null when the folder
 * can no longer be cached (a symlink or subtitles appeared, too many children) or is gone.
 */
export async function patchFolder(
  dir: Resolved,
  old: CachedFolder,
  stamp: FolderStamp,
  dirty: ReadonlySet<string>,
  maxCount: number,
  finder: FindStats,
): Promise<Patched | null> {
  let names: string[];
  try {
    names = await readSortedNames(dir.real);
  } catch {
    return null;
  }
  // Both lists are in code-unit order: one merge finds what each name was (-1: stat'ed now, -2:
  // a temp file, not listed). Most names equal the next old one, which is tried first.
  const fromOld = new Int32Array(names.length);
  const toStat: string[] = [];
  const oldNames = old.names;
  const checkDirty = dirty.size > 0;
  let present = 0;
  let j = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (isTempName(name)) {
      fromOld[i] = -2;
      continue;
    }
    present++;
    if (j < oldNames.length && oldNames[j] !== name) {
      while (j < oldNames.length && oldNames[j]! < name) j++;
    }
    const known = j < oldNames.length && oldNames[j] === name;
    if (known && !(checkDirty && dirty.has(name))) fromOld[i] = j;
    else {
      fromOld[i] = -1;
      toStat.push(name);
    }
    if (known) j++;
  }
  if (present > maxCount) return null;
  const stats =
    toStat.length > 0
      ? new FolderChildren(
          dir,
          toStat,
          await statChildren(dir.real, toStat, {
            finder,
            wantHead: sniffsByName,
            headBytes: SNIFF_BYTES,
            headMaxSize: TEXT_LIMIT_BYTES,
          }),
        )
      : null;
  // In the order of `toStat` (code-unit order): `build` keeps it, leaving out what vanished.
  const fresh =
    stats && build(dir.real, stamp, [{ children: stats, order: toStat.map((_, k) => k) }]);
  if (stats && !fresh) return null; // a symlink, or too many hard links
  // The columns in name order: kept rows copied from the old folder, the others from `fresh`.
  const kept = new Array<string>(present);
  const isDir = new Uint8Array(present);
  const sizes = new Float64Array(present);
  const mtimes = new Float64Array(present);
  const modes = new Uint32Array(present);
  const types = new Uint8Array(present);
  const linked: number[] = [];
  const oldToNew = new Int32Array(oldNames.length).fill(-1);
  const inserted: number[] = [];
  let nameBytes = 0;
  let oldLinked = 0; // next of old.linked (ascending, as the old rows are met)
  let freshAt = 0;
  let freshLinked = 0;
  let count = 0;
  for (let i = 0; i < names.length; i++) {
    const from = fromOld[i]!;
    let source: CachedFolder;
    let at: number;
    if (from >= 0) {
      source = old;
      at = from;
      oldToNew[at] = count;
      while (oldLinked < old.linked.length && old.linked[oldLinked]! < at) oldLinked++;
      if (old.linked[oldLinked] === at) linked.push(count);
    } else if (from === -1 && fresh && fresh.names[freshAt] === names[i]) {
      source = fresh;
      at = freshAt++;
      inserted.push(count);
      while (freshLinked < fresh.linked.length && fresh.linked[freshLinked]! < at) freshLinked++;
      if (fresh.linked[freshLinked] === at) linked.push(count);
    } else continue; // a temp file, or vanished before its stat
    const name = source.names[at]!;
    kept[count] = name;
    nameBytes += STRING_OVERHEAD + name.length * 2;
    isDir[count] = source.isDir[at]!;
    sizes[count] = source.sizes[at]!;
    mtimes[count] = source.mtimes[at]!;
    modes[count] = source.modes[at]!;
    types[count] = source.types[at]!;
    count++;
  }
  const columns =
    count === present
      ? { isDir, sizes, mtimes, modes, types }
      : {
          isDir: isDir.slice(0, count),
          sizes: sizes.slice(0, count),
          mtimes: mtimes.slice(0, count),
          modes: modes.slice(0, count),
          types: types.slice(0, count),
        };
  kept.length = count;
  const folder = packedFolder(old.key, stamp, kept, columns, Uint32Array.from(linked), {
    nameBytes,
    videos: old.videos || (fresh?.videos ?? false),
    subtitles: old.subtitles || (fresh?.subtitles ?? false),
  });
  if (!folder) return null;
  return { folder, oldToNew, inserted };
}

/** A patched folder, with where each old child went (-1: gone or stat'ed again) and the new ones. */
export interface Patched {
  readonly folder: CachedFolder;
  readonly oldToNew: Int32Array;
  /** Children of `folder` stat'ed now (added, or reported changed). */
  readonly inserted: readonly number[];
}
