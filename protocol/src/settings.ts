import * as z from 'zod/mini';
import { Perm, QuotaBytes, Rule, Sorting } from './user.ts';

/** The hook events a settings `commands` map always carries. */
export const HOOK_EVENTS = ['save', 'copy', 'rename', 'upload', 'delete'] as const;
export const HOOK_KEYS = HOOK_EVENTS.flatMap((e) => [`before_${e}`, `after_${e}`]);

/** Settings applied to users created by admins, signup and proxy provisioning. */
export const UserDefaults = z.object({
  scope: z.string(),
  locale: z.string(),
  viewMode: z.string(),
  singleClick: z.boolean(),
  redirectAfterCopyMove: z.boolean(),
  sorting: Sorting,
  perm: Perm,
  commands: z.array(z.string()),
  hideDotfiles: z.boolean(),
  dateFormat: z.boolean(),
  aceEditorTheme: z.string(),
  /** Cabinet addition: the quota of new users in bytes, 0 = none; kept when a PUT omits it. */
  quota: z.optional(QuotaBytes),
});
export type UserDefaults = z.infer<typeof UserDefaults>;

export const Branding = z.object({
  name: z.string(),
  disableExternal: z.boolean(),
  disableUsedPercentage: z.boolean(),
  files: z.string(),
  theme: z.string(),
  color: z.string(),
});
export type Branding = z.infer<typeof Branding>;

export const TusSettings = z.object({
  chunkSize: z.int().check(z.nonnegative()),
  retryCount: z.int().check(z.nonnegative()),
});

/** The global settings object of GET and PUT /api/settings. */
export const Settings = z.object({
  signup: z.boolean(),
  hideLoginButton: z.boolean(),
  createUserDir: z.boolean(),
  minimumPasswordLength: z.int().check(z.nonnegative()),
  userHomeBasePath: z.string(),
  defaults: UserDefaults,
  authMethod: z.string(),
  rules: z.array(Rule),
  branding: Branding,
  tus: TusSettings,
  shell: z.array(z.string()),
  commands: z.record(z.string(), z.array(z.string())),
  /**
   * Cabinet addition: WebDAV accepts the account password beside app passwords (absent means
   * true). Users with two-factor sign-in always need an app password.
   */
  davAccountPassword: z.optional(z.boolean()),
});
export type Settings = z.infer<typeof Settings>;

/**
 * Body of PUT /api/settings: the whole settings object. `authMethod` may be sent (clients echo
 * what they read) but is ignored, because the method is chosen by the server's configuration.
 */
export const SettingsUpdate = z.extend(Settings, {
  /** Ignored: the server's configuration chooses the authentication method. */
  authMethod: z.optional(z.string()),
});
export type SettingsUpdate = z.infer<typeof SettingsUpdate>;
