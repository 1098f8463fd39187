import { Command, Option } from 'commander';
import { OPTIONS } from '../config/options.ts';
import { loadConfig, type FlagValues } from '../config/load-config.ts';
import { VERSION } from '../config/version.ts';
import { processIO, type CliIO } from './admin-context.ts';
import { backupCommand, restoreCommand } from './backup.command.ts';
import { configCommand } from './config.command.ts';
import { dbCommand } from './db.command.ts';
import { hashPasswordCommand } from './hash-password.command.ts';
import { importCommand } from './import.command.ts';
import { serve } from './serve.ts';
import { usersCommand } from './users.command.ts';

export { VERSION };

/** Adds every configuration option of config/options.ts as a flag. */
export function addConfigOptions(command: Command): Command {
  command.option(
    '-c, --config <file>',
    'JSON config file (also CABINET_CONFIG; ./cabinet.json when present)',
  );
  for (const spec of OPTIONS) {
    const env = ` [env ${spec.env}]`;
    // An empty default says nothing; the description tells what an unset option means.
    const def =
      spec.default === undefined || spec.default === ''
        ? ''
        : ` (default: ${String(spec.default)})`;
    if (spec.type === 'boolean') {
      command.addOption(new Option(`--${spec.flag} [bool]`, `${spec.description}${env}${def}`));
      command.addOption(new Option(`--no-${spec.flag}`, `Turn off --${spec.flag}`).hideHelp());
    } else {
      const option = new Option(`--${spec.flag} <value>`, `${spec.description}${env}${def}`);
      if (spec.choices) option.choices(spec.choices);
      command.addOption(option);
    }
  }
  return command;
}

/** Maps commander's parsed options back to config keys. */
export function flagsFrom(opts: Record<string, unknown>): {
  flags: FlagValues;
  configFile: string | undefined;
} {
  const flags: FlagValues = {};
  for (const spec of OPTIONS) {
    const camel = spec.flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    const value = opts[camel];
    if (value !== undefined) flags[spec.key] = value === true ? 'true' : value;
  }
  return { flags, configFile: opts.config as string | undefined };
}

/** The `cabinet` command line: `serve` (default) and the administration commands. */
export function buildProgram(io: CliIO = processIO): Command {
  const program = new Command('cabinet')
    .description('Cabinet: a self-hosted web file manager')
    .version(VERSION)
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: (text) => io.err(text) });
  addConfigOptions(
    program
      .command('serve', { isDefault: true })
      .description('Serve the web app and API (default command)')
      .action(async (_args, command: Command) => {
        const { flags, configFile } = flagsFrom(command.opts());
        await serve(loadConfig(flags, process.env, configFile));
      }),
  );
  program.addCommand(usersCommand(io));
  program.addCommand(configCommand(io));
  program.addCommand(dbCommand(io));
  program.addCommand(hashPasswordCommand(io));
  program.addCommand(importCommand(io));
  program.addCommand(backupCommand(io));
  program.addCommand(restoreCommand(io));
  return program;
}
