import {
  PERM_NAMES,
  compileRulePattern,
  toLocaleCode,
  type Perm,
  type Rule,
  type UserDefaults,
} from '@cabinet/protocol';
import { isBcryptHash } from '../credentials/password.ts';
import type { UserRecord } from '../store/users.repo.ts';
import { asObject, count, flag, strings, text, type JsonObject } from './json-fields.ts';
import type { ImportNotes } from './import-report.ts';

/** A filebrowser user ready to insert, with the id the shares of filebrowser point at. */
export interface MappedUser {
  sourceId: number;
  /** Its passwordHash is '' when hasUsablePassword is false: the importer puts a random one. */
  record: Omit<UserRecord, 'id' | 'updatedAt'>;
  /** False when the stored hash is not a bcrypt hash Cabinet can verify. */
  hasUsablePassword: boolean;
}

export type UserMapping = { user: MappedUser } | { skipped: { what: string; reason: string } };

const VIEW_MODES = ['list', 'mosaic', 'mosaic gallery'];
const RULE_TEXT_MAX = 4096;
const SORT_KEY_MAX = 32;

/**
 * The same test Cabinet applies to new usernames: not empty, no surrounding spaces, no control
 * characters or slashes (a name becomes a home folder's name), at most 255 characters.
 */
function usernameProblem(username: string): string | undefined {
  if (!username.trim()) return 'the username is empty';
  if (username !== username.trim()) return 'the username starts or ends with spaces';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f/\\]/.test(username) || username.length > 255) {
    return 'the username holds characters Cabinet does not allow (control characters or slashes)';
  }
  return undefined;
}

function mapPerm(raw: JsonObject | undefined): Perm {
  const perm = Object.fromEntries(PERM_NAMES.map((name) => [name, false])) as Perm;
  for (const name of PERM_NAMES) perm[name] = raw ? flag(raw, name) : false;
  // As Cabinet stores administrators: admin implies every other permission.
  if (perm.admin) for (const name of PERM_NAMES) perm[name] = true;
  return perm;
}

/**
 * Rules as filebrowser stores them (the same shape as Cabinet's). Rules are kept even when their
 * expression does not compile here (RE2 syntax JavaScript lacks): Cabinet evaluates such a rule
 * failing closed, so dropping it could only widen access. Each one is reported.
 */
export function mapRules(raw: unknown, owner: string, notes: ImportNotes): Rule[] {
  if (!Array.isArray(raw)) return [];
  const rules: Rule[] = [];
  for (const item of raw) {
    const rule = asObject(item);
    if (!rule) continue;
    const regexp = asObject(rule.regexp);
    const mapped: Rule = {
      regex: flag(rule, 'regex'),
      allow: flag(rule, 'allow'),
      path: text(rule, 'path').slice(0, RULE_TEXT_MAX),
      regexp: regexp ? { raw: text(regexp, 'raw').slice(0, RULE_TEXT_MAX) } : null,
    };
    if (mapped.regex) {
      try {
        compileRulePattern(mapped.regexp?.raw ?? '');
      } catch (error) {
        const closed = mapped.allow ? 'allows nothing' : 'blocks everything';
        notes.warn(
          `${owner}: the rule expression "${mapped.regexp?.raw ?? ''}" does not compile here ` +
            `(${(error as Error).message}); kept, and it fails closed (${closed}) until you fix it`,
        );
      }
    }
    rules.push(mapped);
  }
  return rules;
}

/** A locale as Cabinet spells it; one it has no catalogue for becomes "" (the browser's). */
export function mapLocale(raw: string, owner: string, notes: ImportNotes): string {
  const code = toLocaleCode(raw);
  if (code === null) {
    notes.map(`${owner}: locale "${raw}" has no Cabinet catalogue; the browser's language is used`);
    return '';
  }
  if (code !== raw) notes.map(`${owner}: locale "${raw}" → "${code}"`);
  return code;
}

/**
 * Maps one decoded filebrowser user onto a Cabinet user record. The password hash is kept as it
 * is when it is bcrypt (the account's first login rehashes it); any other is left out, so such an
 * account cannot sign in by password until an administrator sets one.
 */
export function mapUser(
  json: unknown,
  label: string,
  defaults: UserDefaults,
  notes: ImportNotes,
): UserMapping {
  const raw = asObject(json);
  if (!raw) return { skipped: { what: label, reason: 'the record is not a JSON object' } };
  const sourceId = count(raw, 'id');
  const username = text(raw, 'username');
  const what = username ? `user "${username}"` : label;
  if (sourceId === undefined || sourceId === 0) {
    return { skipped: { what, reason: 'the record has no valid id' } };
  }
  const problem = usernameProblem(username);
  if (problem) return { skipped: { what, reason: problem } };
  const scope = text(raw, 'scope', '.');
  if (scope.includes('\0')) return { skipped: { what, reason: 'the scope holds a NUL byte' } };

  const passwordHash = text(raw, 'password');
  const hasUsablePassword = isBcryptHash(passwordHash);
  if (!hasUsablePassword) {
    notes.warn(
      `${username}: the stored password is not a bcrypt hash Cabinet can check; the account ` +
        'signs in once an administrator sets a password (cabinet users update … -p)',
    );
  }
  const perm = mapPerm(asObject(raw.perm));
  if (perm.share && !perm.download) {
    notes.map(`${username}: may share but not download; Cabinet allows sharing only with both`);
  }
  const viewMode = text(raw, 'viewMode');
  const sorting = asObject(raw.sorting) ?? {};
  const record: MappedUser['record'] = {
    username,
    passwordHash: hasUsablePassword ? passwordHash : '',
    scope: scope || '.',
    locale: mapLocale(text(raw, 'locale'), username, notes),
    lockPassword: perm.admin ? false : flag(raw, 'lockPassword'),
    viewMode: VIEW_MODES.includes(viewMode) ? viewMode : defaults.viewMode,
    singleClick: flag(raw, 'singleClick'),
    redirectAfterCopyMove: flag(raw, 'redirectAfterCopyMove', defaults.redirectAfterCopyMove),
    perm,
    commands: strings(raw, 'commands'),
    sorting: {
      by: text(sorting, 'by', 'name').slice(0, SORT_KEY_MAX) || 'name',
      asc: flag(sorting, 'asc'),
    },
    rules: mapRules(raw.rules, username, notes),
    hideDotfiles: flag(raw, 'hideDotfiles'),
    dateFormat: flag(raw, 'dateFormat'),
    aceEditorTheme: text(raw, 'aceEditorTheme'),
  };
  if (viewMode && !VIEW_MODES.includes(viewMode)) {
    notes.map(`${username}: view mode "${viewMode}" → "${defaults.viewMode}"`);
  }
  return { user: { sourceId, record, hasUsablePassword } };
}
