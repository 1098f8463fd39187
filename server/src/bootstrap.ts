import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config/options.ts';
import { hashPassword } from './credentials/password.ts';
import { generateSigningKey } from './credentials/tokens.ts';
import type { Store } from './store/store.ts';
import { isUniqueViolation } from './store/users.repo.ts';
import type { SettingsRepo } from './store/settings.repo.ts';
import { defaultSettings } from './services/settings.defaults.ts';

const SIGNING_KEY = 'signing_key';

interface BootstrapInput {
  config: ServerConfig;
  store: Store;
  settings: SettingsRepo;
  log: FastifyBaseLogger;
}

/**
 * First-start set-up, idempotent on later starts: the root and data folders, a random signing key,
 * the default settings, and an administrator with a random password printed once (or the password
 * given by configuration). There is never a fixed default password. Returns the signing key.
 */
export async function bootstrap({
  config,
  store,
  settings,
  log,
}: BootstrapInput): Promise<Uint8Array> {
  mkdirSync(config.root, { recursive: true });
  // The data folder holds the database, upload staging and journals: the owner's alone.
  mkdirSync(config.data, { recursive: true, mode: 0o700 });

  // Instances starting together on a new database agree on the key the first one stored.
  const key =
    (await store.kv.get<string>(SIGNING_KEY)) ??
    (await store.kv.setIfAbsent(SIGNING_KEY, generateSigningKey()));

  if (!(await settings.exists())) await settings.save(defaultSettings(config.authMethod));
  const current = await settings.get();
  const branded = {
    ...current.branding,
    ...(config.brandingName !== undefined && { name: config.brandingName }),
    ...(config.brandingTheme !== undefined && { theme: config.brandingTheme }),
    ...(config.brandingFiles !== undefined && { files: config.brandingFiles }),
  };
  if (
    current.authMethod !== config.authMethod ||
    JSON.stringify(branded) !== JSON.stringify(current.branding)
  ) {
    await settings.save({ ...current, authMethod: config.authMethod, branding: branded });
  }

  if ((await store.users.count()) === 0) {
    const generated = !config.adminPassword;
    // 12 random bytes as URL-safe base64: 16 characters, like the reference implementation.
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    const defaults = (await settings.get()).defaults;
    const created = await store.users
      .insert({
        ...defaults,
        username: config.adminUsername,
        // An argon2 hash (from `cabinet hash-password`) is stored as given.
        passwordHash: password.startsWith('$argon2') ? password : await hashPassword(password),
        scope: '.',
        lockPassword: false,
        perm: {
          admin: true,
          execute: true,
          create: true,
          rename: true,
          modify: true,
          delete: true,
          share: true,
          download: true,
        },
        rules: [],
      })
      .then(
        () => true,
        (error: unknown) => {
          // Another instance starting on the same new database created the administrator first.
          if (isUniqueViolation(error)) return false;
          throw error;
        },
      );
    if (!created) {
      log.info(`User '${config.adminUsername}' was initialized by another instance`);
    } else if (generated) {
      log.warn(
        `User '${config.adminUsername}' initialized with randomly generated password: ${password}`,
      );
    } else {
      log.info(`User '${config.adminUsername}' initialized with the configured password`);
    }
  }
  return new TextEncoder().encode(key);
}
