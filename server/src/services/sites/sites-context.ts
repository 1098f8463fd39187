import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../../config/options.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { GrantSource } from '../../fs/mounts.ts';
import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { Store } from '../../store/store.ts';

/**
 * What the sites area uses of the runtime's context, by name (runtime.ts passes it;
 * docs/architecture.md): the site records, the served root, the global rules, and the command
 * limits Hugo runs under.
 */
export interface SitesContext {
  config: Pick<ServerConfig, 'baseURL' | 'commandOutputLimit' | 'commandTimeout' | 'data'>;
  store: Pick<Store, 'commandRuns' | 'sites' | 'users'>;
  files: FileRoot;
  settings: SettingsRepo;
  /** Team folders and shares with people, so a site's owner sees what ScopedFs shows them. */
  grants?: GrantSource;
  log: FastifyBaseLogger;
}
