import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config/options.ts';
import { bootstrap } from './bootstrap.ts';
import { openDatabase } from './store/db.ts';
import { createStore, type Store } from './store/store.ts';
import { SettingsRepo } from './store/settings.repo.ts';
import { settingsOrDefaults } from './services/settings.defaults.ts';
import { FileRoot } from './fs/file-root.ts';
import { MountTrust } from './tree/watch/mount-trust.ts';
import { pidSpace } from './fs/pid-space.ts';
import { processRuns } from './fs/temp-files.ts';
import { newInstanceId } from './coordination/coordination.ts';
import { openInstanceLease, type InstanceLease } from './coordination/instance-lease.ts';
import { systemClock, type Clock, type Timers } from './coordination/timers.ts';
import { NameIndex } from './tree/index/name-index.ts';
import type { GrantSource } from './fs/mounts.ts';
import { TeamMounts } from './services/teams/team-mounts.ts';

/** Everything services need, built once at start and passed down explicitly. */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  settings: SettingsRepo;
  /** HS256 key for tokens, shared by every instance through the database. */
  signingKey: Uint8Array;
  log: FastifyBaseLogger;
  /** The served tree: real root, case folding, temp-file journal, change feed (see ScopedFs). */
  files: FileRoot;
  /** The name index of the whole root that search answers from (docs/search.md). */
  search: NameIndex;
  /** Which mounts the root crosses and whether their folder watches can be trusted (docs/search.md). */
  mounts: MountTrust;
  /** This instance's id and lease: what its temp files are known by (docs/runtime.md). */
  instance: InstanceLease;
  /** The grants each user's view mounts, kept under the grants generation (docs/teams.md). */
  grants: GrantSource;
}

export interface ContextOptions {
  /** Load and build the search index (default true); CLI commands that only edit the store do not. */
  searchIndex?: boolean;
  /** Holds the search index's background walks until it resolves (tests of the walk fallback). */
  searchGate?: Promise<void>;
  /** This instance's id (default: host, pid and a random part) and its lease's clock and timers. */
  instance?: { id?: string; now?: () => number; timers?: Timers; ttlMs?: number };
  /** The clock shares with people expire by (the runtime's; tests move it instead of waiting). */
  now?: Clock;
}

/** Opens the database, runs migrations and first-start set-up, and returns the context. */
export async function createContext(
  config: ServerConfig,
  log: FastifyBaseLogger,
  options: ContextOptions = {},
): Promise<AppContext> {
  const db = await openDatabase(config.database);
  const store = createStore(db);
  const settings = new SettingsRepo(store.kv, settingsOrDefaults);
  const signingKey = await bootstrap({ config, store, settings, log });
  // The lease is taken before the journal judges other instances' leftovers, and renewed from
  // here on: building the search index below can take minutes on a big tree.
  const instance = await openInstanceLease({
    ...options.instance,
    id: options.instance?.id ?? newInstanceId(),
    instances: store.instances,
    place: { space: await pidSpace(), runs: processRuns },
  });
  instance.start();
  const files = await FileRoot.open({
    root: config.root,
    dataDir: config.data,
    log,
    journal: { instance },
  });
  const mounts = await MountTrust.probe(files.realRoot);
  const search = new NameIndex({
    realRoot: files.realRoot,
    dataDir: config.data,
    log,
    changes: files.changes,
    watch: config.searchWatch,
    reconcileInterval: config.searchReconcileInterval,
    gate: options.searchGate,
  });
  if (options.searchIndex ?? true) await search.start();
  const grants = new TeamMounts(store, files, options.now ?? systemClock);
  return { config, store, settings, signingKey, log, files, search, mounts, instance, grants };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  // A big folder's find under way is stopped: its listing finishes through the thread pool.
  ctx.files.findStats.stop();
  await ctx.search.close();
  await ctx.instance.close();
  await ctx.store.db.destroy();
}
