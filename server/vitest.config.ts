import { defineConfig } from 'vitest/config';

// Budgets hold on a busy 2-core machine (the full suite runs beside other jobs): tests wait for
// conditions, and a test that is slow only because the machine is must not fail on its clock.
// expect.poll waits up to 10 s instead of Vitest's 1 s for the same reason.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 10_000 } },
  },
});
