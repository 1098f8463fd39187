import type { Post, PostActionResult, PostScheduleRequest, SiteBuild } from '@cabinet/protocol';
import type { SitesContext } from './sites-context.ts';
import type { EventBus, Job, NamedLock, Scheduler } from '../../coordination/index.ts';
import { errors } from '../../errors.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';
import type { SiteRecord } from '../../store/sites.repo.ts';
import type { QuotaService } from '../quota/quota.service.ts';
import type { SessionUser } from '../sessions.service.ts';
import { BuildQueue } from './build-queue.ts';
import { parseFrontMatter, setFields } from './front-matter.ts';
import { describePost, postFailures } from './post-describe.ts';
import { goLiveFields, postTimes } from './post-dates.ts';
import type { SiteAccess, SiteAccessor } from './site-access.ts';
import {
  buildSite,
  contentPosts,
  MAX_SOURCE_BYTES,
  siteSource,
  sweepStaleBuilds,
  type BuildActor,
} from './site-builder.ts';
import { tellSiteUsers } from './site-events.ts';
import { pendingSchedules, publishKey, SITE_JOBS, type PublishPayload } from './site-jobs.ts';
import { postPath } from './site-paths.ts';

/** The scheduler's builds run for nobody (id 0). */
const SCHEDULER: BuildActor = { userId: 0, username: 'scheduler' };

function actorOf(user: SessionUser): BuildActor {
  return { userId: user.id, username: user.username };
}

/** An ISO 8601 time with an explicit offset (or Z): the user's time zone, never the server's. */
function parseInstant(raw: string): number {
  const time = Date.parse(raw);
  if (Number.isNaN(time) || !/(Z|[+-]\d\d:?\d\d)$/i.test(raw) || !/T/.test(raw)) {
    throw errors.badRequest('invalid at');
  }
  return time;
}

export interface PublishingDeps {
  scheduler: Scheduler;
  /** The runtime's named locks: one build per site across instances. */
  lock: NamedLock;
  /** The users' event streams: each change is told to the site's users. */
  events: EventBus;
  now: () => number;
  quota?: QuotaService;
}

/**
 * Publish, unpublish, schedule and cancel, the builds they start and the scheduled publications
 * (docs/sites.md, "Publish, unpublish, schedule" and "Builds").
 */
export class SitePublishing {
  private readonly builds: BuildQueue;

  constructor(
    private readonly ctx: SitesContext,
    private readonly sites: SiteAccessor,
    private readonly deps: PublishingDeps,
  ) {
    this.builds = new BuildQueue(deps.lock);
  }

  async build(user: SessionUser, name: string): Promise<SiteBuild> {
    const access = await this.sites.access(user, name);
    return this.rebuild(access.site, actorOf(user));
  }

  async publish(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    const access = await this.sites.access(user, name);
    const rel = postPath(raw);
    const text = await this.readPost(access, rel);
    // A date still ahead (a scheduled post) becomes now: Publish means on the site now, and the
    // pending job is cancelled so it cannot act on the post later.
    const now = new Date(this.deps.now()).toISOString();
    const fields = goLiveFields(parseFrontMatter(text).data, now, true);
    await this.deps.scheduler.cancel(publishKey(name, rel));
    await this.writePost(access, rel, setFields(text, fields));
    await this.ctx.store.sites.clearFailure(name, rel);
    const build = await this.rebuild(access.site, actorOf(user), rel);
    return { post: await this.postOf(access, rel), build };
  }

  async unpublish(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    const access = await this.sites.access(user, name);
    const rel = postPath(raw);
    const text = await this.readPost(access, rel);
    await this.writePost(access, rel, setFields(text, { draft: true }));
    await this.deps.scheduler.cancel(publishKey(name, rel));
    const build = await this.rebuild(access.site, actorOf(user), rel);
    return { post: await this.postOf(access, rel), build };
  }

  async schedule(
    user: SessionUser,
    name: string,
    request: PostScheduleRequest,
  ): Promise<PostActionResult> {
    const access = await this.sites.access(user, name);
    const rel = postPath(request.path);
    const at = parseInstant(request.at);
    if (at <= this.deps.now()) throw errors.badRequest('at is not in the future');
    const text = await this.readPost(access, rel);
    const fields = goLiveFields(parseFrontMatter(text).data, request.at, false);
    await this.writePost(access, rel, setFields(text, fields));
    await this.ctx.store.sites.clearFailure(name, rel);
    const payload: PublishPayload = { site: name, path: rel };
    await this.deps.scheduler.schedule(SITE_JOBS.publish, at, payload, {
      key: publishKey(name, rel),
    });
    await this.tell(access.site, { path: rel });
    return { post: await this.postOf(access, rel), build: null };
  }

  /** Cancels a pending publication: the post goes back to draft. */
  async cancelSchedule(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    const access = await this.sites.access(user, name);
    const rel = postPath(raw);
    const text = await this.readPost(access, rel);
    await this.deps.scheduler.cancel(publishKey(name, rel));
    await this.writePost(access, rel, setFields(text, { draft: true }));
    await this.tell(access.site, { path: rel });
    return { post: await this.postOf(access, rel), build: null };
  }

  /**
   * The scheduler's handler: rebuilds the site so the post appears. A failed build is kept on the
   * post (with the generator's log) instead of being retried: the user sees it and acts.
   */
  async runScheduledPublish(job: Job): Promise<void> {
    const { site: name, path: rel } = job.payload as PublishPayload;
    const site = await this.ctx.store.sites.get(name);
    if (!site) return;
    let build: SiteBuild;
    try {
      build = await this.rebuild(site, SCHEDULER, rel);
    } catch (error) {
      build = {
        ok: false,
        log: error instanceof Error ? error.message : String(error),
        durationMs: 0,
        changed: { added: [], updated: [], removed: [] },
      };
    }
    if (build.ok) {
      await this.ctx.store.sites.clearFailure(name, rel);
      return;
    }
    await this.ctx.store.sites.setFailure(name, {
      path: rel,
      at: this.deps.now(),
      message: 'the scheduled publication failed: the site did not build',
      log: build.log,
    });
    await this.tell(site, { path: rel, build: 'failed' });
  }

  /** A site's first build, when it is declared: it has output (or says why not) from the start. */
  async firstBuild(site: SiteRecord): Promise<SiteBuild> {
    return this.rebuild(site, SCHEDULER);
  }

  /** Removes build folders older than `before` (ms) left in every site folder by a crash. */
  async sweepBuilds(before: number): Promise<number> {
    let removed = 0;
    for (const site of await this.ctx.store.sites.list()) {
      const fs = await this.sites.siteFs(site).catch(() => undefined);
      if (fs) removed += await sweepStaleBuilds(fs, before).catch(() => 0);
    }
    return removed;
  }

  async postOf(access: SiteAccess, rel: string): Promise<Post> {
    const text = await this.readPost(access, rel);
    return describePost(
      access,
      rel,
      text,
      this.deps.now(),
      await pendingSchedules(this.deps.scheduler, access.site.name),
      await postFailures(this.ctx, access.site.name),
    );
  }

  private async readPost(access: SiteAccess, rel: string): Promise<string> {
    const file = `${access.sitePath}/content/${rel}`;
    return (await access.userFs.readAll(file, MAX_SOURCE_BYTES)).toString('utf8');
  }

  private async writePost(access: SiteAccess, rel: string, text: string): Promise<void> {
    await access.userFs.writeFile(`${access.sitePath}/content/${rel}`, text, { override: true });
  }

  /**
   * Builds the site through its queue (build-queue.ts): one build at a time across instances,
   * requests meanwhile joining the next. The site's users hear of the outcome.
   */
  private async rebuild(site: SiteRecord, actor: BuildActor, rel?: string): Promise<SiteBuild> {
    const fs = await this.sites.siteFs(site);
    const build = await this.builds.request(site.name, async (signal) => {
      const result = await buildSite(this.ctx, site, fs, actor, {
        clock: this.deps.now,
        quota: this.deps.quota,
        signal,
      });
      await this.syncDateJobs(site, fs);
      return result;
    });
    await this.tell(site, { ...(rel ? { path: rel } : {}), build: build.ok ? 'ok' : 'failed' });
    return build;
  }

  private tell(site: SiteRecord, event: { path?: string; build?: 'ok' | 'failed' }) {
    return tellSiteUsers(this.ctx, this.deps.events, this.sites, site, event);
  }

  /**
   * Dates written by hand (a future `date` or `publishDate`, an `expiryDate`) take effect like
   * Schedule's: each post's next such time gets its rebuild job, and a job whose post no longer
   * wants it (removed, a draft, its date moved) is cancelled. Jobs already due are left to run.
   */
  private async syncDateJobs(site: SiteRecord, fs: ScopedFs): Promise<void> {
    const now = this.deps.now();
    const { scheduler } = this.deps;
    const wanted = new Map<string, number>();
    for (const rel of await contentPosts(fs)) {
      let times;
      try {
        times = postTimes(parseFrontMatter(await siteSource(fs).post(rel)).data);
      } catch {
        continue; // a post that does not parse is a draft
      }
      if (times.draft) continue;
      const next = [times.publishAt, times.expiresAt]
        .filter((at): at is number => at !== null && at > now)
        .sort((a, b) => a - b)[0];
      if (next !== undefined) wanted.set(rel, next);
    }
    const pending = await pendingSchedules(scheduler, site.name);
    for (const [rel, at] of pending) {
      if (!wanted.has(rel) && at > now) await scheduler.cancel(publishKey(site.name, rel));
    }
    for (const [rel, at] of wanted) {
      if (pending.get(rel) === at) continue;
      const payload: PublishPayload = { site: site.name, path: rel };
      await scheduler.schedule(SITE_JOBS.publish, at, payload, {
        key: publishKey(site.name, rel),
      });
    }
  }
}
