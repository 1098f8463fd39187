import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import { mapInOrder } from './map-in-order.ts';
import { isTempName } from './temp-files.ts';

/** lstats of one folder's files in flight at once. */
const SIZE_LOOKUPS = 16;

/**
 * Bytes of the regular files at or under a real path, as quotas count them: symlinks are not
 * followed (their targets are counted where they live), folders count nothing themselves, and
 * Cabinet's temp and staging files are skipped (a write in progress is counted when it lands).
 * Files hidden by rules are counted: they take room in the folder all the same, and only the sum
 * ever leaves this function. A missing path is 0; entries that vanish during the walk are skipped.
 */
export async function treeBytes(real: string, signal?: AbortSignal): Promise<number> {
  return (await treeSize(real, signal)).bytes;
}

/** Files and bytes under a path. */
export interface TreeSize {
  files: number;
  bytes: number;
}

/** The files counted by treeBytes, and their bytes (a background job's totals, docs/jobs.md). */
export async function treeSize(real: string, signal?: AbortSignal): Promise<TreeSize> {
  const top = await lstat(real).catch(() => undefined);
  if (!top) return { files: 0, bytes: 0 };
  if (top.isFile()) return { files: 1, bytes: top.size };
  if (!top.isDirectory()) return { files: 0, bytes: 0 };
  let total = 0;
  let files = 0;
  const folders = [real];
  while (folders.length > 0) {
    signal?.throwIfAborted();
    const folder = folders.pop()!;
    const dir = await opendir(folder, { bufferSize: 256 }).catch(() => undefined);
    if (!dir) continue;
    const found: string[] = [];
    for await (const entry of dir) {
      if (isTempName(entry.name)) continue;
      const child = path.join(folder, entry.name);
      if (entry.isDirectory()) folders.push(child);
      else if (entry.isFile()) found.push(child);
    }
    // The folder's lstats overlap: one after the other, a big tree's walk waits on each.
    const sizes = await mapInOrder(found, SIZE_LOOKUPS, (child) =>
      lstat(child).then(
        (info) => (info.isFile() ? info.size : undefined),
        () => undefined,
      ),
    );
    for (const size of sizes) {
      if (size === undefined) continue;
      total += size;
      files += 1;
    }
  }
  return { files, bytes: total };
}
