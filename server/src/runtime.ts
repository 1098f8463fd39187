import type { AppContext } from './context.ts';
import { MemoryNamedLock } from './coordination-ports.ts';
import { AuthService } from './services/auth.service.ts';
import { AttemptLimiter } from './services/auth/rate-limit.ts';
import { CommandsService } from './services/commands.service.ts';
import { EventHooks } from './services/event-hooks.ts';
import { PreviewService } from './services/preview.service.ts';
import { PublicShareService, SHARE_PASSWORD_LIMIT } from './services/public-share.service.ts';
import { RawService } from './services/raw.service.ts';
import { ResourcesService } from './services/resources.service.ts';
import { SearchService } from './services/search.service.ts';
import { SessionsService } from './services/sessions.service.ts';
import { SettingsService } from './services/settings.service.ts';
import { ShareService } from './services/share.service.ts';
import { SubtitleService } from './services/subtitle.service.ts';
import { TusService } from './services/tus.service.ts';
import { ExpirySweeper, sweepInterval } from './services/tus/expiry-sweeper.ts';
import { UploadLocks } from './services/tus/upload-locks.ts';
import { UsersService } from './services/users.service.ts';

/** Every service, built once per process; routes, workers and the CLI receive them from here. */
export interface Services {
  auth: AuthService;
  sessions: SessionsService;
  users: UsersService;
  settings: SettingsService;
  resources: ResourcesService;
  raw: RawService;
  preview: PreviewService;
  subtitles: SubtitleService;
  shares: ShareService;
  publicShares: PublicShareService;
  tus: TusService;
  commands: CommandsService;
  search: SearchService;
}

/**
 * The composition root: the context, the services built from it, and the long-lived parts
 * (attempt counters, upload locks, timed work) whose start and stop follow the app's.
 */
export interface Runtime {
  readonly ctx: AppContext;
  readonly services: Services;
  /** Starts timed work (the app is ready to serve). */
  start(): Promise<void>;
  /** Stops uploads in flight so a shutdown does not wait for slow clients. */
  abortRequests(): Promise<void>;
  /** Stops timed work and waits for what is running. */
  stop(): Promise<void>;
}

/** Builds every service from the context; nothing runs until `start()`. */
export function createRuntime(ctx: AppContext): Runtime {
  const windowMs = ctx.config.rateLimitWindow * 1000;
  const hooks = new EventHooks(ctx);
  const shares = new ShareService(ctx);
  const users = new UsersService(ctx, new MemoryNamedLock());
  const uploadLocks = new UploadLocks();
  const tus = new TusService(ctx, hooks, uploadLocks);
  const services: Services = {
    auth: new AuthService(ctx, users, {
      login: new AttemptLimiter(ctx.config.rateLimitMax, windowMs),
      signup: new AttemptLimiter(ctx.config.rateLimitMax, windowMs),
    }),
    sessions: new SessionsService(ctx),
    users,
    settings: new SettingsService(ctx),
    resources: new ResourcesService(ctx, hooks, shares),
    raw: new RawService(ctx),
    preview: new PreviewService(ctx),
    subtitles: new SubtitleService(ctx),
    shares,
    publicShares: new PublicShareService(
      ctx,
      shares,
      new AttemptLimiter(SHARE_PASSWORD_LIMIT.max, SHARE_PASSWORD_LIMIT.windowMs),
    ),
    tus,
    commands: new CommandsService(ctx),
    search: new SearchService(ctx),
  };
  const sweeper = new ExpirySweeper(
    () => tus.sweep(),
    sweepInterval(tus.expiry),
    ctx.log.child({ area: 'tus' }),
  );
  return {
    ctx,
    services,
    start: () => sweeper.start(),
    abortRequests: () => uploadLocks.abortAll(),
    async stop() {
      await sweeper.stop();
      services.preview.close();
    },
  };
}
