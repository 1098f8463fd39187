import { Command, Option } from 'commander';
import { OPTIONS } from '../config/options.ts';
import { loadConfig, type FlagValues } from '../config/load-config.ts';
import { serve } from './serve.ts';

export const VERSION = process.env.CABINET_VERSION ?? '0.1.0';

/** Adds every configuration option of config/options.ts as a flag. */
export function addConfigOptions(command: Command): Command {
  command.option(
    '-c, --config <file>',
    'JSON config file (also CABINET_CONFIG; ./cabinet.json when present)',
  );
  for (const spec of OPTIONS) {
    const env = ` [env ${spec.env}]`;
    const def = spec.default === undefined ? '' : ` (default: ${String(spec.default)})`;
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

/** The `cabinet` command line. */
export function buildProgram(): Command {
  const program = new Command('cabinet')
    .description('Cabinet: a self-hosted web file manager')
    .version(VERSION);
  addConfigOptions(
    program
      .command('serve', { isDefault: true })
      .description('Serve the web app and API (default command)')
      .action(async (_args, command: Command) => {
        const { flags, configFile } = flagsFrom(command.opts());
        await serve(loadConfig(flags, process.env, configFile));
      }),
  );
  return program;
}
