import { lstat, stat } from 'node:fs/promises';

/**
 * What one `stat` of a folder says about its identity and its last change, in nanoseconds: a
 * cached listing of the folder is served only while a new stamp equals the one taken before the
 * folder was read (docs/benchmarks.md, "Listing cache"). Any name added, removed or renamed in the
 * folder changes its mtime and ctime; a folder replaced at the same path has another inode.
 */
export interface FolderStamp {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  /**
   * The stamp may not tell a later change from this state: it was taken so soon after the
   * folder's last change that another change could get the same timestamps (file systems stamp
   * with a clock that ticks every few milliseconds, "racy git"). A cache keeps such a folder only
   * to read its names again before it serves it.
   */
  readonly racy: boolean;
}

/** The device and inode a folder is known by (watches, cached folders, the name index). */
export interface FolderIdentity {
  readonly dev: bigint;
  readonly ino: bigint;
}

/**
 * Changes this close (in ns) to the stamp's taking may share its timestamps: Linux stamps files
 * with its coarse clock, one tick (1 to 10 ms) apart; the margin covers a slow tick and a stat
 * delayed in the thread pool.
 */
const RACY_NS = 25_000_000n;

/** The stamp of the folder at a real path now (following links), or null when it is gone. */
export async function folderStamp(real: string): Promise<FolderStamp | null> {
  // The clock is read before the stat: a change the stat missed has a later time than this.
  const before = BigInt(Date.now()) * 1_000_000n;
  const info = await stat(real, { bigint: true }).catch(() => null);
  if (!info) return null;
  const last = info.mtimeNs > info.ctimeNs ? info.mtimeNs : info.ctimeNs;
  return {
    dev: info.dev,
    ino: info.ino,
    mtimeNs: info.mtimeNs,
    ctimeNs: info.ctimeNs,
    racy: before - last < RACY_NS,
  };
}

/** Whether two stamps are of the same folder in the same state. */
export function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Whether two identities are of the same folder. */
export function sameFolder(a: FolderIdentity, b: FolderIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** The identity of the entry at a real path (not following a last link), or null when gone. */
export async function identityOf(real: string): Promise<FolderIdentity | null> {
  const info = await lstat(real, { bigint: true }).catch(() => null);
  return info ? { dev: info.dev, ino: info.ino } : null;
}

/** Numbers of a file as a listing shows them, or null when it is gone. */
export interface ShownNumbers {
  readonly size: number;
  readonly mtimeMs: number;
  readonly mode: number;
}

/**
 * The listing's numbers of some children of a folder, read now with `lstat` (the hard-linked
 * files of a cached folder: a write through another link raises no event in this folder).
 */
export async function shownNumbers(
  real: string,
  names: readonly string[],
): Promise<(ShownNumbers | null)[]> {
  return Promise.all(
    names.map((name) =>
      lstat(`${real === '/' ? '' : real}/${name}`)
        .then((info) => ({ size: info.size, mtimeMs: info.mtimeMs, mode: info.mode }))
        .catch(() => null),
    ),
  );
}
