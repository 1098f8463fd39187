import { Command, InvalidArgumentError, Option } from 'commander';
import type { Settings } from '@cabinet/protocol';
import { PERM_NAMES } from '@cabinet/protocol';
import { addStoreOptions, withAdminContext, type CliIO } from './admin-context.ts';

function parseBool(value: string): boolean {
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new InvalidArgumentError('expected true or false');
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

type Apply = (settings: Settings, value: never) => void;
interface SettingFlag {
  flag: string;
  kind: 'bool' | 'number' | 'string';
  description: string;
  apply: Apply;
}

/** Every setting `config set` can change, with the path it writes. */
const SETTING_FLAGS: SettingFlag[] = [
  {
    flag: 'signup',
    kind: 'bool',
    description: 'allow self-registration',
    apply: (s, v: boolean) => void (s.signup = v),
  },
  {
    flag: 'create-user-dir',
    kind: 'bool',
    description: 'give new users their own home folder',
    apply: (s, v: boolean) => void (s.createUserDir = v),
  },
  {
    flag: 'hide-login-button',
    kind: 'bool',
    description: 'hide the login button on public pages',
    apply: (s, v: boolean) => void (s.hideLoginButton = v),
  },
  {
    flag: 'min-password-length',
    kind: 'number',
    description: 'minimum password length',
    apply: (s, v: number) => void (s.minimumPasswordLength = v),
  },
  {
    flag: 'user-home-base-path',
    kind: 'string',
    description: 'folder under the root for home folders',
    apply: (s, v: string) => void (s.userHomeBasePath = v),
  },
  {
    flag: 'branding-name',
    kind: 'string',
    description: 'instance name',
    apply: (s, v: string) => void (s.branding.name = v),
  },
  {
    flag: 'branding-theme',
    kind: 'string',
    description: 'theme: light (or "") or dark',
    apply: (s, v: string) => void (s.branding.theme = v === 'light' ? '' : v),
  },
  {
    flag: 'branding-color',
    kind: 'string',
    description: 'accent colour, e.g. #2979ff',
    apply: (s, v: string) => void (s.branding.color = v),
  },
  {
    flag: 'branding-files',
    kind: 'string',
    description: 'folder with custom.css and img/ overrides',
    apply: (s, v: string) => void (s.branding.files = v),
  },
  {
    flag: 'branding-disable-external',
    kind: 'bool',
    description: 'hide external links',
    apply: (s, v: boolean) => void (s.branding.disableExternal = v),
  },
  {
    flag: 'branding-disable-used-percentage',
    kind: 'bool',
    description: 'hide the disk usage bar',
    apply: (s, v: boolean) => void (s.branding.disableUsedPercentage = v),
  },
  {
    flag: 'shell',
    kind: 'string',
    description: 'shell for commands, e.g. "/bin/sh -c" ("" for none)',
    apply: (s, v: string) => void (s.shell = v.split(/\s+/).filter(Boolean)),
  },
  {
    flag: 'tus-chunk-size',
    kind: 'number',
    description: 'resumable upload chunk size in bytes',
    apply: (s, v: number) => void (s.tus.chunkSize = v),
  },
  {
    flag: 'tus-retry-count',
    kind: 'number',
    description: 'resumable upload retries',
    apply: (s, v: number) => void (s.tus.retryCount = v),
  },
  {
    flag: 'default-scope',
    kind: 'string',
    description: 'scope of new users',
    apply: (s, v: string) => void (s.defaults.scope = v),
  },
  {
    flag: 'default-locale',
    kind: 'string',
    description: 'language of new users',
    apply: (s, v: string) => void (s.defaults.locale = v),
  },
  {
    flag: 'default-view-mode',
    kind: 'string',
    description: 'view mode of new users',
    apply: (s, v: string) => void (s.defaults.viewMode = v),
  },
  {
    flag: 'default-hide-dotfiles',
    kind: 'bool',
    description: 'new users hide dotfiles',
    apply: (s, v: boolean) => void (s.defaults.hideDotfiles = v),
  },
  {
    flag: 'default-commands',
    kind: 'string',
    description: 'commands new users may run, space separated',
    apply: (s, v: string) => void (s.defaults.commands = v.split(/\s+/).filter(Boolean)),
  },
  ...PERM_NAMES.filter((p) => p !== 'admin').map((perm): SettingFlag => ({
    flag: `default-perm-${perm}`,
    kind: 'bool',
    description: `new users get the ${perm} permission`,
    apply: (s, v: boolean) => void (s.defaults.perm[perm] = v),
  })),
];

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** `cabinet config show|set`: read and change the global settings without a browser. */
export function configCommand(io: CliIO): Command {
  const config = new Command('config').description('Show or change the global settings');

  addStoreOptions(config.command('show').description('Print the settings as JSON')).action(
    async (_opts, command: Command) => {
      await withAdminContext(command.opts(), io, async (ctx) => {
        io.out(JSON.stringify(await ctx.settings.get(), null, 2));
      });
    },
  );

  const set = addStoreOptions(
    config
      .command('set')
      .description('Change the settings named by the flags (others stay); validated like the API'),
  );
  for (const spec of SETTING_FLAGS) {
    const option =
      spec.kind === 'bool'
        ? new Option(`--${spec.flag} [bool]`, `${spec.description} (true/false)`).argParser(
            parseBool,
          )
        : new Option(
            `--${spec.flag} <${spec.kind === 'number' ? 'n' : 'value'}>`,
            spec.description,
          );
    if (spec.kind === 'number') option.argParser(parseCount);
    set.addOption(option);
  }
  set.action(async (_opts, command: Command) => {
    const opts = command.opts();
    await withAdminContext(opts, io, async (ctx, services) => {
      const settings = await ctx.settings.get();
      const changed: string[] = [];
      for (const spec of SETTING_FLAGS) {
        const value = opts[camel(spec.flag)];
        if (value === undefined) continue;
        (spec.apply as (s: Settings, v: unknown) => void)(settings, value);
        changed.push(spec.flag);
      }
      if (changed.length === 0)
        throw new Error('nothing to change: give at least one setting flag');
      await services.settings.replace(settings);
      io.out(`updated ${changed.join(', ')}`);
    });
  });
  return config;
}
