import type { Perm, Rule, User, UserDefaults, UserWriteRequest } from '@cabinet/protocol';

/** What the user form edits: a user's fields with the commands as one line of text. */
export interface UserFormValue {
  username: string;
  /** Blank keeps the current password when editing. */
  password: string;
  scope: string;
  locale: string;
  lockPassword: boolean;
  singleClick: boolean;
  perm: Perm;
  /** The user's commands as a space-separated line. */
  commands: string;
  rules: Rule[];
  /** The storage quota in bytes (0 = none); null while the typed size is not one. */
  quota: number | null;
}

/** trimmed, split on spaces, empties dropped; empty gives an empty list. */
export function splitWords(line: string): string[] {
  return line.split(/\s+/).filter(Boolean);
}

/** A stored user (or the defaults for a new one) as form values. */
export function toFormValue(user: User | UserDefaults): UserFormValue {
  return {
    username: 'username' in user ? user.username : '',
    password: '',
    scope: user.scope,
    locale: user.locale,
    lockPassword: 'lockPassword' in user ? user.lockPassword : false,
    singleClick: user.singleClick,
    perm: { ...user.perm },
    commands: user.commands.join(' '),
    rules: 'rules' in user ? user.rules.map((r) => ({ ...r })) : [],
    quota: user.quota ?? 0,
  };
}

/** The form's values as the `data` of a users write request. */
export function toUserData(value: UserFormValue): UserWriteRequest['data'] {
  return {
    username: value.username,
    password: value.password,
    scope: value.scope,
    locale: value.locale,
    lockPassword: value.perm.admin ? false : value.lockPassword,
    singleClick: value.singleClick,
    perm: value.perm,
    commands: splitWords(value.commands),
    rules: value.rules,
    quota: value.quota ?? 0,
  };
}

/** The form's values written over the settings' defaults (the fields the defaults card shows). */
export function toDefaults(value: UserFormValue, previous: UserDefaults): UserDefaults {
  return {
    ...previous,
    scope: value.scope,
    locale: value.locale,
    singleClick: value.singleClick,
    perm: value.perm,
    commands: splitWords(value.commands),
    quota: value.quota ?? 0,
  };
}

/** Ticking Administrator turns on every permission. */
export function withAdmin(perm: Perm, admin: boolean): Perm {
  if (!admin) return { ...perm, admin: false };
  return Object.fromEntries(Object.keys(perm).map((k) => [k, true])) as Perm;
}
