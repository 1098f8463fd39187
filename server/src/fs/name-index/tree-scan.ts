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

/**
 * Adds everything below a folder to the table, breadth first with names sorted, so the blob holds
 * shallow names before deep ones: a linear scan then meets results in depth order. Reads names and
 * entry types only (no stat per file); symlinked folders are recorded but not followed. Each
 * folder is one awaited readdir, so the server keeps answering while a big tree is scanned.
 * Returns the number of entries added.
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
    for (const [id, real] of queue) {
      if (options.signal?.aborted) return added;
      if (!table.isAlive(id)) continue;
      options.watch?.(real);
      let dirents: Dirent[];
      try {
        dirents = await readdir(real, { withFileTypes: true });
      } catch {
        continue; // Unreadable or vanished folders are left out, as listings leave them out.
      }
      dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const dirent of dirents) {
        const childReal = path.join(real, dirent.name);
        let child = options.fresh ? -1 : table.lookup(id, dirent.name);
        if (child < 0) {
          const { isDir, isLink } = knownType(dirent) ?? (await statType(childReal));
          child = table.add(id, dirent.name, isDir, isLink);
          added++;
        }
        if (table.isDir(child)) next.push([child, childReal]);
      }
    }
    queue = next;
  }
  return added;
}
