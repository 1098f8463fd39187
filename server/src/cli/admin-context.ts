import type { Command } from 'commander';
import { pino } from 'pino';
import { loadConfig, type FlagValues } from '../config/load-config.ts';
import { closeContext, createContext, type AppContext } from '../context.ts';
import { createRuntime, type Services } from '../runtime.ts';

/** Where the administration commands write: stdout for results, stderr for notices. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

/**
 * The options that locate the database for administration commands, resolved exactly as
 * `serve` resolves them (flags, then CABINET_* variables, then the config file).
 */
export function addStoreOptions(command: Command): Command {
  return command
    .option(
      '-c, --config <file>',
      'JSON config file (also CABINET_CONFIG; ./cabinet.json when present)',
    )
    .option('--data <dir>', 'data folder holding the database [env CABINET_DATA] (default: ./data)')
    .option(
      '--database <file|url>',
      'SQLite file or postgres:// URL [env CABINET_DATABASE] (default: <data>/cabinet.db)',
    )
    .option(
      '--root <dir>',
      'served folder, for home folders [env CABINET_ROOT] (default: ./data/files)',
    );
}

/**
 * Opens the same database the server uses (running migrations and first-start set-up, so a
 * first `cabinet users add` on a new install works too) and runs `task` with it and the services
 * (built as the server builds them, without its timed work).
 */
export async function withAdminContext<T>(
  opts: Record<string, unknown>,
  io: CliIO,
  task: (ctx: AppContext, services: Services) => Promise<T>,
): Promise<T> {
  const flags: FlagValues = {};
  for (const key of ['data', 'database', 'root'] as const) {
    if (typeof opts[key] === 'string') flags[key] = opts[key];
  }
  const config = loadConfig(flags, process.env, opts.config as string | undefined);
  // Notices (such as a first start's generated admin password) go to stderr, never stdout.
  const log = pino(
    { level: 'warn', base: undefined, timestamp: false },
    { write: (line: string) => io.err((JSON.parse(line) as { msg: string }).msg) },
  );
  // Administration commands never search: no index load, walk or folder watches for them.
  const ctx = await createContext(config, log, { searchIndex: false });
  try {
    return await task(ctx, createRuntime(ctx).services);
  } finally {
    await closeContext(ctx);
  }
}
