import { access, readdir } from 'node:fs/promises';
import { constants as fsConstants } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { describeFailure, runProcess } from '../process/run-process.ts';
import { describeDatabase } from './db.ts';

// PostgreSQL's own client tools (pg_dump, pg_restore) for `cabinet backup` and `cabinet restore`:
// where they are, and how Cabinet's database URL is handed to them.

export type PgTool = 'pg_dump' | 'pg_restore';

/** Debian and Ubuntu keep each major version's tools here; the newest dumps every older server. */
const DEBIAN_PG = '/usr/lib/postgresql';

async function isExecutable(file: string): Promise<boolean> {
  return access(file, fsConstants.X_OK).then(
    () => true,
    () => false,
  );
}

async function pgConfigBinDir(): Promise<string | undefined> {
  const run = await runProcess('pg_config', ['--bindir'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    timeoutMs: 30_000,
    maxOutputBytes: 64 * 1024,
  });
  return run.kind === 'ok' ? run.stdout.toString('utf8').trim() || undefined : undefined;
}

/**
 * The path of a PostgreSQL client tool: in `binDir` when given, else (as scripts/postgres.mjs
 * looks for the server) `pg_config --bindir`, Debian's versioned folders newest first, then PATH.
 * Throws a message telling the operator what to do when there is none.
 */
export async function findPgTool(tool: PgTool, binDir?: string): Promise<string> {
  const dirs: string[] = [];
  if (binDir) dirs.push(binDir);
  else {
    const fromConfig = await pgConfigBinDir();
    if (fromConfig) dirs.push(fromConfig);
    const versions = await readdir(DEBIAN_PG).catch(() => [] as string[]);
    for (const version of versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => +b - +a)) {
      dirs.push(path.join(DEBIAN_PG, version, 'bin'));
    }
    dirs.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  }
  for (const dir of dirs) {
    const file = path.join(dir, tool);
    if (await isExecutable(file)) return file;
  }
  throw new Error(
    binDir
      ? `no ${tool} in ${binDir}`
      : `${tool} was not found: install PostgreSQL's client tools of the server's major version ` +
          'or newer (Debian/Ubuntu: apt-get install postgresql-client), or name their folder ' +
          'with --pg-bin',
  );
}

/**
 * What a libpq tool needs of a Cabinet database URL: the URL without its password (which would
 * show in the process list; it goes in PGPASSWORD instead) and without Cabinet's own `pool_size`
 * parameter, which libpq refuses.
 */
export function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  let password: string | undefined;
  const withoutPassword = url.replace(/^(\w+:\/\/[^:@/]*):([^@/]*)@/, (_m, head: string, pw) => {
    password = decodeURIComponent(pw as string);
    return `${head}@`;
  });
  const [base, query] = withoutPassword.split('?', 2) as [string, string | undefined];
  const params = (query ?? '').split('&').filter((p) => p && !p.startsWith('pool_size='));
  const dbname = params.length > 0 ? `${base}?${params.join('&')}` : base;
  return { dbname, env: password === undefined ? {} : { PGPASSWORD: password } };
}

/**
 * How long a dump or restore may run: long enough for a large database on a slow disk, bounded so
 * that a tool hung on a lost connection does not hold the backup's lock for ever.
 */
const PG_TOOL_TIMEOUT_MS = 12 * 60 * 60 * 1000;

/** Runs a PostgreSQL tool against the database; rejects with its own error output. */
async function runTool(file: string, args: string[], url: string): Promise<void> {
  const target = libpqTarget(url);
  // The operator's environment is passed on: libpq reads PGSSLMODE, PGPASSFILE, HOME/.pgpass.
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...target.env })) {
    if (value !== undefined) env[name] = value;
  }
  const run = await runProcess(file, [...args, `--dbname=${target.dbname}`], {
    env,
    timeoutMs: PG_TOOL_TIMEOUT_MS,
    maxOutputBytes: 16 * 1024 * 1024,
  });
  if (run.kind === 'ok') return;
  const detail = ('stderr' in run && run.stderr.trim()) || describeFailure(run);
  throw new Error(`${path.basename(file)} failed on ${describeDatabase(url)}: ${detail}`);
}

/**
 * Dumps the whole database to `file` in pg_dump's custom format. pg_dump reads in one
 * repeatable-read transaction: a consistent snapshot while the server keeps writing.
 */
export function pgDump(pgDumpFile: string, url: string, file: string): Promise<void> {
  return runTool(
    pgDumpFile,
    ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`],
    url,
  );
}

/** Restores a dump into an empty database in one transaction: all of it or nothing. */
export function pgRestore(pgRestoreFile: string, url: string, file: string): Promise<void> {
  return runTool(
    pgRestoreFile,
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', file],
    url,
  );
}

/** Runs `query` on its own connection (no pool, no migration: the server owns the schema). */
async function withClient<T>(url: string, query: (client: pg.Client) => Promise<T>): Promise<T> {
  const target = libpqTarget(url);
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: target.dbname,
    password: target.env.PGPASSWORD,
  });
  client.on('error', () => {});
  await client.connect().catch((error: Error) => {
    throw new Error(`cannot connect to ${describeDatabase(url)}: ${error.message}`, {
      cause: error,
    });
  });
  try {
    return await query(client);
  } finally {
    await client.end();
  }
}

/** The latest migration applied to a PostgreSQL database, undefined when it has none. */
export function pgSchemaVersion(url: string): Promise<string | undefined> {
  return withClient(url, async (client) => {
    const found = await client.query<{ name: string }>(
      `select name from kysely_migration order by name desc limit 1`,
    );
    return found.rows[0]?.name;
  }).catch((error: Error & { code?: string }) => {
    // 42P01: no such table, a database Cabinet never opened.
    if (error.code === '42P01') return undefined;
    throw error;
  });
}

/** The tables of a PostgreSQL database's current schema: none means it is empty. */
export function pgTables(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const found = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
        where table_schema = current_schema() order by table_name`,
    );
    return found.rows.map((row) => row.name);
  });
}
