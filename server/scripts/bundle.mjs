// The server runs from one ES module bundled from its TypeScript sources by esbuild
// (server/dist/cabinet.js). Running the sources through tsx's loader instead costs ~60 MiB of
// resident memory for the loader thread and the transpiled modules, a third of the budget the
// benchmarks allow (docs/benchmarks.md). The bundle is rebuilt whenever a source is newer, so a
// checkout never runs stale code; when it cannot be written the sources run through tsx.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO = path.dirname(SERVER);
export const BUNDLE = path.join(SERVER, 'dist/cabinet.js');
const SOURCES = [
  path.join(SERVER, 'src'),
  path.join(REPO, 'protocol/src'),
  path.join(SERVER, 'package.json'),
];

/** Newest modification time of the files below a folder. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** True when the bundle exists and no source is newer. */
export function bundleIsFresh() {
  if (!existsSync(BUNDLE)) return false;
  const built = statSync(BUNDLE).mtimeMs;
  return SOURCES.every((source) => newestMtime(source) <= built);
}

/**
 * Builds the bundle: the server's own code and the workspace protocol package inline, every npm
 * dependency left as an import (native modules and their data files stay where npm put them).
 * Written to a temp file and renamed, so concurrent starts never run a half-written bundle.
 */
export async function buildBundle() {
  const { build } = await import('esbuild');
  const manifest = JSON.parse(readFileSync(path.join(SERVER, 'package.json'), 'utf8'));
  const external = Object.keys(manifest.dependencies).filter(
    (name) => !name.startsWith('@cabinet/'),
  );
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  };
  const result = await build({
    ...common,
    entryPoints: [path.join(SERVER, 'src/main.ts')],
    external,
    outfile: BUNDLE,
    // A linked map for `node --enable-source-maps`; it costs nothing unless asked for.
    sourcemap: 'linked',
  });
  // The stat worker (src/fs/child-stats.ts) is loaded by URL beside the bundle: its own file.
  const worker = await build({
    ...common,
    entryPoints: [path.join(SERVER, 'src/fs/child-stats-worker.mjs')],
    outfile: path.join(path.dirname(BUNDLE), 'child-stats-worker.mjs'),
  });
  mkdirSync(path.dirname(BUNDLE), { recursive: true });
  // The worker and the map first, the bundle last: a fresh bundle always has both beside it.
  const ordered = [...worker.outputFiles, ...result.outputFiles].sort((a) =>
    a.path === BUNDLE ? 1 : -1,
  );
  for (const file of ordered) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
}

/** The bundle's path, built or rebuilt first when needed; null when it cannot be built here. */
export async function ensureBundle() {
  if (bundleIsFresh()) return BUNDLE;
  try {
    await buildBundle();
    return BUNDLE;
  } catch (error) {
    console.error(`cabinet: running from the sources (bundle not built: ${error.message})`);
    return null;
  }
}
