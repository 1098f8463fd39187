import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** What of the data folder a backup leaves out on purpose, by path relative to it. */
const LEFT_OUT: Record<string, string> = {
  cache: 'thumbnail and preview cache: rebuilt on demand',
  'site-previews': 'built site previews: rebuilt on demand',
  'search-index.bin': 'search index: rebuilt from the files at start',
  'temp-journal': "journal of the running server's temp files",
  trash: 'deleted files: back them up with the served files (docs/deploy.md)',
};

export interface DataFolderPlan {
  /** Regular files to copy, relative to the data folder, `/`-separated. */
  files: string[];
  skipped: { path: string; reason: string }[];
}

/** `target` relative to `folder` when it is inside it, else undefined. */
function inside(folder: string, target: string): string | undefined {
  const relative = path.relative(folder, target);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative.split(path.sep).join('/')
    : undefined;
}

/**
 * Lists what a backup copies of the data folder: every regular file (settings files, keys an
 * operator keeps there) except the caches, the trash, the temp-file journal, the SQLite database
 * (copied on its own, consistently) and the served root when it lies inside (the default
 * `./data/files`): the operator backs up the files themselves (docs/deploy.md).
 */
export async function planDataFolder(
  data: string,
  options: { root: string; sqliteFile?: string },
): Promise<DataFolderPlan> {
  const leftOut = new Map(Object.entries(LEFT_OUT));
  const root = inside(data, options.root);
  if (root) leftOut.set(root, 'the served files: back them up yourself (docs/deploy.md)');
  const database = options.sqliteFile && inside(data, options.sqliteFile);
  if (database) {
    for (const suffix of ['', '-wal', '-shm', '-journal']) {
      leftOut.set(`${database}${suffix}`, 'the database: copied on its own, consistently');
    }
  }
  const plan: DataFolderPlan = { files: [], skipped: [] };
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(data, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const entryPath = relative ? `${relative}/${entry.name}` : entry.name;
      // The search index is written through a temp name beside it.
      const reason =
        leftOut.get(entryPath) ??
        (entryPath.startsWith('search-index.bin') ? LEFT_OUT['search-index.bin'] : undefined);
      if (reason) {
        // The database's -wal and -shm files are its own; listing them would only be noise.
        if (!/-(wal|shm|journal)$/.test(entryPath) || !database) {
          plan.skipped.push({ path: entry.isDirectory() ? `${entryPath}/` : entryPath, reason });
        }
      } else if (entry.isDirectory()) await walk(entryPath);
      else if (entry.isFile()) plan.files.push(entryPath);
      else plan.skipped.push({ path: entryPath, reason: 'not a regular file' });
    }
  };
  await walk('');
  return plan;
}

export { inside as relativeInside };
