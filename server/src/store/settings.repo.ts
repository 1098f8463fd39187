import type { Settings } from '@cabinet/protocol';
import type { KvRepo } from './kv.repo.ts';

const SETTINGS_KEY = 'settings';

/**
 * Brings a saved value (or none) to complete, valid settings. What valid settings are is the
 * settings service's knowledge (services/settings.defaults.ts); the context hands it in, so the
 * store keeps to reading and writing the row.
 */
export type SettingsNormaliser = (saved: Settings | undefined) => Settings;

/**
 * Reads and writes the global settings. Read from the database on every call so that several
 * instances sharing one database see each other's changes at once.
 */
export class SettingsRepo {
  constructor(
    private readonly kv: KvRepo,
    private readonly normalise: SettingsNormaliser,
  ) {}

  async get(): Promise<Settings> {
    return this.normalise(await this.kv.get<Settings>(SETTINGS_KEY));
  }

  async save(settings: Settings): Promise<void> {
    await this.kv.set(SETTINGS_KEY, this.normalise(settings));
  }

  async exists(): Promise<boolean> {
    return (await this.kv.get(SETTINGS_KEY)) !== undefined;
  }
}
