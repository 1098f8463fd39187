/**
 * Typed access to scripts/postgres.mjs (a throw-away PostgreSQL cluster on a free loopback port),
 * plus creating a database in it with the cluster's own psql. The script is plain JavaScript
 * without a declaration file, so it is imported by URL and given its type here.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

export interface TempPostgres {
  /** postgres://cabinet@127.0.0.1:<port>/postgres: the superuser, trust authentication. */
  url: string;
  port: number;
  stop(): void;
}

interface PostgresScript {
  findPostgresBin(): string | undefined;
  startTempPostgres(options?: { log?: (line: string) => void }): Promise<TempPostgres>;
}

const script = async () =>
  (await import(new URL('../../scripts/postgres.mjs', import.meta.url).href)) as PostgresScript;

/** Starts a fresh cluster; throws with the install command when PostgreSQL is missing. */
export async function startTempPostgres(log: (line: string) => void): Promise<TempPostgres> {
  return (await script()).startTempPostgres({ log });
}

/** Creates database `name` in the cluster and returns its URL. */
export async function createDatabase(server: TempPostgres, name: string): Promise<string> {
  const bin = (await script()).findPostgresBin();
  const psql = bin ? path.join(bin, 'psql') : 'psql';
  const result = spawnSync(
    psql,
    [server.url, '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE "${name}"`],
    {
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  if (result.status !== 0)
    throw new Error(
      `CREATE DATABASE ${name} failed: ${(result.stderr || String(result.error)).trim()}`,
    );
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return url.href;
}
