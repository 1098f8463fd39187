#!/usr/bin/env -S MALLOC_MMAP_THRESHOLD_=131072 node --min-semi-space-size=4 --max-semi-space-size=4 --heap-growing-percent=20
// Runs the server from its esbuild bundle, built on the first start and again whenever a source
// changed (server/scripts/bundle.mjs); from the TypeScript sources through tsx's loader when the
// bundle cannot be written (a read-only install) or CABINET_FROM_SOURCES=1 is set.
import { pathToFileURL } from 'node:url';
import { ensureBundle } from '../scripts/bundle.mjs';

const bundle = process.env.CABINET_FROM_SOURCES === '1' ? null : await ensureBundle();
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/main.ts');
}
