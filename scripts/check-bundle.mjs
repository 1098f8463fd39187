// `npm run check:bundle` (a check of `npm test`): the initial JavaScript as a user pays for it
// stays within its budget, measured in Chromium against the built app and a real server
// (scripts/initial-js.mjs: every script fetched from navigation until the files screen shows its
// first rows, at its size on the wire). A stale build is rebuilt first.
import { spawnSync } from 'node:child_process';
import { ROOT, ensureWebBuilt } from './prepare.mjs';

ensureWebBuilt();
const measure = spawnSync(process.execPath, ['scripts/initial-js.mjs', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
process.exit(measure.status ?? 1);
