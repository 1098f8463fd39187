// `npm run check:bundle` (a check of `npm test`): the production build's initial JavaScript stays
// within its budget. A stale build is rebuilt, and the build itself fails above the budget; a
// fresh one is measured as it is.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, ensureWebBuilt } from './prepare.mjs';

if (!ensureWebBuilt()) {
  const report = spawnSync(process.execPath, ['scripts/chunk-report.mjs'], {
    cwd: path.join(ROOT, 'web'),
    stdio: 'inherit',
  });
  process.exit(report.status ?? 1);
}
