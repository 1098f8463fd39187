import path from 'node:path';
import { Command } from 'commander';
import { takeBackup } from '../backup/backup.ts';
import { relativeInside } from '../backup/data-folder.ts';
import { restoreBackup } from '../backup/restore.ts';
import { configFileOf, loadConfig, type FlagValues } from '../config/load-config.ts';
import type { ServerConfig } from '../config/options.ts';
import { describeDatabase } from '../store/db.ts';
import { addStoreOptions, type CliIO } from './admin-context.ts';

type Opts = Record<string, unknown>;

/** The server's configuration as `serve` resolves it, from the store options given. */
function configOf(opts: Opts): ServerConfig {
  const flags: FlagValues = {};
  for (const key of ['data', 'database', 'root'] as const) {
    if (typeof opts[key] === 'string') flags[key] = opts[key];
  }
  return loadConfig(flags, process.env, opts.config as string | undefined);
}

/** Files the server reads from outside its data folder: the operator keeps copies of those. */
function filesOutside(config: ServerConfig, opts: Opts): string[] {
  const configFile = configFileOf(opts.config as string | undefined);
  return [configFile, config.cert, config.key]
    .filter((file): file is string => typeof file === 'string' && file !== '')
    .map((file) => path.resolve(file))
    .filter((file) => !relativeInside(config.data, file));
}

function withPgBin(command: Command): Command {
  return command.option(
    '--pg-bin <dir>',
    "folder of PostgreSQL's pg_dump and pg_restore (default: pg_config, /usr/lib/postgresql, PATH)",
  );
}

/** `cabinet backup <dir>`: a consistent copy of a running installation's state. */
export function backupCommand(io: CliIO): Command {
  const command = new Command('backup')
    .description(
      "Back up Cabinet's database (consistently, while the server runs) and the settings and " +
        'key files of its data folder into a new folder, with a manifest of checksums written ' +
        'last; the served files, the trash and the caches are not part of it (docs/deploy.md)',
    )
    .argument('<dir>', 'backup folder: new or empty');
  addStoreOptions(withPgBin(command)).action(async (dir: string, opts: Opts) => {
    const config = configOf(opts);
    const target = path.resolve(dir);
    const manifest = await takeBackup({
      data: config.data,
      database: config.database,
      root: config.root,
      target,
      pgBin: opts.pgBin as string | undefined,
      notice: (text) => io.err(text),
    });
    io.out(
      `backed up ${describeDatabase(config.database)} (${manifest.engine}, schema ` +
        `${manifest.schemaVersion}) and ${manifest.files.length - 1} file(s) of ${config.data} ` +
        `to ${target}`,
    );
    for (const { path: left, reason } of manifest.skipped)
      io.out(`not included: ${left} (${reason})`);
    for (const file of filesOutside(config, opts)) {
      io.err(`note: ${file} is outside the data folder and not in the backup: keep a copy of it`);
    }
  });
  return command;
}

/** `cabinet restore <dir>`: a checked backup into an empty data folder and a new database. */
export function restoreCommand(io: CliIO): Command {
  const command = new Command('restore')
    .description(
      'Restore a backup taken by `cabinet backup`: checks its manifest and every checksum, then ' +
        'restores the database and the data files into an empty data folder (and, for ' +
        'PostgreSQL, the empty database named by --database); restore the served files first',
    )
    .argument('<dir>', 'backup folder');
  addStoreOptions(withPgBin(command)).action(async (dir: string, opts: Opts) => {
    const config = configOf(opts);
    const source = path.resolve(dir);
    const manifest = await restoreBackup({
      source,
      data: config.data,
      database: config.database,
      root: config.root,
      pgBin: opts.pgBin as string | undefined,
    });
    io.out(
      `restored the backup of ${manifest.created} (Cabinet ${manifest.version}, schema ` +
        `${manifest.schemaVersion}) into ${config.data} and ${describeDatabase(config.database)}`,
    );
  });
  return command;
}
