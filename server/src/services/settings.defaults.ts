import {
  DEFAULT_TUS,
  HOOK_KEYS,
  LIMITS,
  toLocaleCode,
  type Settings,
  type UserDefaults,
} from '@cabinet/protocol';

/** Defaults applied to new users on a fresh install. */
export function defaultUserDefaults(): UserDefaults {
  return {
    scope: '.',
    locale: 'en',
    viewMode: 'mosaic',
    singleClick: false,
    redirectAfterCopyMove: true,
    sorting: { by: 'name', asc: false },
    perm: {
      admin: false,
      execute: true,
      create: true,
      rename: true,
      modify: true,
      delete: true,
      share: true,
      download: true,
    },
    commands: [],
    hideDotfiles: false,
    dateFormat: false,
    aceEditorTheme: '',
    quota: 0,
  };
}

/** Settings written on first start. */
export function defaultSettings(authMethod = 'json'): Settings {
  return {
    signup: false,
    hideLoginButton: true,
    createUserDir: false,
    minimumPasswordLength: LIMITS.minimumPasswordLength,
    userHomeBasePath: '/users',
    defaults: defaultUserDefaults(),
    authMethod,
    rules: [],
    branding: {
      name: '',
      disableExternal: false,
      disableUsedPercentage: false,
      files: '',
      theme: '',
      color: '',
    },
    tus: { ...DEFAULT_TUS },
    shell: [],
    commands: Object.fromEntries(HOOK_KEYS.map((k) => [k, [] as string[]])),
  };
}

/** Re-applies the read-time defaults filebrowser applies to zero values. */
export function normaliseSettings(settings: Settings): Settings {
  const s = structuredClone(settings);
  if (!s.minimumPasswordLength) s.minimumPasswordLength = LIMITS.minimumPasswordLength;
  if (!s.userHomeBasePath) s.userHomeBasePath = '/users';
  if (!s.tus.chunkSize && !s.tus.retryCount) s.tus = { ...DEFAULT_TUS };
  s.defaults.locale = toLocaleCode(s.defaults.locale) || 'en';
  if (!s.defaults.viewMode) s.defaults.viewMode = 'mosaic';
  for (const key of HOOK_KEYS) s.commands[key] ??= [];
  return s;
}

/** The settings as read: the saved ones, or the defaults on a fresh database, normalised. */
export function settingsOrDefaults(saved: Settings | undefined): Settings {
  return normaliseSettings(saved ?? defaultSettings());
}
