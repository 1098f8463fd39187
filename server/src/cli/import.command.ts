import path from 'node:path';
import { Command } from 'commander';
import { loadConfig, type FlagValues } from '../config/load-config.ts';
import { ScopedFs } from '../fs/scoped-fs.ts';
import { settingsOrDefaults } from '../services/settings.defaults.ts';
import {
  filebrowserOptions,
  parseConfigFile,
  type FilebrowserOptions,
} from '../import/filebrowser-config-file.ts';
import { importFilebrowser, type ImportTarget } from '../import/filebrowser-import.ts';
import { readFilebrowserDb, type FilebrowserSource } from '../import/filebrowser-source.ts';
import { formatReport, type CabinetConfig, type ImportReport } from '../import/import-report.ts';
import {
  assertNewFile,
  databaseExists,
  folderExists,
  readSourceDatabase,
  readTextFile,
  scratchFolder,
  writeNewFile,
} from '../import/import-files.ts';
import { withAdminContext, type CliIO } from './admin-context.ts';

type Opts = Record<string, unknown>;

/** Config keys whose values are secrets: printed masked, written only with --write-config. */
const SECRET_KEYS = ['recaptchaSecret'];

async function readOptions(opts: Opts): Promise<FilebrowserOptions> {
  const file = typeof opts.config === 'string' ? opts.config : undefined;
  const entries = file ? parseConfigFile(await readTextFile(file), file) : [];
  return filebrowserOptions(entries, file, process.env);
}

/** The configuration block printed after the report; secrets are masked on screen. */
function configLines(config: CabinetConfig, written: string | undefined): string[] {
  const shown = { ...config };
  for (const key of SECRET_KEYS) {
    if (typeof shown[key] === 'string') shown[key] = '(hidden: written by --write-config)';
  }
  return [
    '',
    written
      ? `Cabinet configuration from filebrowser's server settings, written to ${written}:`
      : "Cabinet configuration from filebrowser's server settings (not applied; save it as " +
        'cabinet.json, or pass --write-config <file>):',
    JSON.stringify(shown, null, 2),
  ];
}

/**
 * `cabinet import filebrowser <filebrowser.db>`: moves a filebrowser v2 installation's users,
 * share links and settings into Cabinet's database in one transaction (docs/migrate.md), and
 * prints its server settings as Cabinet configuration.
 */
export function importCommand(io: CliIO): Command {
  const command = new Command('import').description('Import another file manager into Cabinet');
  command
    .command('filebrowser')
    .description(
      'Import a filebrowser v2 database: users (with their passwords), share links, settings; ' +
        "print its server settings as Cabinet's configuration",
    )
    .argument('[database]', "filebrowser's database file (default: the database its config names)")
    .option('--config <file>', "filebrowser's config file (.filebrowser.json, .yaml or .toml)")
    .option('--dry-run', 'print what would be imported and change nothing')
    .option(
      '--merge',
      'import beside existing Cabinet users; a taken name is skipped, never overwritten',
    )
    .option('--write-config <file>', 'write the Cabinet configuration to this new file')
    .option(
      '--cabinet-config <file>',
      "Cabinet's JSON config file (also CABINET_CONFIG; ./cabinet.json when present)",
    )
    .option('--data <dir>', 'data folder holding the database [env CABINET_DATA] (default: ./data)')
    .option('--database <file>', 'SQLite file or postgres:// URL [env CABINET_DATABASE]')
    .option('--root <dir>', 'the served folder, where share links are looked up [env CABINET_ROOT]')
    .action(async (database: string | undefined, opts: Opts) => {
      const options = await readOptions(opts);
      const named = options.values.get('database');
      const sourceFile = database ?? (named === undefined ? undefined : String(named));
      if (!sourceFile) {
        throw new Error(
          'name the filebrowser database: cabinet import filebrowser path/to/filebrowser.db',
        );
      }
      const write = typeof opts.writeConfig === 'string' ? opts.writeConfig : undefined;
      if (write) assertNewFile(write);
      // The source is read and checked before Cabinet's database is opened, so a bad file
      // changes nothing at all.
      const source = readFilebrowserDb(await readSourceDatabase(sourceFile));
      const report = await runImport(io, opts, sourceFile, source, options);
      for (const line of formatReport(report)) io.out(line);
      if (write && !report.dryRun) {
        await writeNewFile(write, `${JSON.stringify(report.cabinetConfig, null, 2)}\n`);
      }
      for (const line of configLines(report.cabinetConfig, report.dryRun ? undefined : write)) {
        io.out(line);
      }
    });
  return command;
}

async function runImport(
  io: CliIO,
  opts: Opts,
  sourceFile: string,
  source: FilebrowserSource,
  options: FilebrowserOptions,
): Promise<ImportReport> {
  const flags: FlagValues = {};
  for (const key of ['data', 'database', 'root'] as const) {
    if (typeof opts[key] === 'string') flags[key] = opts[key];
  }
  const cabinetConfigFile = typeof opts.cabinetConfig === 'string' ? opts.cabinetConfig : undefined;
  const config = loadConfig(flags, process.env, cabinetConfigFile);
  const dryRun = opts.dryRun === true;
  const intoNewDatabase = !databaseExists(config.database);
  // A dry run into a database that does not exist yet plans against a throw-away one, so that
  // it creates nothing where the real import would.
  const scratch = dryRun && intoNewDatabase ? await scratchFolder() : undefined;
  const adminOpts: Opts = scratch
    ? {
        config: cabinetConfigFile,
        data: scratch.dir,
        database: path.join(scratch.dir, 'cabinet.db'),
        root: folderExists(config.root) ? config.root : path.join(scratch.dir, 'files'),
      }
    : { ...flags, config: cabinetConfigFile };
  // Notices of opening the database (a first start's generated password) wait for the outcome:
  // an administrator the import replaces, or one of a throw-away database, is nobody's.
  const notices: string[] = [];
  const adminIO: CliIO = { out: io.out, err: (line) => notices.push(line) };
  let report: ImportReport | undefined;
  try {
    report = await withAdminContext(adminOpts, adminIO, async (ctx, services) => {
      const target: ImportTarget = {
        store: ctx.store,
        normaliseSettings: settingsOrDefaults,
        adminUsername: ctx.config.adminUsername,
        // Where the item really is, whatever rules say: links are bound to real paths, and the
        // owner's rules are applied again whenever the link is opened.
        async locateShare(owner, sharePath) {
          try {
            const fs = await ScopedFs.open(ctx.files, {
              scope: owner.scope,
              rules: [],
              hideDotfiles: false,
            });
            const item = await fs.stat(sharePath);
            return { target: services.shares.targetOf(item), isDir: item.stat.isDirectory() };
          } catch {
            return undefined;
          }
        },
      };
      const imported = await importFilebrowser(source, target, {
        source: sourceFile,
        dryRun,
        merge: opts.merge === true,
        intoNewDatabase,
        options,
      });
      const servedRoot = imported.cabinetConfig.root;
      if (typeof servedRoot === 'string' && path.resolve(servedRoot) !== config.root) {
        imported.notes.warn(
          `filebrowser served "${servedRoot}" but this Cabinet's root is "${config.root}": share ` +
            'links were looked up there; start Cabinet on the same folder (root in the config below)',
        );
      }
      return imported;
    });
    return report;
  } finally {
    await scratch?.remove();
    const replaced = report?.freshAdmin?.outcome === 'replaced';
    for (const line of notices) {
      const generated = / initialized with randomly generated password/.test(line);
      if (!scratch && !(replaced && generated)) io.err(line);
    }
  }
}
