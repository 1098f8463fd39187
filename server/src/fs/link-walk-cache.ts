import { lstat, readlink } from 'node:fs/promises';
import path from 'node:path';
import { isRealInside } from './canonical-path.ts';
import { errorCode } from './fs-errors.ts';
import { foldersAndLinks, landsInside, linkLeadingOut, type LinkWalk } from './outside-reach.ts';

/**
 * A folder's stamp is trusted only when it was this much older than the walk that read it: file
 * times tick coarsely (a jiffy), so a change made in the same tick as the read would keep it.
 */
const SETTLED_MS = 2_000;
/** Folders remembered at once (the oldest go first). */
const MAX_FOLDERS = 20_000;

/** What one folder held when it was read, under its stamp. */
interface Scan {
  ino: bigint;
  ctimeNs: bigint;
  /** Where its links had to land when they were judged. */
  inside: string;
  /** Its sub-folders (real paths), skips not applied. */
  folders: string[];
  /**
   * Its links: the ones aiming inside `inside` by their text alone (not through a skipped folder)
   * with their verdict, kept while the folder is unchanged; the others judged again each walk,
   * since what lies outside the site may change without any stamp here changing.
   */
  links: Array<{ full: string; target: string; out?: boolean }>;
}

/**
 * `linkLeadingOut` for previews (docs/sites.md, "Hugo"), answering what a fresh walk would while
 * reading only what changed: each folder's listing and link verdicts are kept under its stamp
 * (inode and change time, which any entry added, removed or renamed in it moves and no user can
 * set back), so an unchanged folder costs one lstat instead of a read of its entries. A folder
 * read within the last ticks of the file clock is not kept (a change in the same tick would not
 * move its stamp). A link whose text aims outside the site folder or through a skipped folder is
 * judged again every walk: where it lands depends on files the stamps do not cover.
 */
export class LinkWalkCache {
  private readonly scans = new Map<string, Scan>();

  /** `now`: the wall clock that file times are compared with. */
  constructor(private readonly now: () => number) {}

  linkLeadingOut(folder: string, walk: LinkWalk = {}): Promise<string | undefined> {
    return linkLeadingOut(folder, walk, (dir, inside, skip) => this.scan(dir, inside, skip));
  }

  private async scan(
    dir: string,
    inside: string,
    skip: readonly string[],
  ): Promise<{ link: string | undefined; folders: string[] }> {
    const settled = BigInt(Math.floor(this.now() - SETTLED_MS)) * 1_000_000n;
    // The stamp is taken before the entries are read: a change in between moves it past them.
    const stamp = await lstat(dir, { bigint: true }).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw error;
    });
    if (!stamp?.isDirectory()) return { link: undefined, folders: [] };
    let scan = this.scans.get(dir);
    if (
      !scan ||
      scan.ino !== stamp.ino ||
      scan.ctimeNs !== stamp.ctimeNs ||
      scan.inside !== inside
    ) {
      scan = await read(dir, stamp.ino, stamp.ctimeNs, inside, skip);
      this.scans.delete(dir);
      if (stamp.ctimeNs < settled) this.remember(dir, scan);
    }
    const verdicts = await Promise.all(
      scan.links.map(async (link) => link.out ?? !(await landsInside(link.target, [inside]))),
    );
    const out = scan.links.find((_, i) => verdicts[i]);
    return { link: out && path.relative(inside, out.full), folders: scan.folders };
  }

  private remember(dir: string, scan: Scan): void {
    if (this.scans.size >= MAX_FOLDERS) this.scans.delete(this.scans.keys().next().value!);
    this.scans.set(dir, scan);
  }
}

/** One folder's entries and its links' verdicts (those that may be kept). */
async function read(
  dir: string,
  ino: bigint,
  ctimeNs: bigint,
  inside: string,
  skip: readonly string[],
): Promise<Scan> {
  const { folders, links: names } = await foldersAndLinks(dir);
  const links = await Promise.all(
    names.map(async (full) => {
      const target = path.resolve(dir, await readlink(full));
      const steady =
        isRealInside(target, inside) && !skip.some((skipped) => isRealInside(target, skipped));
      return steady
        ? { full, target, out: !(await landsInside(target, [inside])) }
        : { full, target };
    }),
  );
  return { ino, ctimeNs, inside, folders, links };
}
