import path from 'node:path';
import { HOOK_KEYS, Settings, SettingsUpdate } from '@cabinet/protocol';
import type { SettingsRepo } from '../store/settings.repo.ts';
import { describeZodError, errors } from '../errors.ts';
import { validateRules } from './rules-validation.ts';
import { checkLocale } from './users/user-records.ts';

const THEMES = ['', 'light', 'dark'];
const MAX_PASSWORD_LENGTH = 1024;

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface SettingsDeps {
  settings: SettingsRepo;
}

/** The global settings as administrators read and replace them (API and CLI). */
export class SettingsService {
  constructor(private readonly ctx: SettingsDeps) {}

  /** GET /api/settings (admins). */
  async get(): Promise<Settings> {
    return this.ctx.settings.get();
  }

  /**
   * PUT /api/settings (admins): replaces the whole object. Every field is required (a missing one
   * is a 400 naming it); zero values are re-defaulted as filebrowser does (minimum password length
   * 0 → 12, home base "" → /users, tus {0,0} → defaults). Rules are compiled so an invalid regex
   * is a 400 now rather than a failure later.
   */
  async replace(body: unknown): Promise<string[]> {
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw errors.badRequest('request body must be a JSON object');
    }
    const parsed = SettingsUpdate.safeParse(body);
    if (!parsed.success) throw errors.badRequest(describeZodError(parsed.error));
    const next = parsed.data;
    if (!THEMES.includes(next.branding.theme)) {
      throw errors.badRequest('branding.theme must be "", "light" or "dark"');
    }
    if (next.minimumPasswordLength > MAX_PASSWORD_LENGTH) {
      throw errors.badRequest(`minimumPasswordLength must be at most ${MAX_PASSWORD_LENGTH}`);
    }
    for (const key of Object.keys(next.commands)) {
      if (!HOOK_KEYS.includes(key)) throw errors.badRequest(`unknown hook event: ${key}`);
    }
    validateRules(next.rules);
    const defaultLocale = checkLocale(next.defaults.locale, 'defaults.locale');
    const current = await this.ctx.settings.get();
    const saved: Settings = {
      ...next,
      authMethod: current.authMethod,
      // Clients that do not know this Cabinet addition leave it as it was.
      davAccountPassword: next.davAccountPassword ?? current.davAccountPassword,
      userHomeBasePath:
        next.userHomeBasePath &&
        path.posix.normalize(`/${next.userHomeBasePath}`).replace(/(.)\/+$/, '$1'),
      shell: next.shell.map((w) => w.trim()).filter(Boolean),
      commands: Object.fromEntries(
        HOOK_KEYS.map((key) => [
          key,
          (next.commands[key] ?? []).map((c) => c.trim()).filter(Boolean),
        ]),
      ),
      defaults: {
        ...next.defaults,
        locale: defaultLocale,
        perm: { ...next.defaults.perm },
        // A client that does not know quotas (filebrowser's) leaves the default quota alone.
        quota: next.defaults.quota ?? current.defaults.quota ?? 0,
      },
    };
    await this.ctx.settings.save(saved);
    return changedKeys(current, saved);
  }
}

/**
 * The settings keys a save changed, for the audit log (docs/audit.md): `branding.name`-style one
 * level into objects, names only, so no secret (the WebDAV account password) is ever written out.
 */
export function changedKeys(before: object, after: object): string[] {
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys
    .flatMap((key) =>
      isObject(a[key]) && isObject(b[key])
        ? changedKeys(a[key] as object, b[key] as object)
            .map((inner) => inner.split('.')[0])
            .filter((inner, i, all) => all.indexOf(inner) === i)
            .map((inner) => `${key}.${inner}`)
        : JSON.stringify(a[key]) === JSON.stringify(b[key])
          ? []
          : [key],
    )
    .sort();
}
