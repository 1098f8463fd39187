import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Which files of each folder a fingerprint covers. */
export interface FingerprintScope {
  /** Files directly in each folder whose name matches. */
  names: RegExp;
  /** Folders of each folder covered whole (every file and folder below them). */
  folders: readonly string[];
}

/**
 * A text that changes when any covered file (real paths, links not followed) is added, removed or
 * changed: each one's path, size, modification time and inode. For caches of what a program
 * derives from configuration files (sites/hugo-mounts-cache.ts).
 */
export async function filesFingerprint(
  dirs: Iterable<string>,
  scope: FingerprintScope,
): Promise<string> {
  const parts: string[] = [];
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.sort()) {
      if (scope.names.test(name)) parts.push(await describe(path.join(dir, name)));
    }
    const pending = scope.folders.map((folder) => path.join(dir, folder));
    while (pending.length > 0) {
      const folder = pending.pop()!;
      const items = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const item of items.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const full = path.join(folder, item.name);
        if (item.isDirectory()) pending.push(full);
        parts.push(await describe(full));
      }
    }
  }
  return parts.join('\n');
}

async function describe(file: string): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  return info ? `${file}:${info.size}:${info.mtimeMs}:${info.ino}` : `${file}:-`;
}
