import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config/options.ts';
import { bootstrap } from './bootstrap.ts';
import { openDatabase } from './store/db.ts';
import { createStore, type Store } from './store/store.ts';
import { SettingsStore } from './services/settings.store.ts';
import { FileRoot } from './fs/file-root.ts';

/** Everything services need, built once at start and passed down explicitly. */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  settings: SettingsStore;
  /** HS256 key for tokens, shared by every instance through the database. */
  signingKey: Uint8Array;
  log: FastifyBaseLogger;
  /** The served tree: real root, case folding, temp-file journal, change feed (see ScopedFs). */
  files: FileRoot;
}

/** Opens the database, runs migrations and first-start set-up, and returns the context. */
export async function createContext(
  config: ServerConfig,
  log: FastifyBaseLogger,
): Promise<AppContext> {
  const db = await openDatabase(config.database);
  const store = createStore(db);
  const settings = new SettingsStore(store);
  const signingKey = await bootstrap({ config, store, settings, log });
  const files = await FileRoot.open({ root: config.root, dataDir: config.data, log });
  return { config, store, settings, signingKey, log, files };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.store.db.destroy();
}
