import { defineConfig } from 'vitest/config';

// Unit tests of the web app's pure modules (paths, tokens, locales, formats, the catalogue).
// Screens are tested in a real browser by the e2e suite.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
  },
});
