// `npm test`: the static checks, every suite, then one line with the totals: "N passed, M failed".
// Suites run one after another; each Vitest run uses both cores for its own files. Each static
// check (types, lint, formatting, bundle size) counts as one test, so CI holds them like any other
// failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureInstalled, ensureWebBuilt } from './prepare.mjs';

const CHECKS = [
  { name: 'typecheck', script: 'typecheck' },
  { name: 'lint', script: 'lint' },
  { name: 'format', script: 'format:check' },
  // The initial JavaScript of /login and /files within its budget (web/scripts/chunk-report.mjs).
  { name: 'bundle size', script: 'check:bundle' },
];

const SUITES = [
  { name: 'protocol', dir: 'protocol' },
  { name: 'server', dir: 'server' },
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
for (const suite of SUITES) {
  if (only.length && !only.includes(suite.name)) continue;
  if (!existsSync(path.join(ROOT, suite.dir, 'vitest.config.ts'))) continue;
  if (suite.needsBuild) ensureWebBuilt();
  console.log(`\n=== ${suite.name} ===`);
  const out = path.join(results, `${suite.name}.json`);
  const run = spawnSync(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    { cwd: path.join(ROOT, suite.dir), stdio: 'inherit', env: process.env },
  );
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    // A file that fails to load counts as a failure even though no test in it ran.
    failed += report.testResults.filter(
      (r) => r.status === 'failed' && r.assertionResults.length === 0,
    ).length;
  } else if (run.status !== 0) {
    failed += 1;
  }
  if (run.status !== 0 && existsSync(out) === false)
    console.error(`${suite.name}: vitest exited ${run.status}`);
}
const summary = `${passed} passed, ${failed} failed`;
writeFileSync(path.join(results, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(failed > 0 ? 1 : 0);
