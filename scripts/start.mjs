// `npm start`: install and build what is missing or stale, then serve ./data/files with the
// database in ./data (unless configured otherwise). Extra arguments go to `cabinet serve`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_NODE_FLAGS, serverEnvironment } from '../server/scripts/node-flags.mjs';
import { ROOT, ensureInstalled, ensureWebBuilt } from './prepare.mjs';

ensureInstalled();
ensureWebBuilt();
const child = spawn(
  process.execPath,
  [
    ...SERVER_NODE_FLAGS,
    path.join(ROOT, 'server/bin/cabinet.js'),
    'serve',
    ...process.argv.slice(2),
  ],
  {
    cwd: ROOT,
    env: serverEnvironment(),
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
