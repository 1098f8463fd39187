import path from 'node:path';
import { sniffsByName, SNIFF_BYTES, TEXT_LIMIT_BYTES } from '../../files/file-type.ts';
import { readTypedNames, statChildren } from '../../fs/child-stats.ts';
import { FolderChildren } from '../../fs/folder-children.ts';
import type { FolderStamp } from '../../fs/folder-stamp.ts';
import type { Resolved } from '../../fs/scoped-fs.ts';
import { isTempName } from '../../fs/temp-files.ts';
import { build, folderFromColumns, type CachedFolder } from './listing-cache.ts';

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
): Promise<Patched | null> {
  let names: string[];
  try {
    names = (await readTypedNames(dir.real)).names().filter((name) => !isTempName(name));
  } catch {
    return null;
  }
  if (names.length > maxCount) return null;
  names.sort();
  // Both lists are in code-unit order: one merge finds what each name was.
  const fromOld = new Int32Array(names.length).fill(-1);
  const toStat: string[] = [];
  let j = 0;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    while (j < old.names.length && old.names[j]! < name) j++;
    if (j < old.names.length && old.names[j] === name && !dirty.has(name)) fromOld[i] = j;
    else toStat.push(name);
  }
  const stats =
    toStat.length > 0
      ? new FolderChildren(
          dir,
          toStat,
          await statChildren(dir.real === path.sep ? '' : dir.real, path.sep, toStat, {
            wantHead: sniffsByName,
            headBytes: SNIFF_BYTES,
            headMaxSize: TEXT_LIMIT_BYTES,
          }),
        )
      : null;
  const fresh =
    stats && build(dir.real, stamp, [{ children: stats, order: toStat.map((_, k) => k) }]);
  if (stats && !fresh) return null; // a symlink, or too many hard links
  const linkedBefore = new Set(old.linked);
  // The rows in name order: kept ones from the old folder, the others from `fresh` (present only).
  const rows: { from: CachedFolder; at: number }[] = [];
  let k = 0;
  for (let i = 0; i < names.length; i++) {
    if (fromOld[i]! >= 0) rows.push({ from: old, at: fromOld[i]! });
    else if (fresh && k < fresh.names.length && fresh.names[k] === names[i]) {
      rows.push({ from: fresh, at: k++ });
    }
  }
  const count = rows.length;
  const linked: number[] = [];
  const isDir = new Uint8Array(count);
  const sizes = new Float64Array(count);
  const mtimes = new Float64Array(count);
  const modes = new Uint32Array(count);
  const types = new Uint8Array(count);
  const kept = new Array<string>(count);
  const freshLinked = new Set(fresh?.linked ?? []);
  for (let r = 0; r < count; r++) {
    const { from, at } = rows[r]!;
    kept[r] = from.names[at]!;
    isDir[r] = from.isDir[at]!;
    sizes[r] = from.sizes[at]!;
    mtimes[r] = from.mtimes[at]!;
    modes[r] = from.modes[at]!;
    types[r] = from.types[at]!;
    if ((from === old ? linkedBefore : freshLinked).has(at)) linked.push(r);
  }
  const folder = folderFromColumns(
    old.key,
    stamp,
    kept,
    { isDir, sizes, mtimes, modes, types },
    linked,
  );
  if (!folder) return null;
  const oldToNew = new Int32Array(old.names.length).fill(-1);
  const inserted: number[] = [];
  for (let r = 0; r < count; r++) {
    const { from, at } = rows[r]!;
    if (from === old) oldToNew[at] = r;
    else inserted.push(r);
  }
  return { folder, oldToNew, inserted };
}

/** A patched folder, with where each old child went (-1: gone or stat'ed again) and the new ones. */
export interface Patched {
  readonly folder: CachedFolder;
  readonly oldToNew: Int32Array;
  /** Children of `folder` stat'ed now (added, or reported changed). */
  readonly inserted: readonly number[];
}
