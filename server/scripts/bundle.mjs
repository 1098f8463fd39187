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
/**
 * The test kit (`@cabinet/server/testing`) bundled the same way, for the browser tests: each of
 * their files runs in a fresh process, which would otherwise transform the server's few hundred
 * TypeScript modules again (e2e/vitest.config.ts, docs/testing.md).
 */
export const TESTING_BUNDLE = path.join(SERVER, 'dist/testing.js');
const SOURCES = [
  path.join(SERVER, 'src'),
  path.join(REPO, 'protocol/src'),
  path.join(SERVER, 'package.json'),
];
const TESTING_SOURCES = [...SOURCES, path.join(SERVER, 'testing')];

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
export function bundleIsFresh(bundle = BUNDLE, sources = SOURCES) {
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return sources.every((source) => newestMtime(source) <= built);
}

/** npm packages stay imports; workspace packages (TypeScript sources) go inline. */
function externals() {
  const manifest = JSON.parse(readFileSync(path.join(SERVER, 'package.json'), 'utf8'));
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter(
    (name) => !name.startsWith('@cabinet/'),
  );
}

/** Writes esbuild's output files, each through a temp file and a rename; `last` goes last. */
function writeOutputs(files, last) {
  mkdirSync(path.dirname(last), { recursive: true });
  const ordered = [...files].sort((a) => (a.path === last ? 1 : -1));
  for (const file of ordered) {
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
  }
}

/**
 * Builds the bundle: the server's own code and the workspace protocol package inline, every npm
 * dependency left as an import (native modules and their data files stay where npm put them).
 * Written to a temp file and renamed, so concurrent starts never run a half-written bundle.
 */
export async function buildBundle() {
  const { build } = await import('esbuild');
  const external = externals();
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
  // The map first, the bundle last: a fresh bundle always has its map beside it.
  writeOutputs(
    result.outputFiles.map((file) =>
      file.path === BUNDLE ? { path: file.path, contents: latin1Source(file.text) } : file,
    ),
    BUNDLE,
  );
}

/**
 * The bundle's text with every character beyond Latin-1 written as a `\u` escape. V8 keeps a
 * script's source in memory for as long as it runs (functions are compiled when first called),
 * one byte a character when all of them fit, two otherwise: esbuild escapes such characters in
 * strings but not in the comments it keeps (a dash, an ellipsis), which made the 1.2 MB bundle a
 * 2.3 MB string. In a comment, string or regular expression an escape means the same character
 * (the source map's columns after one on its line shift: comments hold them, not code).
 */
export function latin1Source(text) {
  return text.replace(
    /[\u0100-\uffff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Builds the test kit's bundle (and the server's, which the tests start); returns its path, or
 * null when it cannot be built here (then the sources are used).
 */
export async function ensureTestingBundle() {
  try {
    if (!bundleIsFresh()) await buildBundle();
    if (bundleIsFresh(TESTING_BUNDLE, TESTING_SOURCES)) return TESTING_BUNDLE;
    const { build } = await import('esbuild');
    const result = await build({
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'warning',
      entryPoints: [path.join(SERVER, 'testing/index.ts')],
      // Every npm package stays an import, the test kit's own ones (not in the manifest) too.
      plugins: [
        {
          name: 'npm-external',
          setup(build) {
            build.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith('@cabinet/') ? undefined : { path: args.path, external: true },
            );
          },
        },
      ],
      outfile: TESTING_BUNDLE,
      // Stack traces of a failing browser test point into the sources.
      sourcemap: 'linked',
    });
    writeOutputs(result.outputFiles, TESTING_BUNDLE);
    return TESTING_BUNDLE;
  } catch (error) {
    console.error(`test kit: running from the sources (bundle not built: ${error.message})`);
    return null;
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
