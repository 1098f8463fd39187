// Shared by `npm start` and `npm test`: install dependencies and build the web app when missing
// or older than their sources, so that both commands work on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args) {
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr' },
  });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

/** Newest modification time below a folder (files only), skipping node_modules and dist. */
function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

export function ensureInstalled() {
  const marker = path.join(ROOT, 'node_modules/.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  if (!existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
    console.log('Installing dependencies (npm ci)…');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

/** Builds the web app when it is missing or stale; returns whether it did. */
export function ensureWebBuilt() {
  const built = path.join(ROOT, 'web/dist/index.html');
  const sources = [
    'web/src',
    'web/index.html',
    'web/public',
    'web/vite.config.ts',
    'web/package.json',
    'protocol/src',
  ];
  const newestSource = Math.max(...sources.map((s) => newestMtime(path.join(ROOT, s))));
  if (!existsSync(built) || newestSource > statSync(built).mtimeMs) {
    console.log('Building the web app…');
    run('npm', ['run', 'build', '-w', 'web']);
    return true;
  }
  return false;
}
