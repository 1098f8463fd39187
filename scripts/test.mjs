// `npm test`: the static checks, every suite, then one line with the totals: "N passed, M failed".
// Suites run one after another; each Vitest run uses both cores for its own files. Each static
// check (types, lint, formatting, bundle size) counts as one test, so CI holds them like any other
// failure. `npm test -- <name>…` runs only the named checks group (`checks`) and suites.
//
// The server suite runs twice: `server` on SQLite, then `server-postgresql` against a throw-away
// PostgreSQL cluster (scripts/postgres.mjs) named by CABINET_TEST_POSTGRES, where every test
// server gets a database of its own (server/testing/test-database.ts, docs/database.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findPostgresBin, startTempPostgres } from './postgres.mjs';
import { ROOT, ensureInstalled, ensureWebBuilt } from './prepare.mjs';

const CHECKS = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  { name: 'format', script: 'format:check' },
  // The initial JavaScript until the files screen's first rows, measured in Chromium, within its
  // budget (scripts/initial-js.mjs).
  { name: 'bundle size', script: 'check:bundle' },
];

const SUITES = [
  { name: 'protocol', dir: 'protocol' },
  { name: 'server', dir: 'server' },
  { name: 'server-postgresql', dir: 'server', postgres: true },
  { name: 'web', dir: 'web' },
  { name: 'e2e', dir: 'e2e', needsBuild: true },
];

ensureInstalled();
const only = process.argv.slice(2);
const results = path.join(ROOT, '.test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

let passed = 0;
let failed = 0;
if (only.length === 0 || only.includes('checks')) {
  for (const check of CHECKS) {
    console.log(`\n=== ${check.name} ===`);
    const run = spawnSync('npm', ['run', '--silent', check.script], {
      cwd: ROOT,
      stdio: 'inherit',
      env: process.env,
    });
    if (run.status === 0) passed += 1;
    else {
      failed += 1;
      console.error(`${check.name}: failed (npm run ${check.script})`);
    }
  }
}
/** Runs a suite's Vitest; resolves with its exit status (asynchronously, so signals get through). */
function runVitest(suite, out, env) {
  return new Promise((resolve) => {
    const child = spawn(
      'npx',
      ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
      { cwd: path.join(ROOT, suite.dir), stdio: 'inherit', env },
    );
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * Runs `task` with a fresh PostgreSQL cluster, stopped and removed afterwards, even when the run is
 * interrupted (Ctrl-C reaches Vitest too; the cluster goes once it has ended).
 */
async function withPostgres(task) {
  const pg = await startTempPostgres({ log: (line) => console.log(line) });
  let interrupted = false;
  const onSignal = () => (interrupted = true);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await task(pg.url);
  } finally {
    pg.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (interrupted) process.exit(130);
  }
}

const POSTGRES_MISSING = 'PostgreSQL is not installed (apt-get install postgresql)';

for (const suite of SUITES) {
  if (only.length && !only.includes(suite.name)) continue;
  if (!existsSync(path.join(ROOT, suite.dir, 'vitest.config.ts'))) continue;
  if (suite.postgres && !findPostgresBin()) {
    // CI must run every suite; a developer without PostgreSQL still gets the rest.
    if (process.env.CI) {
      failed += 1;
      console.error(`\n${suite.name}: failed — ${POSTGRES_MISSING}`);
    } else {
      console.log(`\n${suite.name}: skipped — ${POSTGRES_MISSING}`);
    }
    continue;
  }
  if (suite.needsBuild) ensureWebBuilt();
  console.log(`\n=== ${suite.name} ===`);
  const out = path.join(results, `${suite.name}.json`);
  const started = Date.now();
  let status;
  try {
    status = suite.postgres
      ? await withPostgres((url) =>
          runVitest(suite, out, { ...process.env, CABINET_TEST_POSTGRES: url }),
        )
      : await runVitest(suite, out, process.env);
  } catch (error) {
    // The cluster did not start: the suite could not run at all.
    console.error(`${suite.name}: ${error.message}`);
    failed += 1;
    continue;
  }
  console.log(`${suite.name}: ${Math.round((Date.now() - started) / 1000)} s`);
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    // A file that fails to load counts as a failure even though no test in it ran.
    failed += report.testResults.filter(
      (r) => r.status === 'failed' && r.assertionResults.length === 0,
    ).length;
  } else if (status !== 0) {
    failed += 1;
  }
  if (status !== 0 && existsSync(out) === false)
    console.error(`${suite.name}: vitest exited ${status}`);
}
const summary = `${passed} passed, ${failed} failed`;
writeFileSync(path.join(results, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(failed > 0 ? 1 : 0);
