import { ADMIN_ONLY_USER_FIELDS, type UserWriteRequest } from '@cabinet/protocol';
import type { Store } from '../../store/store.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import { errors } from '../../errors.ts';
import type { UserRecord } from '../../store/users.repo.ts';
import { validateRules } from '../rules-validation.ts';
import {
  checkLocale,
  checkPermConsistency,
  checkScope,
  checkUsername,
  countAdmins,
  hashNewPassword,
  normalisePerm,
} from './user-records.ts';
import { isAdmin } from '../permissions.ts';

/** Fields a PUT may name in `which` (every User field but id). */
const UPDATABLE_FIELDS = [
  'username',
  'password',
  'scope',
  'locale',
  'lockPassword',
  'viewMode',
  'singleClick',
  'redirectAfterCopyMove',
  'perm',
  'commands',
  'sorting',
  'rules',
  'hideDotfiles',
  'dateFormat',
  'aceEditorTheme',
  'quota',
] as const;
type UpdatableField = (typeof UPDATABLE_FIELDS)[number];

const FIELD_BY_LOWER = new Map<string, UpdatableField>(
  UPDATABLE_FIELDS.map((f) => [f.toLowerCase(), f]),
);
const ADMIN_ONLY = new Set<string>(ADMIN_ONLY_USER_FIELDS.map((f) => f.toLowerCase()));
/** Changing these proves the caller knows the current password (json auth). */
const SENSITIVE = new Set([
  'username',
  'password',
  'scope',
  'lockpassword',
  'commands',
  'perm',
  'rules',
]);

export interface ResolvedWhich {
  /** Every field replaced (which empty or containing "all"). */
  all: boolean;
  fields: UpdatableField[];
  needsCurrentPassword: boolean;
}

/**
 * Maps the `which` list to real field names, case-insensitively. Non-admins are refused (403)
 * before anything else when an entry names an admin-only field in any spelling, including
 * dotted or decorated forms such as "Perm", "perm.admin" or " scope", and "all" or an empty
 * list. Unknown names are a 400.
 */
export function resolveWhich(which: readonly string[], isAdmin: boolean): ResolvedWhich {
  const keys = which.map((entry) => entry.trim().toLowerCase());
  const all = keys.length === 0 || keys.includes('all');
  if (!isAdmin) {
    if (all) throw errors.forbidden('only administrators may replace a whole user');
    for (const key of keys) {
      const head = key.split(/[^a-z]/)[0] ?? '';
      const letters = key.replace(/[^a-z]/g, '');
      if (
        ADMIN_ONLY.has(head) ||
        [...ADMIN_ONLY].some((f) => letters.startsWith(f)) ||
        head === '' ||
        head === 'all'
      ) {
        throw errors.forbidden(`only administrators may change "${key}"`);
      }
    }
  }
  if (all) return { all: true, fields: [...UPDATABLE_FIELDS], needsCurrentPassword: true };
  const fields: UpdatableField[] = [];
  for (const [i, key] of keys.entries()) {
    const field = FIELD_BY_LOWER.get(key);
    if (!field) throw errors.badRequest(`unknown field in which: ${which[i]}`);
    if (!fields.includes(field)) fields.push(field);
  }
  return {
    all: false,
    fields,
    needsCurrentPassword: keys.some((k) => SENSITIVE.has(k)),
  };
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface UserUpdateDeps {
  store: Pick<Store, 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
}

/**
 * Builds the updated record from the request: only the named fields change (all of the given
 * ones with "all"). Applies the password policy and lockPassword, permission consistency,
 * unique names, valid rules, and keeps at least one administrator.
 */
export async function applyUserChanges(
  ctx: UserUpdateDeps,
  actor: { isAdmin: boolean },
  target: UserRecord,
  which: ResolvedWhich,
  data: UserWriteRequest['data'],
): Promise<{ record: UserRecord; passwordChanged: boolean }> {
  const next: UserRecord = structuredClone(target);
  let passwordChanged = false;
  for (const field of which.fields) {
    const value = data[field];
    if (value === undefined) {
      if (which.all) continue;
      throw errors.badRequest(`data.${field} is missing`);
    }
    switch (field) {
      case 'password': {
        const password = data.password ?? '';
        if (which.all && password === '') break;
        if (!actor.isAdmin && target.lockPassword) {
          throw errors.forbidden('this user may not change their password');
        }
        if (!password) throw errors.badRequest('password is required');
        next.passwordHash = await hashNewPassword(ctx, password);
        passwordChanged = true;
        break;
      }
      case 'perm':
        next.perm = { ...target.perm, ...data.perm };
        break;
      case 'sorting':
        next.sorting = { ...target.sorting, ...data.sorting };
        break;
      case 'username':
        checkUsername(data.username ?? '');
        next.username = data.username ?? '';
        break;
      case 'scope':
        checkScope(data.scope ?? '');
        next.scope = data.scope ?? '';
        break;
      case 'locale':
        next.locale = checkLocale(data.locale ?? '');
        break;
      case 'rules':
        validateRules(data.rules ?? []);
        next.rules = data.rules ?? [];
        break;
      default:
        (next as unknown as Record<string, unknown>)[field] = value;
    }
  }
  next.perm = normalisePerm(next.perm);
  if (isAdmin(next)) next.lockPassword = false;
  if (which.all || which.fields.includes('perm')) checkPermConsistency(next.perm);
  if (isAdmin(target) && !isAdmin(next) && (await countAdmins(ctx)) <= 1) {
    throw errors.badRequest('the last administrator cannot lose administrator rights');
  }
  if (next.username !== target.username) {
    const holder = await ctx.store.users.byUsername(next.username);
    if (holder && holder.id !== target.id) throw errors.conflict('username already taken');
  }
  return { record: next, passwordChanged };
}
