import { randomBytes } from 'node:crypto';
import {
  LOCALES,
  toLocaleCode,
  type Perm,
  type Rule,
  type Sorting,
  type User,
} from '@cabinet/protocol';
import type { Store } from '../../store/store.ts';
import type { ServerConfig } from '../../config/options.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import { ensureHomeDir } from '../../config/home-dir.ts';
import { errors } from '../../errors.ts';
import { hashPassword } from '../../credentials/password.ts';
import { isUniqueViolation, type UserRecord } from '../../store/users.repo.ts';
import { checkPasswordPolicy } from '../sign-in/password-policy.ts';
import { validateRules } from '../rules-validation.ts';
import { deriveHomeScope, sameScope } from './home-scope.ts';
import { isAdmin } from '../permissions.ts';

/** User fields as a client may send them: everything optional, perm and sorting partial. */
export type UserInput = Partial<Omit<User, 'perm' | 'sorting'>> & {
  perm?: Partial<Perm>;
  sorting?: Partial<Sorting>;
};

/**
 * Who creates the user. `admin` and `cli` honour the given fields; `signup` and `proxy` are
 * self-provisioned and never get admin, execute or commands (GHSA-7526-j432-6ppp).
 */
export type CreationKind = 'admin' | 'cli' | 'signup' | 'proxy' | 'oidc';

/** The wire shape of a user: never the hash, password always "", scope hidden when asked. */
export function toWireUser(user: UserRecord, options: { hideScope?: boolean } = {}): User {
  const { passwordHash: _hash, updatedAt: _updated, ...fields } = user;
  return {
    ...fields,
    password: '',
    scope: options.hideScope ? '' : user.scope,
    quota: user.quota ?? 0,
  };
}

/** Admin implies every other permission. */
export function normalisePerm(perm: Perm): Perm {
  if (!perm.admin) return perm;
  return Object.fromEntries(Object.keys(perm).map((k) => [k, true])) as Perm;
}

/** Sharing hands out download links, so it needs the download permission. */
export function checkPermConsistency(perm: Perm): void {
  if (perm.share && !perm.download) {
    throw errors.badRequest('permission to share requires permission to download');
  }
}

/** A username is non-empty, without surrounding spaces, control characters or slashes. */
export function checkUsername(username: string): void {
  if (!username.trim()) throw errors.badRequest('username is required');
  if (username !== username.trim()) {
    throw errors.badRequest('username cannot start or end with spaces');
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f/\\]/.test(username) || username.length > 255) {
    throw errors.badRequest('username contains characters that are not allowed');
  }
}

/**
 * A locale a client sends: one of the 18 codes, "" (the browser's language) or a spelling of the
 * reference ("pt_BR", "zhCN", "en_US"), returned as Cabinet's code. Anything else is a 400, so a
 * typo cannot leave an account in a language no catalogue serves.
 */
export function checkLocale(raw: string, field = 'locale'): string {
  const code = toLocaleCode(raw);
  if (code === null) {
    throw errors.badRequest(
      `${field} "${raw.slice(0, 40)}" is not a known locale; use "" or one of ${LOCALES.join(', ')}`,
    );
  }
  return code;
}

/** A stored scope may not contain NUL bytes; it is joined lexically under the root when used. */
export function checkScope(scope: string): void {
  if (scope.includes('\0')) throw errors.badRequest('scope contains a NUL byte');
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface UserRecordsDeps {
  config: Pick<ServerConfig, 'root'>;
  store: Pick<Store, 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/** Hashes a new password after checking it against the policy in the current settings. */
export async function hashNewPassword(
  ctx: Pick<UserRecordsDeps, 'settings'>,
  password: string,
): Promise<string> {
  const { minimumPasswordLength } = await ctx.settings.get();
  await checkPasswordPolicy(password, minimumPasswordLength);
  return hashPassword(password);
}

/** Number of administrators, used to keep at least one. */
export async function countAdmins(ctx: { store: Pick<Store, 'users'> }): Promise<number> {
  return (await ctx.store.users.list()).filter((u) => isAdmin(u)).length;
}

/**
 * Creates a user from the settings' defaults and the given fields, applying every policy:
 * password rules, permission consistency, valid rules, a unique name (409) and, with
 * createUserDir, a derived home folder that no other user owns (409), created on disk. It checks
 * then inserts: callers serialise it (UsersService.create holds the provisioning lock).
 */
export async function createUser(
  ctx: UserRecordsDeps,
  kind: CreationKind,
  input: UserInput & { username: string; password?: string },
): Promise<UserRecord> {
  const settings = await ctx.settings.get();
  const { defaults } = settings;
  const provisioned = kind === 'signup' || kind === 'proxy' || kind === 'oidc';
  // The proxy or the OpenID provider vouches for these users (docs/sso.md).
  const vouched = kind === 'proxy' || kind === 'oidc';
  checkUsername(input.username);
  if (await ctx.store.users.byUsername(input.username)) {
    throw errors.conflict('username already taken');
  }

  let passwordHash: string;
  if (vouched) {
    // The proxy vouches for the user; the random password can never be typed or changed.
    passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  } else {
    if (!input.password) throw errors.badRequest('password is required');
    passwordHash = await hashNewPassword(ctx, input.password);
  }

  let perm = normalisePerm({ ...defaults.perm, ...(provisioned ? {} : input.perm) });
  if (provisioned) perm = { ...perm, admin: false, execute: false };
  checkPermConsistency(perm);

  const rules: Rule[] = provisioned ? [] : (input.rules ?? []);
  validateRules(rules);

  let scope: string;
  // The OpenID provider may name the scope (--oidc-scope-claim, docs/sso.md): the administrator
  // chose to trust that claim. Other self-provisioned users get the defaults' scope.
  const claimedScope = kind === 'oidc' ? input.scope?.trim() : undefined;
  if (provisioned && !claimedScope) {
    scope = defaults.scope;
    if (settings.createUserDir) {
      scope = deriveHomeScope(settings.userHomeBasePath, input.username);
      const owners = await ctx.store.users.list();
      if (owners.some((u) => sameScope(u.scope, scope))) {
        throw errors.conflict('home folder already belongs to another user');
      }
    }
  } else {
    // An admin's empty scope asks for a home folder (createUserDir) or the root; the CLI without
    // --scope does the same with createUserDir and otherwise takes the default scope.
    scope = input.scope ?? (kind === 'cli' && !settings.createUserDir ? defaults.scope : '');
    if (!scope.trim()) {
      scope = settings.createUserDir
        ? deriveHomeScope(settings.userHomeBasePath, input.username)
        : '/';
    }
  }
  checkScope(scope);
  if (settings.createUserDir) await ensureHomeDir(ctx.config.root, scope);

  // Self-provisioned users take only their name and password; everything else is the default.
  const given: UserInput = provisioned ? {} : input;
  const record: Omit<UserRecord, 'id' | 'updatedAt'> = {
    username: input.username,
    passwordHash,
    scope,
    locale: checkLocale(given.locale ?? '') || defaults.locale,
    lockPassword: vouched ? true : perm.admin ? false : (given.lockPassword ?? false),
    viewMode: given.viewMode || defaults.viewMode,
    singleClick: given.singleClick ?? defaults.singleClick,
    redirectAfterCopyMove: given.redirectAfterCopyMove ?? defaults.redirectAfterCopyMove,
    perm,
    commands: provisioned ? [] : (given.commands ?? defaults.commands),
    sorting: {
      by: given.sorting?.by || defaults.sorting.by || 'name',
      asc: given.sorting?.asc ?? defaults.sorting.asc,
    },
    rules,
    hideDotfiles: given.hideDotfiles ?? defaults.hideDotfiles,
    dateFormat: given.dateFormat ?? defaults.dateFormat,
    aceEditorTheme: given.aceEditorTheme || defaults.aceEditorTheme,
    quota: given.quota ?? defaults.quota ?? 0,
  };
  let id: number;
  try {
    id = await ctx.store.users.insert(record);
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.conflict('username already taken');
    throw error;
  }
  return (await ctx.store.users.byId(id))!;
}
