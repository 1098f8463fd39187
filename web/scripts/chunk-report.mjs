#!/usr/bin/env node
// Chunk report of a production build (run after `vite build`): every chunk's raw and gzipped
// size, which chunks the entry imports statically, and what loads on demand, for finding where
// the bytes are. It sets no budget and gives no "initial JavaScript" figure: the one measure of
// that is `npm run check:bundle` (scripts/initial-js.mjs: what Chromium requests before the files
// screen's first rows, as served), see docs/preview-and-editor.md "Bundle size".
//
//   node scripts/chunk-report.mjs [dist folder]

import console from 'node:console';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const dist = path.resolve(
  args[0] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '../dist'),
);
const assets = path.join(dist, 'assets');

const kb = (bytes) => (bytes / 1000).toFixed(1).padStart(8);
const sizes = new Map();
/** Raw and gzipped (level 9, as servers and CDNs typically send) size of one asset. */
function sizeOf(name) {
  if (!sizes.has(name)) {
    const bytes = readFileSync(path.join(assets, name));
    sizes.set(name, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
  }
  return sizes.get(name);
}

// Static imports in minified ES modules: `import{a}from"./x.js"` and `import"./x.js"`. Dynamic
// `import("./x.js")` (lazy routes, the editor, locales) is deliberately not followed.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g;
function staticClosure(entry) {
  const seen = new Set();
  const queue = [entry];
  while (queue.length > 0) {
    const name = queue.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    const source = readFileSync(path.join(assets, name), 'utf8');
    for (const [, imported] of source.matchAll(STATIC_IMPORT)) queue.push(imported);
  }
  return [...seen];
}

const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = /<script type="module"[^>]*src="[^"]*\/assets\/([^"]+\.js)"/.exec(html)?.[1];
if (!entry) {
  console.error(`chunk-report: no entry script in ${path.join(dist, 'index.html')}`);
  process.exit(1);
}
const initial = staticClosure(entry);
const initialCss = [...html.matchAll(/rel="stylesheet"[^>]*\/assets\/([^"]+\.css)"/g)].map(
  (m) => m[1],
);

const files = readdirSync(assets).filter((name) => /\.(js|css)$/.test(name));
const rows = files.map((name) => ({ name, ...sizeOf(name) })).sort((a, b) => b.gzip - a.gzip);

console.log(`\nChunks of ${path.relative(process.cwd(), dist) || '.'} (kB = 1000 bytes)`);
console.log(`${'raw kB'.padStart(8)} ${'gzip kB'.padStart(8)}  chunk`);
for (const row of rows) {
  const mark = initial.includes(row.name) || initialCss.includes(row.name) ? '  [entry]' : '';
  console.log(`${kb(row.raw)} ${kb(row.gzip)}  ${row.name}${mark}`);
}

const total = (names) =>
  names.reduce(
    (sum, name) => {
      const size = sizeOf(name);
      return { raw: sum.raw + size.raw, gzip: sum.gzip + size.gzip };
    },
    { raw: 0, gzip: 0 },
  );
console.log(
  `\nThe entry and its static imports are marked [entry]; the initial JavaScript a user pays for ` +
    `is measured by \`npm run check:bundle\` (Chromium, as served).`,
);

// What loads on demand: each lazily loaded root with the chunks it imports that are not already
// loaded. The first four are fetched once a logged-in page is idle (web/src/app/on-demand.ts);
// the rest when a file or the settings open (grammars for syntax highlighting come on top of the
// editor, one per language).
const ON_DEMAND = {
  dialogs: 'DialogView-',
  uploads: 'upload-actions-',
  'upload panel': 'UploadPanel-',
  transfers: 'transfer-',
  preview: 'FileScreen-',
  markdown: 'render-markdown-',
  editor: 'codemirror-editor-',
  settings: ['SettingsLayout-', 'ProfileSettingsPage-'],
};
console.log(`\nOn demand (chunk and its own static imports):`);
for (const [label, prefixes] of Object.entries(ON_DEMAND)) {
  const roots = [prefixes]
    .flat()
    .map((prefix) => files.find((name) => name.startsWith(prefix) && name.endsWith('.js')));
  if (roots.some((root) => !root)) continue;
  const loaded = new Set(roots.flatMap(staticClosure));
  const size = total([...loaded].filter((name) => !initial.includes(name)));
  console.log(
    `  ${label.padEnd(12)}  ${kb(size.raw).trim()} kB raw, ${kb(size.gzip).trim()} kB gzipped`,
  );
}
