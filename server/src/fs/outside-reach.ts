import { readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isRealInside } from './canonical-path.ts';
import { errorCode } from './fs-errors.ts';

/**
 * Where an absolute path really lands: realpath(3) when it exists, else the real path of its
 * nearest existing ancestor with the rest appended (a missing mount source or a dangling link is
 * judged by where it would be).
 */
export async function realLanding(absolute: string): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP') throw error;
    const parent = path.dirname(absolute);
    if (parent === absolute) return absolute;
    return path.join(await realLanding(parent), path.basename(absolute));
  }
}

/** Whether an absolute path, every symlink followed, lands inside one of the real folders `roots`. */
export async function landsInside(absolute: string, roots: readonly string[]): Promise<boolean> {
  const real = await realLanding(absolute);
  return roots.some((root) => isRealInside(real, root));
}

/** What `linkLeadingOut` walks besides the folder itself. */
export interface LinkWalk {
  /** Where links must land (default: the folder walked). */
  inside?: string;
  /** Real folders under the folder not walked (a generator's output, which it never reads). */
  skip?: readonly string[];
}

/**
 * One folder of a link walk: the first link in it leading out of `inside` (relative to it), and
 * its sub-folders. `skip` is the walk's; the walk itself leaves skipped folders out.
 */
export type FolderScan = (
  dir: string,
  inside: string,
  skip: readonly string[],
) => Promise<{ link: string | undefined; folders: string[] }>;

/**
 * The first symlink below the real folder `folder` whose target lands outside it (or outside
 * `walk.inside`), as a path relative to it, or undefined. A program that follows links (Hugo
 * does, in the main project) then reaches only the folder; links that stay inside it keep working.
 * `scan` reads each folder (a preview's cached reads, link-walk-cache.ts).
 */
export async function linkLeadingOut(
  folder: string,
  walk: LinkWalk = {},
  scan: FolderScan = scanFolder,
): Promise<string | undefined> {
  const inside = walk.inside ?? folder;
  const skipped = walk.skip ?? [];
  const skip = new Set(skipped);
  let level = [folder];
  while (level.length > 0) {
    // The folders of one depth are read together: read one after another, a busy machine made
    // the walk as long as the sum of every read's wait for a CPU (a Hugo preview runs this).
    const scanned = await Promise.all(level.map((dir) => scan(dir, inside, skipped)));
    const next: string[] = [];
    for (const { link, folders } of scanned) {
      if (link !== undefined) return link;
      next.push(...folders.filter((sub) => !skip.has(sub)));
    }
    level = next;
  }
  return undefined;
}

/**
 * A folder's sub-folders and symbolic links, as full paths, without following any; nothing when
 * the folder is gone (the walks of this module and of link-walk-cache.ts).
 */
export async function foldersAndLinks(
  dir: string,
): Promise<{ folders: string[]; links: string[] }> {
  const items = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  });
  const folders: string[] = [];
  const links: string[] = [];
  for (const item of items) {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) folders.push(full);
    else if (item.isSymbolicLink()) links.push(full);
  }
  return { folders, links };
}

/** A fresh read of one folder of `linkLeadingOut`'s walk. */
async function scanFolder(
  dir: string,
  inside: string,
): Promise<{ link: string | undefined; folders: string[] }> {
  const { folders, links } = await foldersAndLinks(dir);
  const out = await Promise.all(
    links.map(async (full) => {
      const target = path.resolve(dir, await readlink(full));
      return (await landsInside(target, [inside])) ? undefined : path.relative(inside, full);
    }),
  );
  return { link: out.find((link) => link !== undefined), folders };
}
