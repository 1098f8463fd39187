import type { TFunction } from 'i18next';
import { ApiError } from '../../api/api-error.ts';

/** The fields of the settings forms a server refusal can point at. */
export type ErrorField = 'username' | 'password' | 'currentPassword' | 'scope' | 'perm' | 'rules';

/** A refusal placed on the field it concerns, or on the form as a whole (`field` undefined). */
export interface PlacedError {
  field?: ErrorField;
  message: string;
}

/** The server's reason (from "400 Bad Request (reason)"), else the server's whole text. */
export function reasonOf(error: ApiError): string {
  return (error.reason ?? error.detail).trim();
}

/** Known refusals of the users and settings APIs, their field, and words for people. */
const KNOWN: {
  test: RegExp;
  field: ErrorField;
  say: (t: TFunction, m: RegExpExecArray) => string;
}[] = [
  {
    test: /current password is required/i,
    field: 'currentPassword',
    say: (t) => t('firstWeek.currentPasswordRequired'),
  },
  {
    test: /current password is incorrect/i,
    field: 'currentPassword',
    say: (t) => t('settings.errCurrentPassword'),
  },
  { test: /username already taken/i, field: 'username', say: (t) => t('login.usernameTaken') },
  {
    test: /username/i,
    field: 'username',
    say: (t, m) => t('settings.errUsername', { reason: m.input }),
  },
  {
    test: /too short, minimum length is (\d+)/i,
    field: 'password',
    say: (t, m) => t('settings.errPasswordShort', { count: Number(m[1]) }),
  },
  { test: /password is too easy/i, field: 'password', say: (t) => t('settings.errPasswordEasy') },
  {
    test: /password is required/i,
    field: 'password',
    say: (t) => t('settings.errPasswordRequired'),
  },
  {
    test: /last administrator cannot be deleted/i,
    field: 'perm',
    say: (t) => t('settings.errLastAdminDelete'),
  },
  { test: /last administrator/i, field: 'perm', say: (t) => t('settings.errLastAdmin') },
  {
    test: /share requires permission to download/i,
    field: 'perm',
    say: (t) => t('settings.errShareNeedsDownload'),
  },
  {
    test: /invalid rule regex: (.*)$/i,
    field: 'rules',
    say: (t, m) => t('settings.errRule', { reason: m[1] }),
  },
  { test: /scope/i, field: 'scope', say: (_t, m) => m.input },
];

/**
 * Places a failed save on the field it concerns, in words for people. Anything unknown (network,
 * permissions, server faults) stays on the form as the server's reason.
 */
export function placeError(error: unknown, t: TFunction): PlacedError {
  if (!(error instanceof ApiError)) return { message: String(error) };
  if (error.kind === 'network') return { message: t('errors.network') };
  const reason = reasonOf(error);
  for (const known of KNOWN) {
    const match = known.test.exec(reason);
    if (match) return { field: known.field, message: known.say(t, match) };
  }
  // A 409 carries no reason on the wire; in these forms only a name can clash.
  if (error.kind === 'conflict') return { field: 'username', message: t('login.usernameTaken') };
  if (error.kind === 'forbidden') return { message: t('errors.forbidden') };
  return { message: reason.charAt(0).toUpperCase() + reason.slice(1) };
}
