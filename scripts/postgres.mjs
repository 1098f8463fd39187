// A throw-away PostgreSQL server for `npm test` and the benchmarks: Debian's `postgresql` binaries,
// a cluster in a temp folder, listening on a free loopback port only, removed when stopped.
// initdb and the server refuse to run as root, so under root they run as the `postgres` user.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The folder holding initdb, pg_ctl and postgres, or undefined when PostgreSQL is not installed. */
export function findPostgresBin() {
  const candidates = [];
  const fromPgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromPgConfig.status === 0) candidates.push(fromPgConfig.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debian, version, 'bin'));
  }
  return candidates.find(
    (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a fresh cluster and resolves to `{ url, port, dir, stop }`. `url` names the `postgres`
 * database as the superuser `cabinet` (trust authentication, loopback only); create one database
 * per test from it. `stop()` shuts the server down and removes the folder.
 */
export async function startTempPostgres({ bin = findPostgresBin(), log = () => {} } = {}) {
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-pg-'));
  const asRoot = process.getuid?.() === 0;
  let uid;
  let gid;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const run = (tool, args) => {
    const command = asRoot ? 'runuser' : path.join(bin, tool);
    const argv = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args;
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) {
      throw new Error(`${tool} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
    return result.stdout;
  };
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '--auth=trust', '-U', 'cabinet', '--encoding=UTF8', '--locale=C']);
  const port = await freePort();
  // fsync off: the cluster is thrown away after the run, so durability buys nothing here.
  const options = [
    `-c listen_addresses=127.0.0.1`,
    `-p ${port}`,
    `-k ${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  run('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', 'start']);
  log(`PostgreSQL started on 127.0.0.1:${port} (${dir})`);
  const url = `postgres://cabinet@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    dir,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
