import { Command, Option } from 'commander';
import { PERM_NAMES, type Perm } from '@cabinet/protocol';
import type { AppContext } from '../context.ts';
import type { UserRecord } from '../store/users.repo.ts';
import type { UsersService } from '../services/users.service.ts';
import type { UserInput } from '../services/users/user-records.ts';
import { addStoreOptions, withAdminContext, type CliIO } from './admin-context.ts';

/** Permissions other than admin, which has its own --admin flag. */
const PERMS = PERM_NAMES.filter((p) => p !== 'admin');

/** Flags shared by `users add` and `users update`: the profile and every permission. */
function addUserFieldOptions(command: Command): Command {
  command
    .option('--admin', 'make the user an administrator (implies every permission)')
    .option('--no-admin', 'remove administrator rights')
    .option('--scope <path>', 'folder inside the root the user sees')
    .option('--locale <code>', 'interface language, e.g. en, de, pt-br')
    .option('--view-mode <mode>', 'listing view: list, mosaic or "mosaic gallery"')
    .option('--lock-password', 'the user may not change their own password')
    .option('--no-lock-password', 'let the user change their own password')
    .option('--single-click', 'open items with one click')
    .option('--no-single-click', 'open items with a double click')
    .option('--hide-dotfiles', 'hide files whose names start with a dot')
    .option('--no-hide-dotfiles', 'show dotfiles')
    .option('--commands <words>', 'commands the user may run, space separated');
  for (const perm of PERMS) {
    command.addOption(new Option(`--perm-${perm}`, `grant the ${perm} permission`));
    command.addOption(new Option(`--no-perm-${perm}`, `deny the ${perm} permission`));
  }
  return command;
}

type Opts = Record<string, unknown>;
const camel = (flag: string) => flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/** The user fields named by the flags that were given (undefined ones are left alone). */
function fieldsFromOptions(opts: Opts, base?: Perm): UserInput {
  const input: UserInput = {};
  if (typeof opts.scope === 'string') input.scope = opts.scope;
  if (typeof opts.locale === 'string') input.locale = opts.locale;
  if (typeof opts.viewMode === 'string') input.viewMode = opts.viewMode;
  if (typeof opts.lockPassword === 'boolean') input.lockPassword = opts.lockPassword;
  if (typeof opts.singleClick === 'boolean') input.singleClick = opts.singleClick;
  if (typeof opts.hideDotfiles === 'boolean') input.hideDotfiles = opts.hideDotfiles;
  if (typeof opts.commands === 'string')
    input.commands = opts.commands.split(/\s+/).filter(Boolean);
  const perm: Partial<Perm> = {};
  if (typeof opts.admin === 'boolean') perm.admin = opts.admin;
  for (const name of PERMS) {
    const value = opts[camel(`perm-${name}`)];
    if (typeof value === 'boolean') perm[name] = value;
  }
  if (Object.keys(perm).length > 0) input.perm = { ...base, ...perm };
  return input;
}

function describeUser(user: UserRecord): string {
  const perms = PERM_NAMES.filter((p) => user.perm[p]).join(',') || '-';
  return [
    String(user.id),
    user.username,
    user.scope,
    user.locale,
    perms,
    user.lockPassword ? 'locked' : '',
  ]
    .join('\t')
    .trimEnd();
}

/** Commander keeps defaults for --no-x flags; only flags given on the line should count. */
function givenOptions(command: Command): Opts {
  const opts = command.opts();
  const given: Opts = {};
  for (const key of Object.keys(opts)) {
    if (command.getOptionValueSource(key) === 'cli') given[key] = opts[key];
  }
  return given;
}

/** `cabinet users ls|add|update|rm`: manage accounts in the database without a browser. */
export function usersCommand(io: CliIO): Command {
  const users = new Command('users').description('Manage users in the database');

  addStoreOptions(
    users.command('ls').description('List users (id, name, scope, locale, permissions)'),
  ).action(async (_opts: Opts, command: Command) => {
    await withAdminContext(command.opts(), io, async (ctx: AppContext) => {
      io.out('ID\tUsername\tScope\tLocale\tPermissions');
      for (const user of await ctx.store.users.list()) io.out(describeUser(user));
    });
  });

  addUserFieldOptions(
    addStoreOptions(
      users
        .command('add')
        .description("Create a user with the settings' defaults and the given flags")
        .argument('<username>', 'login name')
        .argument('<password>', 'password (checked against the password policy)'),
    ),
  ).action(async (username: string, password: string, _opts: Opts, command: Command) => {
    const opts = givenOptions(command);
    await withAdminContext(command.opts(), io, async (ctx, services) => {
      const defaults = (await ctx.settings.get()).defaults;
      const input = fieldsFromOptions(opts, defaults.perm);
      const user = await services.users.create('cli', { ...input, username, password });
      io.out(`created user ${user.id} (${user.username})`);
    });
  });

  addUserFieldOptions(
    addStoreOptions(
      users
        .command('update')
        .description('Change a user; only the flags given change')
        .argument('<id|name>', 'user id or username')
        .option('-p, --password <password>', "new password (revokes the user's sessions)")
        .option('-u, --username <name>', 'new username'),
    ),
  ).action(async (idOrName: string, _opts: Opts, command: Command) => {
    const opts = givenOptions(command);
    await withAdminContext(command.opts(), io, async (_ctx, services) => {
      const target = await services.users.find(idOrName);
      const data = { id: target.id, ...fieldsFromOptions(opts, target.perm) } as Parameters<
        UsersService['updateFields']
      >[2];
      if (typeof opts.password === 'string') data.password = opts.password;
      if (typeof opts.username === 'string') data.username = opts.username;
      const fields = Object.keys(data).filter((k) => k !== 'id');
      const user = await services.users.updateFields(target.id, fields, data);
      io.out(fields.length ? `updated user ${user.id} (${user.username})` : 'nothing to change');
    });
  });

  addStoreOptions(
    users
      .command('rm')
      .description('Delete a user (never the last administrator)')
      .argument('<id|name>', 'user id or username'),
  ).action(async (idOrName: string, _opts: Opts, command: Command) => {
    await withAdminContext(command.opts(), io, async (_ctx, { users }) => {
      const target = await users.find(idOrName);
      await users.delete(target.id);
      io.out(`deleted user ${target.id} (${target.username})`);
    });
  });

  return users;
}
