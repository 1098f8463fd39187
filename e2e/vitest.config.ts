import { defineConfig } from 'vitest/config';
import { ensureTestingBundle } from '../server/scripts/bundle.mjs';

// The server's test kit as one JavaScript file, built here once per run (rebuilt when a source
// changed), which Node loads as it is: every spec file runs in a fresh process, and importing the
// kit from its TypeScript sources made each of them transform the whole server again (~4 s of CPU
// a file, docs/testing.md). When it cannot be built, or CABINET_FROM_SOURCES=1 is set (as for the
// server's own start, server/bin/cabinet.js), the sources are used.
const testingBundle =
  process.env.CABINET_FROM_SOURCES === '1'
    ? null
    : ((await ensureTestingBundle()) as string | null);

// Browser tests: each file starts its own server and Chromium, so at most two run at once on the
// two shared cores; timeouts are generous because a cold Chromium and argon2 hashing take a while.
// expect.poll waits up to 10 s instead of Vitest's 1 s: under the full suite's load a browser can
// take more than a second to show what a poll waits for (an upload's first progress did, once).
export default defineConfig({
  resolve: {
    alias: testingBundle ? { '@cabinet/server/testing': testingBundle } : {},
  },
  test: {
    include: ['specs/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    expect: { poll: { timeout: 10_000 } },
    server: { deps: { external: testingBundle ? [/\/server\/dist\//] : [] } },
  },
});
