import type { Settings } from '@cabinet/protocol';
import type { Store } from '../store/store.ts';
import { defaultSettings, normaliseSettings } from './settings.defaults.ts';

const SETTINGS_KEY = 'settings';

/**
 * Reads and writes the global settings. Read from the database on every call so that several
 * instances sharing one database see each other's changes at once.
 */
export class SettingsStore {
  constructor(private readonly store: Store) {}

  async get(): Promise<Settings> {
    const saved = await this.store.kv.get<Settings>(SETTINGS_KEY);
    return normaliseSettings(saved ?? defaultSettings());
  }

  async save(settings: Settings): Promise<void> {
    await this.store.kv.set(SETTINGS_KEY, normaliseSettings(settings));
  }

  async exists(): Promise<boolean> {
    return (await this.store.kv.get(SETTINGS_KEY)) !== undefined;
  }
}
