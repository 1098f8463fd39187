import type { FastifyInstance } from 'fastify';
import type { Runtime } from '../runtime.ts';
import { authRoutes } from './auth.routes.ts';
import { commandRoutes } from './command.routes.ts';
import { healthRoutes } from './health.routes.ts';
import { previewRoutes } from './preview.routes.ts';
import { publicShareRoutes } from './public-share.routes.ts';
import { rawRoutes } from './raw.routes.ts';
import { resourcesRoutes } from './resources.routes.ts';
import { sessionsRoutes } from './sessions.routes.ts';
import { settingsRoutes } from './settings.routes.ts';
import { shareRoutes } from './share.routes.ts';
import { webHostRoutes } from './web-host.routes.ts';
import { subtitleRoutes } from './subtitle.routes.ts';
import { tusRoutes } from './tus.routes.ts';
import { usersRoutes } from './users.routes.ts';
import { searchRoutes } from './search.routes.ts';
import { eventsRoutes } from './events.routes.ts';
import { siteServeRoutes } from './site-serve.routes.ts';
import { sitesRoutes } from './sites.routes.ts';
import { trashRoutes } from './trash.routes.ts';
import { davRoutes } from './dav.routes.ts';
import { appPasswordsRoutes } from './app-passwords.routes.ts';
import { quotaRoutes } from './quota.routes.ts';
import { twoFactorRoutes } from './two-factor.routes.ts';
import { oidcRoutes } from './oidc.routes.ts';
import { auditRoutes } from './audit.routes.ts';
import { fileJobsRoutes } from './file-jobs.routes.ts';
import { memoryRoutes } from './memory.routes.ts';
import { metricsRoutes } from './metrics.routes.ts';
import { teamsRoutes } from './teams.routes.ts';

export type RouteModule = (app: FastifyInstance, runtime: Runtime) => Promise<void>;

/**
 * Route areas outside /api, registered at the root (after base-URL stripping).
 * Each module registers its own routes and guards.
 */
export const ROOT_ROUTES: RouteModule[] = [
  healthRoutes,
  metricsRoutes,
  webHostRoutes,
  siteServeRoutes,
  davRoutes,
];

/** Route areas under /api. Each module registers its own routes and guards. */
export const API_ROUTES: RouteModule[] = [
  authRoutes,
  usersRoutes,
  sessionsRoutes,
  settingsRoutes,
  tusRoutes,
  resourcesRoutes,
  rawRoutes,
  previewRoutes,
  subtitleRoutes,
  shareRoutes,
  teamsRoutes,
  publicShareRoutes,
  commandRoutes,
  searchRoutes,
  eventsRoutes,
  sitesRoutes,
  trashRoutes,
  appPasswordsRoutes,
  quotaRoutes,
  twoFactorRoutes,
  oidcRoutes,
  auditRoutes,
  fileJobsRoutes,
  memoryRoutes,
];
