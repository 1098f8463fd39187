import { defineConfig } from 'vitest/config';

// Browser tests: each file starts its own server and Chromium, so at most two run at once on the
// two shared cores; timeouts are generous because a cold Chromium and argon2 hashing take a while.
// expect.poll waits up to 10 s instead of Vitest's 1 s: under the full suite's load a browser can
// take more than a second to show what a poll waits for (an upload's first progress did, once).
export default defineConfig({
  test: {
    include: ['specs/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    expect: { poll: { timeout: 10_000 } },
  },
});
