import type { AppContext } from './context.ts';
import {
  createCoordination,
  type Coordination,
  type CoordinationMode,
} from './coordination/index.ts';
import { engineOf, poolStats } from './store/db.ts';
import { AppPasswordsService } from './services/app-passwords.service.ts';
import { AuthService } from './services/auth.service.ts';
import { DavService } from './services/dav/dav.service.ts';
import { CommandsService } from './services/commands.service.ts';
import { EventHooks } from './services/event-hooks.ts';
import { EventStreams } from './services/events/event-streams.ts';
import { PreviewService } from './services/preview.service.ts';
import { QuotaService } from './services/quota/quota.service.ts';
import { PublicShareService, SHARE_PASSWORD_LIMIT } from './services/public-share.service.ts';
import { RawService } from './services/raw.service.ts';
import { ResourcesService } from './services/resources.service.ts';
import { SearchService } from './services/search.service.ts';
import { SessionsService } from './services/sessions.service.ts';
import { SettingsService } from './services/settings.service.ts';
import { ShareService } from './services/share.service.ts';
import { SubtitleService } from './services/subtitle.service.ts';
import { TusService } from './services/tus.service.ts';
import { sweepInterval } from './services/tus/expiry-sweeper.ts';
import { SITE_JOBS, SitesService } from './services/sites.service.ts';
import { staleBuildMs } from './services/sites/site-builder.ts';
import { UsersService } from './services/users.service.ts';
import { TrashService } from './services/trash/trash.service.ts';
import { TwoFactorService } from './services/sign-in/totp.ts';
import { OidcService } from './services/sign-in/oidc.ts';
import { AuditLog } from './services/audit/audit-log.ts';
import { FILE_JOB_RUN, FileJobsService } from './services/file-jobs/file-jobs.service.ts';
import { ListingCache } from './tree/listing/listing-cache.ts';
import { realTimers, systemClock, type Clock, type Timers } from './coordination/timers.ts';
import { listenPostgres, notifyPostgres, postgresEventWakeups } from './store/notices.ts';
import { ChangeRelay } from './tree/change-relay.ts';
import { trustedWatches, UntrustedReconcile } from './tree/watch/watch-trust.ts';
import { TeamsService } from './services/teams/teams.service.ts';
import { RuntimeMetrics } from './services/metrics/runtime-metrics.ts';

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
  /** The signed-in pages' event streams (docs/jobs.md). */
  events: EventStreams;
  /** The static-site area (docs/sites.md). */
  sites: SitesService;
  trash: TrashService;
  appPasswords: AppPasswordsService;
  dav: DavService;
  quota: QuotaService;
  twoFactor: TwoFactorService;
  /** OpenID Connect single sign-on (docs/sso.md). */
  oidc: OidcService;
  /** Who did what (docs/audit.md). */
  audit: AuditLog;
  /** Background copy, move and delete jobs (docs/jobs.md). */
  fileJobs: FileJobsService;
  /** Groups, team folders, shares with people (docs/teams.md). */
  teams: TeamsService;
}

/**
 * The composition root: the context, the services built from it, and the long-lived parts they
 * share (attempt counters, named locks, upload leases, the scheduler), whose start and stop follow
 * the app's (docs/runtime.md).
 */
export interface Runtime {
  readonly ctx: AppContext;
  readonly services: Services;
  readonly coordination: Coordination;
  /** Stat'ed children of watched folders for listings (tree/listing/listing-cache.ts). */
  readonly listingCache: ListingCache;
  /** Where folder watches can be trusted, and how the rest is kept right (docs/search.md). */
  readonly tree: TreeTrust;
  /** The figures of GET /metrics, in this runtime's own registry; null without `--metrics`. */
  readonly metrics: RuntimeMetrics | null;
  /** Sweeps what expired while the server was down, then starts the timed work. */
  start(): Promise<void>;
  /** Stops uploads in flight so a shutdown does not wait for slow clients. */
  abortRequests(): Promise<void>;
  /** Stops the timed work, waiting for what runs. */
  stop(): Promise<void>;
}

export interface RuntimeOptions {
  /** Names this process in lease rows and job claims (default: host, pid and a random part). */
  instanceId?: string;
  /**
   * The one clock every service reads: what uploads, share links, sessions and file jobs expire
   * by, what audit entries and app passwords are stamped with, what single sign-on judges its
   * state and ID tokens by (default the system's; tests move it instead of waiting).
   */
  now?: Clock;
  /** Off records no audit entries (the benchmark's baseline, docs/benchmarks.md); default on. */
  auditLog?: boolean;
  /** The waits of the tree's periodic reconciliation and relay (default real ones; tests drive them). */
  timers?: Timers;
  /** Awaited after each file a copy job lands (default none; tests hold a run mid-way with it). */
  afterJobFile?: () => Promise<void>;
}

/** The parts that keep listings, search and live folders right where watches alone cannot. */
export interface TreeTrust {
  /** Reconciles the search index on mounts whose watches miss changes. */
  readonly reconcile: UntrustedReconcile;
  /** Other instances' changes over PostgreSQL `LISTEN/NOTIFY`; null on one host (SQLite, one instance). */
  readonly relay: ChangeRelay | null;
}

/** Timed work of the runtime, one recurring scheduler job each (one run across instances). */
export const JOBS = {
  /** Abandoned resumable uploads: their staging files and records. */
  sweepUploads: 'uploads.sweep',
  /** Session rows that expired more than a day ago. */
  pruneSessions: 'sessions.prune',
  /** Trashed items past the retention period or over a user's byte cap (docs/trash.md). */
  purgeTrash: 'trash.purge',
  /** Recounts the usage of every scope with a quota (changes made outside Cabinet). */
  reconcileQuotas: 'quota.reconcile',
  /** Audit entries past the retention period (docs/audit.md). */
  purgeAudit: 'audit.purge',
  /** Background file jobs that ended more than FINISHED_JOBS_KEPT_MS ago (docs/jobs.md). */
  pruneFileJobs: 'files.jobs.prune',
  /** Temp files of instances whose lease expired since this one started (docs/runtime.md). */
  sweepTempFiles: 'files.temp.sweep',
} as const;

const SWEEP_TEMP_FILES_EVERY_MS = 10 * 60 * 1000;

const PRUNE_FILE_JOBS_EVERY_MS = 60 * 60 * 1000;

const PURGE_AUDIT_EVERY_MS = 60 * 60 * 1000;

const PURGE_TRASH_EVERY_MS = 60 * 60 * 1000;

const PRUNE_SESSIONS_EVERY_MS = 60 * 60 * 1000;
/** Previews last minutes (sites/site-preview.ts): swept often so their space stays small. */
const SWEEP_SITE_PREVIEWS_EVERY_MS = 2 * 60 * 1000;
const SWEEP_SITE_BUILDS_EVERY_MS = 30 * 60 * 1000;
const RECONCILE_QUOTAS_EVERY_MS = 15 * 60 * 1000;

/** `auto` shares state through the database on PostgreSQL (the several-instance engine). */
export function coordinationMode(ctx: AppContext): CoordinationMode {
  const chosen = ctx.config.sharedState;
  if (chosen === 'process' || chosen === 'database') return chosen;
  return engineOf(ctx.store.db) === 'postgres' ? 'database' : 'process';
}

/** Builds every service from the context; nothing runs until `start()`. */
export function createRuntime(ctx: AppContext, options: RuntimeOptions = {}): Runtime {
  const coordination = createCoordination({
    store: ctx.store,
    mode: coordinationMode(ctx),
    instanceId: options.instanceId ?? ctx.instance.id,
    log: ctx.log.child({ area: 'coordination' }),
    isGone: (id) => ctx.instance.isGone(id),
    eventWakeups:
      engineOf(ctx.store.db) === 'postgres'
        ? postgresEventWakeups(ctx.config.database, ctx.store.db)
        : undefined,
  });
  const windowMs = ctx.config.rateLimitWindow * 1000;
  const now = options.now ?? systemClock;
  const audit = new AuditLog(ctx, { enabled: options.auditLog, now });
  const hooks = new EventHooks(ctx, audit, now);
  const teams = new TeamsService(ctx, coordination.events, now);
  const shares = new ShareService(ctx, now, teams);
  const users = new UsersService(ctx, coordination.lock);
  const quota = new QuotaService(ctx, now);
  const tus = new TusService(ctx, hooks, coordination.uploadLeases, quota, now);
  // Trashed bytes count toward the quota until they leave the trash (docs/quotas.md).
  const trash = new TrashService(ctx, shares, quota, audit, now);
  quota.countAlso((owner) => trash.bytesOf(owner.id));
  const twoFactor = new TwoFactorService(
    ctx,
    coordination.attempts('two-factor', ctx.config.rateLimitMax, windowMs),
  );
  const loginAttempts = coordination.attempts('login', ctx.config.rateLimitMax, windowMs);
  const appPasswords = new AppPasswordsService(
    ctx,
    loginAttempts,
    (id) => twoFactor.hasTwoFactor(id),
    now,
  );
  const sessions = new SessionsService(ctx, appPasswords, now);
  const timers = options.timers ?? realTimers;
  // Instances on one PostgreSQL database may run on several hosts: their changes travel over it.
  // On SQLite they share one host, whose watches see every instance's writes.
  const relay =
    coordination.mode === 'database' && engineOf(ctx.store.db) === 'postgres'
      ? new ChangeRelay({
          transport: {
            listen: (channels, handlers) => listenPostgres(ctx.config.database, channels, handlers),
            notify: (channel, payload) => notifyPostgres(ctx.store.db, channel, payload),
          },
          changes: ctx.files.changes,
          realRoot: ctx.files.realRoot,
          log: ctx.log.child({ area: 'tree' }),
          timers,
          resync: () => {
            listingCache.clear();
            ctx.search.rebuild();
          },
        })
      : null;
  // Shared by every user's listings; fed by the search index's folder watches where they can be
  // trusted (docs/benchmarks.md, docs/search.md).
  const listingCache = new ListingCache(
    trustedWatches(ctx.search, ctx.mounts, relay ?? undefined),
    ctx.config.listingCache * 1024 * 1024,
  );
  const reconcile = new UntrustedReconcile({
    index: ctx.search,
    mounts: ctx.mounts,
    intervalSeconds: ctx.config.untrustedReconcileInterval,
    timers,
    log: ctx.log.child({ area: 'tree' }),
  });
  const resources = new ResourcesService(
    ctx,
    hooks,
    shares,
    trash,
    quota,
    listingCache,
    relay ?? undefined,
  );
  const auth = new AuthService(
    ctx,
    users,
    {
      login: loginAttempts,
      signup: coordination.attempts('signup', ctx.config.rateLimitMax, windowMs),
    },
    twoFactor,
    audit,
    now,
  );
  const services: Services = {
    auth,
    sessions,
    users,
    settings: new SettingsService(ctx),
    resources,
    quota,
    raw: new RawService(ctx),
    preview: new PreviewService(ctx),
    subtitles: new SubtitleService(ctx),
    shares,
    publicShares: new PublicShareService(
      ctx,
      shares,
      coordination.attempts(
        'share-password',
        SHARE_PASSWORD_LIMIT.max,
        SHARE_PASSWORD_LIMIT.windowMs,
      ),
      quota,
      listingCache,
      relay ?? undefined,
      now,
    ),
    tus,
    commands: new CommandsService(ctx, audit, now),
    search: new SearchService(ctx),
    events: new EventStreams(ctx, coordination.events, sessions, { now }),
    sites: new SitesService(ctx, {
      scheduler: coordination.scheduler,
      lock: coordination.lock,
      events: coordination.events,
      now,
      quota,
    }),
    trash,
    appPasswords,
    dav: new DavService(ctx, resources, coordination.davLocks),
    twoFactor,
    oidc: new OidcService(ctx, users, auth, now),
    audit,
    fileJobs: new FileJobsService(
      ctx,
      {
        resources,
        audit,
        scheduler: coordination.scheduler,
        events: coordination.events,
        instanceId: coordination.instanceId,
        afterFile: options.afterJobFile,
      },
      now,
    ),
    teams,
  };

  const log = ctx.log.child({ area: 'runtime' });
  const { scheduler } = coordination;
  scheduler.handle(JOBS.sweepUploads, async () => {
    const removed = await tus.sweep();
    if (removed > 0) log.info({ removed }, 'removed abandoned uploads');
  });
  scheduler.handle(JOBS.pruneSessions, () => ctx.store.sessions.prune());
  // Scheduled publications of the static-site area, one job per post (docs/sites.md).
  scheduler.handle(SITE_JOBS.publish, (job) => services.sites.runScheduledPublish(job));
  scheduler.handle(SITE_JOBS.sweepPreviews, async () => {
    await services.sites.sweepPreviews();
  });
  // Build folders a crash or stop left in site folders; a running build's are younger than this.
  scheduler.handle(SITE_JOBS.sweepBuilds, async () => {
    const removed = await services.sites.sweepBuilds(staleBuildMs(ctx.config.commandTimeout));
    if (removed > 0) log.info({ removed }, 'removed build folders of interrupted site builds');
  });
  scheduler.handle(JOBS.purgeTrash, async () => {
    const purged = await trash.purge();
    if (purged > 0) log.info({ purged }, 'purged trashed items');
  });
  scheduler.handle(JOBS.purgeAudit, async () => {
    const purged = await audit.purge();
    if (purged > 0) log.info({ purged }, 'purged audit entries');
  });
  scheduler.handle(JOBS.reconcileQuotas, async (_job, signal) => {
    await quota.reconcile(signal);
  });
  // Users' background copy/move/delete jobs: one scheduler job per run (docs/jobs.md).
  scheduler.handle(FILE_JOB_RUN, (job, signal) => services.fileJobs.run(job, signal));
  // A crashed instance restarted within its lease left temp files that no start removed.
  scheduler.handle(JOBS.sweepTempFiles, async () => {
    const removed = await ctx.files.journal.cleanUp();
    if (removed > 0) log.info({ removed }, 'removed temp files of interrupted writes');
  });
  scheduler.handle(JOBS.pruneFileJobs, async () => {
    const pruned = await services.fileJobs.pruneFinished(now());
    if (pruned > 0) log.info({ pruned }, 'pruned finished file jobs');
  });

  const metrics = ctx.config.metrics
    ? new RuntimeMetrics({
        listingCache,
        searchIndex: () => {
          const table = ctx.search.current;
          return table ? { entries: table.live, builtAt: ctx.search.builtAt } : null;
        },
        mounts: () => ctx.mounts.reports,
        jobsByState: () => ctx.store.fileJobs.countByState(),
        oldestQueuedJob: () => ctx.store.fileJobs.oldestQueuedAt(),
        scheduledJobs: () => scheduler.list(),
        databasePool: () => poolStats(ctx.store.db),
        eventStreamClients: () => services.events.size,
        uploadBytes: () => tus.bytesWritten,
        failedSignIns: () => auth.failedSignIns,
      })
    : null;

  return {
    ctx,
    services,
    coordination,
    listingCache,
    tree: { reconcile, relay },
    metrics,
    async start() {
      // Before the first request, so a restarted server starts clean; each session is claimed by
      // a conditional delete, so instances starting together never both remove one.
      await tus.sweep();
      // Which media decoders are installed (docs/previews.md): once, logged if some are missing.
      await services.preview.start();
      await scheduler.every(JOBS.sweepUploads, sweepInterval(tus.expiry));
      await scheduler.every(JOBS.pruneSessions, PRUNE_SESSIONS_EVERY_MS);
      await scheduler.every(SITE_JOBS.sweepPreviews, SWEEP_SITE_PREVIEWS_EVERY_MS);
      await scheduler.every(SITE_JOBS.sweepBuilds, SWEEP_SITE_BUILDS_EVERY_MS);
      await scheduler.every(JOBS.purgeTrash, PURGE_TRASH_EVERY_MS);
      await scheduler.every(JOBS.reconcileQuotas, RECONCILE_QUOTAS_EVERY_MS);
      await scheduler.every(JOBS.purgeAudit, PURGE_AUDIT_EVERY_MS);
      await scheduler.every(JOBS.pruneFileJobs, PRUNE_FILE_JOBS_EVERY_MS);
      await scheduler.every(JOBS.sweepTempFiles, SWEEP_TEMP_FILES_EVERY_MS);
      // File jobs a crash of this host interrupted run again now, not when their claim lapses.
      await services.fileJobs.recover();
      // Deletes a crash cut between the move into the trash and its row get their row.
      await services.trash.recoverInterrupted();
      await coordination.start();
      // Before the first request: a change another instance makes from now on reaches this one.
      await relay?.start();
      reconcile.start();
      await services.events.start();
    },
    async abortRequests() {
      // Event streams never end on their own: a shutdown must not wait for them.
      services.events.closeAll();
      await coordination.uploadLeases.abortAll();
    },
    async stop() {
      await services.events.stop();
      reconcile.stop();
      await relay?.close();
      // Before the database closes: what was queued is written.
      await audit.stop();
      await coordination.close();
      services.preview.close();
      listingCache.close();
    },
  };
}
