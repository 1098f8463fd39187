import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import { isTempName } from './temp-files.ts';

/**
 * Bytes of the regular files at or under a real path, as quotas count them: symlinks are not
 * followed (their targets are counted where they live), folders count nothing themselves, and
 * Cabinet's temp and staging files are skipped (a write in progress is counted when it lands).
 * Files hidden by rules are counted: they take room in the folder all the same, and only the sum
 * ever leaves this function. A missing path is 0; entries that vanish during the walk are skipped.
 */
export async function treeBytes(real: string, signal?: AbortSignal): Promise<number> {
  const top = await lstat(real).catch(() => undefined);
  if (!top) return 0;
  if (top.isFile()) return top.size;
  if (!top.isDirectory()) return 0;
  let total = 0;
  const folders = [real];
  while (folders.length > 0) {
    signal?.throwIfAborted();
    const folder = folders.pop()!;
    const dir = await opendir(folder).catch(() => undefined);
    if (!dir) continue;
    for await (const entry of dir) {
      if (isTempName(entry.name)) continue;
      const child = path.join(folder, entry.name);
      if (entry.isDirectory()) folders.push(child);
      else if (entry.isFile()) {
        const info = await lstat(child).catch(() => undefined);
        if (info?.isFile()) total += info.size;
      }
    }
  }
  return total;
}
