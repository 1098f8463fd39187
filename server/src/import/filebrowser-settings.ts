import path from 'node:path';
import { HOOK_KEYS, type Settings, type UserDefaults } from '@cabinet/protocol';
import { asObject, count, flag, has, strings, text, type JsonObject } from './json-fields.ts';
import type { ImportNotes } from './import-report.ts';
import { mapLocale, mapRules } from './filebrowser-user.ts';

const THEMES = ['', 'light', 'dark'];
const VIEW_MODES = ['list', 'mosaic', 'mosaic gallery'];
const MAX_PASSWORD_LENGTH = 1024;

/** Settings filebrowser keeps that this mapping reads (the auth method is mapped on its own). */
const KNOWN = new Set([
  'signup',
  'hideLoginButton',
  'createUserDir',
  'userHomeBasePath',
  'defaults',
  'authMethod',
  'branding',
  'tus',
  'commands',
  'shell',
  'rules',
  'minimumPasswordLength',
]);

/** Why a filebrowser setting has no place in Cabinet. */
const NO_EQUIVALENT: Record<string, string> = {
  key:
    'the token signing key; Cabinet signs with its own, so open filebrowser sessions end and ' +
    'everyone signs in again (with the same password)',
  fileMode: 'Cabinet creates files with fixed modes (0644, folders 0755)',
  dirMode: 'Cabinet creates files with fixed modes (0644, folders 0755)',
};

function mapDefaults(raw: JsonObject, base: UserDefaults, notes: ImportNotes): UserDefaults {
  const perm = asObject(raw.perm);
  const sorting = asObject(raw.sorting) ?? {};
  const viewMode = text(raw, 'viewMode');
  return {
    scope: text(raw, 'scope', base.scope) || base.scope,
    locale: mapLocale(text(raw, 'locale', base.locale), 'default user settings', notes) || 'en',
    viewMode: VIEW_MODES.includes(viewMode) ? viewMode : base.viewMode,
    singleClick: flag(raw, 'singleClick', base.singleClick),
    redirectAfterCopyMove: flag(raw, 'redirectAfterCopyMove', base.redirectAfterCopyMove),
    sorting: { by: text(sorting, 'by', 'name') || 'name', asc: flag(sorting, 'asc') },
    perm: {
      // Signup and proxy accounts never become administrators whatever this says (createUser).
      admin: perm ? flag(perm, 'admin') : base.perm.admin,
      execute: perm ? flag(perm, 'execute') : base.perm.execute,
      create: perm ? flag(perm, 'create') : base.perm.create,
      rename: perm ? flag(perm, 'rename') : base.perm.rename,
      modify: perm ? flag(perm, 'modify') : base.perm.modify,
      delete: perm ? flag(perm, 'delete') : base.perm.delete,
      share: perm ? flag(perm, 'share') : base.perm.share,
      download: perm ? flag(perm, 'download') : base.perm.download,
    },
    commands: strings(raw, 'commands'),
    hideDotfiles: flag(raw, 'hideDotfiles', base.hideDotfiles),
    dateFormat: flag(raw, 'dateFormat', base.dateFormat),
    aceEditorTheme: text(raw, 'aceEditorTheme', base.aceEditorTheme),
  };
}

function mapHooks(raw: unknown, notes: ImportNotes): Settings['commands'] {
  const given = asObject(raw) ?? {};
  for (const key of Object.keys(given)) {
    if (!HOOK_KEYS.includes(key)) notes.drop(`event hook "${key}"`, 'Cabinet has no such event');
  }
  const hooks = Object.fromEntries(
    HOOK_KEYS.map((key) => [
      key,
      strings(given, key)
        .map((c) => c.trim())
        .filter(Boolean),
    ]),
  );
  if (Object.values(hooks).some((list) => list.length > 0)) {
    notes.warn('event hooks were imported; they run only when Cabinet starts with --enable-exec');
  }
  return hooks;
}

/**
 * Maps filebrowser's global settings onto Cabinet's, starting from `current` so that anything
 * filebrowser does not say stays as it is. The auth method is left to mapAuth (it is Cabinet
 * configuration, not a setting).
 */
export function mapSettings(json: unknown, current: Settings, notes: ImportNotes): Settings {
  const raw = asObject(json);
  if (!raw) {
    notes.warn("the database holds no readable global settings; Cabinet's are kept");
    return current;
  }
  for (const key of Object.keys(raw)) {
    if (KNOWN.has(key)) continue;
    notes.drop(`setting "${key}"`, NO_EQUIVALENT[key] ?? 'Cabinet has no such setting');
  }
  const branding = asObject(raw.branding) ?? {};
  const theme = text(branding, 'theme', current.branding.theme);
  if (!THEMES.includes(theme)) notes.map(`branding theme "${theme}" → the light theme`);
  const tus = asObject(raw.tus) ?? {};
  const minimum = count(raw, 'minimumPasswordLength');
  const base = text(raw, 'userHomeBasePath', current.userHomeBasePath);
  const settings: Settings = {
    ...current,
    signup: flag(raw, 'signup', current.signup),
    hideLoginButton: flag(raw, 'hideLoginButton', current.hideLoginButton),
    createUserDir: flag(raw, 'createUserDir', current.createUserDir),
    userHomeBasePath: base && path.posix.normalize(`/${base}`).replace(/(.)\/+$/, '$1'),
    minimumPasswordLength:
      minimum === undefined
        ? current.minimumPasswordLength
        : Math.min(minimum, MAX_PASSWORD_LENGTH),
    defaults: mapDefaults(asObject(raw.defaults) ?? {}, current.defaults, notes),
    rules: has(raw, 'rules') ? mapRules(raw.rules, 'global rules', notes) : current.rules,
    branding: {
      name: text(branding, 'name', current.branding.name),
      disableExternal: flag(branding, 'disableExternal', current.branding.disableExternal),
      disableUsedPercentage: flag(
        branding,
        'disableUsedPercentage',
        current.branding.disableUsedPercentage,
      ),
      files: text(branding, 'files', current.branding.files),
      theme: THEMES.includes(theme) ? theme : '',
      color: text(branding, 'color', current.branding.color),
    },
    tus: {
      chunkSize: count(tus, 'chunkSize') ?? current.tus.chunkSize,
      retryCount: count(tus, 'retryCount') ?? current.tus.retryCount,
    },
    shell: has(raw, 'shell')
      ? strings(raw, 'shell')
          .map((w) => w.trim())
          .filter(Boolean)
      : current.shell,
    commands: has(raw, 'commands') ? mapHooks(raw.commands, notes) : current.commands,
  };
  if (settings.branding.files) {
    const folder = settings.branding.files;
    notes.warn(`branding files are read from "${folder}": make that folder reachable by Cabinet`);
  }
  return settings;
}
