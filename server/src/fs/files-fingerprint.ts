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
 * derives from configuration files (sites/hugo-mounts-cache.ts). Every folder and file is asked at
 * once: asked one after another, each waited for a CPU on a busy machine (a preview runs this).
 */
export async function filesFingerprint(
  dirs: Iterable<string>,
  scope: FingerprintScope,
): Promise<string> {
  const parts = await Promise.all(
    [...dirs].map(async (dir) => {
      const [names, below] = await Promise.all([
        readdir(dir).catch(() => [] as string[]),
        Promise.all(scope.folders.map((folder) => describeTree(path.join(dir, folder)))),
      ]);
      const files = names.filter((name) => scope.names.test(name)).sort();
      const own = await Promise.all(files.map((name) => describe(path.join(dir, name))));
      return [...own, ...below.flat()];
    }),
  );
  return parts.flat().join('\n');
}

/** Every file and folder below `folder`, described in name order. */
async function describeTree(folder: string): Promise<string[]> {
  const items = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const sorted = items.sort((a, b) => (a.name < b.name ? -1 : 1));
  const each = await Promise.all(
    sorted.map(async (item) => {
      const full = path.join(folder, item.name);
      const [self, below] = await Promise.all([
        describe(full),
        item.isDirectory() ? describeTree(full) : Promise.resolve([]),
      ]);
      return [self, ...below];
    }),
  );
  return each.flat();
}

async function describe(file: string): Promise<string> {
  const info = await lstat(file).catch(() => undefined);
  return info ? `${file}:${info.size}:${info.mtimeMs}:${info.ino}` : `${file}:-`;
}
