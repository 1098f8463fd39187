import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { transferFlag } from './scripts/node-flags.mjs';

// Budgets hold on a busy 2-core machine (the full suite runs beside other jobs): tests wait for
// conditions, and a test that is slow only because the machine is must not fail on its clock.
// expect.poll waits up to 10 s instead of Vitest's 1 s for the same reason.
//
// Test files share their worker's modules (`isolate: false`): importing the server's sources again
// for each of ~140 files cost more than the tests of most of them (docs/testing.md). That is safe
// because no module holds state (docs/architecture.md); a test that changes the process (an
// environment variable, the time zone) puts it back when it ends.
//
// The PostgreSQL run (CABINET_TEST_POSTGRES set, `npm test` runs it after the SQLite one) takes
// only the files that reach a database: every file under test/ (each starts a server), and those
// unit tests under src/ that open the store. The rest (path algebra, rules, the name index, the
// process runner…) never touch a database, and running them twice would test nothing new.
const REACHES_DATABASE =
  /\b(createStore|openDatabase|openTestDatabase|startTestServer|oneDatabasePerTest)\b/;

function databaseFiles(): string[] {
  const src = path.join(import.meta.dirname, 'src');
  const units = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .filter((file) => REACHES_DATABASE.test(readFileSync(path.join(src, file), 'utf8')))
    .map((file) => `src/${file.split(path.sep).join('/')}`);
  return ['test/**/*.test.ts', ...units];
}

export default defineConfig({
  test: {
    include: process.env.CABINET_TEST_POSTGRES
      ? databaseFiles()
      : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // The V8 flag Node 20 needs for chunks to be given back early (server/scripts/node-flags.mjs),
    // so that tests run that path as the server does.
    execArgv: transferFlag(process.versions.node),
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 10_000 } },
  },
});
