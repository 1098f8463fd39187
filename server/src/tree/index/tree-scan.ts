import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { NameTable } from './name-table.ts';

export interface ScanOptions {
  /** Called for every folder before it is read, so no change inside it is missed. */
  watch?: (real: string) => void;
  /** Stops the scan (server closing). */
  signal?: AbortSignal;
  /** A fresh table has no entries below the start: skip the lookups that make scans idempotent. */
  fresh?: boolean;
}

interface EntryType {
  isDir: boolean;
  isLink: boolean;
}

const DIR: EntryType = { isDir: true, isLink: false };
const LINK: EntryType = { isDir: false, isLink: true };
const OTHER: EntryType = { isDir: false, isLink: false };

/** Folder, link or other from the directory entry, or null when the file system did not say. */
function knownType(dirent: Dirent): EntryType | null {
  if (dirent.isDirectory()) return DIR;
  if (dirent.isSymbolicLink()) return LINK;
  if (dirent.isFile() || dirent.isFIFO() || dirent.isSocket()) return OTHER;
  return null;
}

/** The type by lstat, for file systems whose directory entries carry none. */
async function statType(real: string): Promise<EntryType> {
  const info = await lstat(real).catch(() => null);
  if (info?.isDirectory()) return DIR;
  return info?.isSymbolicLink() ? LINK : OTHER;
}

/** Folders read at once: enough to keep libuv's four threads busy while results are added. */
const READS_IN_FLIGHT = 8;

/** A folder's entries sorted by name, or null when it is unreadable or gone. */
async function readSorted(real: string): Promise<Dirent[] | null> {
  try {
    const dirents = await readdir(real, { withFileTypes: true });
    return dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return null; // Unreadable or vanished folders are left out, as listings leave them out.
  }
}

/**
 * Adds everything below a folder to the table, breadth first with names sorted, so the blob holds
 * shallow names before deep ones: a linear scan then meets results in depth order. Reads names and
 * entry types only (no stat per file); symlinked folders are recorded but not followed.
 *
 * Up to READS_IN_FLIGHT folders of a level are read at once, their entries added in queue order
 * (so the order stays the same). One awaited readdir at a time made a build as long as 20,000
 * round trips through the thread pool, each waiting for the main thread to be scheduled again: on
 * a busy machine that wait, not the disk, was most of the first build. Each folder is still its
 * own step, so the server keeps answering while a big tree is scanned. Returns the number of
 * entries added.
 */
export async function scanTree(
  table: NameTable,
  startId: number,
  startReal: string,
  options: ScanOptions = {},
): Promise<number> {
  let added = 0;
  let queue: [number, string][] = [[startId, startReal]];
  while (queue.length > 0) {
    const next: [number, string][] = [];
    const reads: (Promise<Dirent[] | null> | null)[] = [];
    let issued = 0;
    const issue = () => {
      const [id, real] = queue[issued++]!;
      if (!table.isAlive(id)) return reads.push(null);
      options.watch?.(real); // Before the folder is read, so no change inside it is missed.
      return reads.push(readSorted(real));
    };
    for (let i = 0; i < queue.length; i++) {
      while (issued < queue.length && issued < i + READS_IN_FLIGHT) issue();
      if (options.signal?.aborted) {
        await Promise.all(reads.slice(i)); // Let reads in flight end before the table goes.
        return added;
      }
      const read = reads[i];
      reads[i] = null;
      const dirents = read ? await read : null;
      const [id, real] = queue[i]!;
      if (!dirents || !table.isAlive(id)) continue;
      for (const dirent of dirents) {
        // A child's path only for folders (and entries of unknown type): a million files'
        // paths were a million strings of garbage, some of it promoted to the old space.
        let child = options.fresh ? -1 : table.lookup(id, dirent.name);
        if (child < 0) {
          const { isDir, isLink } =
            knownType(dirent) ?? (await statType(path.join(real, dirent.name)));
          child = table.add(id, dirent.name, isDir, isLink);
          added++;
        }
        if (table.isDir(child)) next.push([child, path.join(real, dirent.name)]);
      }
    }
    queue = next;
  }
  return added;
}
