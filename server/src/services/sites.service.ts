import type {
  Archetype,
  Post,
  PostActionResult,
  PostCreateRequest,
  PostPreview,
  PostPreviewRequest,
  PostScheduleRequest,
  Site,
  SiteBuild,
  SiteCreateRequest,
  SiteUpdateRequest,
  UserSite,
} from '@cabinet/protocol';
import type { SitesContext } from './sites/sites-context.ts';
import type { EventBus, Job, NamedLock, Scheduler } from '../coordination/index.ts';
import { AppError, errors } from '../errors.ts';
import type { ScopedFs } from '../fs/scoped-fs.ts';
import type { SiteRecord } from '../store/sites.repo.ts';
import type { FileToSend } from './file-to-send.ts';
import { canCreate, canModify } from './permissions.ts';
import type { QuotaService } from './quota/quota.service.ts';
import type { SessionUser } from './sessions.service.ts';
import { fillArchetype } from './sites/archetype-fill.ts';
import { parseFrontMatter, setFields } from './sites/front-matter.ts';
import { describePost, postFailures } from './sites/post-describe.ts';
import { SiteAccessor, type SiteAccess } from './sites/site-access.ts';
import { contentPosts, MAX_SOURCE_BYTES, servedBase } from './sites/site-builder.ts';
import { SiteError } from './sites/site-error.ts';
import { pendingSchedules, SITE_JOBS } from './sites/site-jobs.ts';
import {
  checkSiteName,
  nameSegment,
  outputFolder,
  siteFolder,
  slugify,
} from './sites/site-paths.ts';
import { SitePreviewer } from './sites/site-preview.ts';
import { SitePublishing } from './sites/site-publishing.ts';
import { publicFile, unbuiltTitle } from './sites/site-serving.ts';
import { starterFiles } from './sites/starter.ts';

export { SITE_JOBS } from './sites/site-jobs.ts';
export { PREVIEW_TTL_MS } from './sites/site-preview.ts';
export { SiteError } from './sites/site-error.ts';

/** What the static-site area uses of the runtime. */
export interface SitesDeps {
  scheduler: Scheduler;
  /** Named locks: one build per site across instances. */
  lock: NamedLock;
  /** The users' event streams: a site's users hear of its changes. */
  events: EventBus;
  /** The runtime's clock (tests drive it). */
  now: () => number;
  /** A build's new output is judged and counted against the site's users' quotas. */
  quota?: QuotaService;
}

/**
 * The static-site area (docs/sites.md): sites administrators declare, posts users create from
 * archetypes, previews (sites/site-preview.ts), builds with the built-in generator or Hugo and
 * scheduled publications run by the runtime's scheduler (sites/site-publishing.ts).
 */
export class SitesService {
  private readonly sites: SiteAccessor;
  private readonly previewer: SitePreviewer;
  private readonly publishing: SitePublishing;
  private readonly scheduler: Scheduler;
  private readonly now: () => number;

  constructor(
    private readonly ctx: SitesContext,
    deps: SitesDeps,
  ) {
    this.scheduler = deps.scheduler;
    this.now = deps.now;
    this.sites = new SiteAccessor(ctx);
    this.previewer = new SitePreviewer(ctx, this.sites, this.now);
    this.publishing = new SitePublishing(ctx, this.sites, { ...deps, now: this.now });
  }

  // --- administration -------------------------------------------------------------------------

  /** Every site, for administrators (`GET /api/sites?all=1`); 403 for anyone else. */
  async listAll(actor: SessionUser): Promise<Site[]> {
    if (!actor.perm.admin) throw errors.forbidden();
    return (await this.ctx.store.sites.list()).map(toSite);
  }

  async create(request: SiteCreateRequest): Promise<Site> {
    const site: SiteRecord = {
      name: checkSiteName(request.name),
      title: request.title?.trim() || request.name,
      folder: siteFolder(request.folder),
      generator: request.generator ?? 'builtin',
      output: outputFolder(request.output ?? 'public'),
      serve: request.serve ?? false,
      users: request.users ?? [],
    };
    await this.sites.insideRoot(site.folder);
    if (!(await this.ctx.store.sites.insert(site, this.now()))) {
      throw new SiteError('conflict', 'site_exists', 'a site with this name exists');
    }
    if (request.starter) await this.writeStarter(site);
    await this.buildDeclared(site);
    return toSite(site);
  }

  async update(name: string, request: SiteUpdateRequest): Promise<Site> {
    const site = await this.sites.get(name);
    const next: SiteRecord = {
      ...site,
      title: request.title?.trim() || site.title,
      folder: request.folder !== undefined ? siteFolder(request.folder) : site.folder,
      generator: request.generator ?? site.generator,
      output: request.output !== undefined ? outputFolder(request.output) : site.output,
      serve: request.serve ?? site.serve,
      users: request.users ?? site.users,
    };
    if (next.folder !== site.folder) await this.sites.insideRoot(next.folder);
    await this.ctx.store.sites.update(next);
    return toSite(next);
  }

  /** Forgets a site (its files stay) and cancels its pending publications. */
  async remove(name: string): Promise<void> {
    await this.sites.get(name);
    for (const job of await this.scheduler.list(SITE_JOBS.publish)) {
      if ((job.payload as { site: string }).site === name && job.key) {
        await this.scheduler.cancel(job.key);
      }
    }
    await this.ctx.store.sites.delete(name);
  }

  /**
   * A site declared with the starter, or over a folder that already holds posts, is built at once:
   * "View the site" shows it from the start. One over an empty folder (or whose first build fails,
   * its log in the command runs) has no output, and its served pages say it has not been built.
   */
  private async buildDeclared(site: SiteRecord): Promise<void> {
    const fs = await this.siteFs(site).catch(() => undefined);
    const content = await fs?.resolve('/content').catch(() => undefined);
    if (!content?.stat?.isDirectory()) return;
    try {
      await this.publishing.firstBuild(site);
    } catch (error) {
      this.ctx.log.warn({ err: error, site: site.name }, 'the first build of a site failed');
    }
  }

  /** Writes the starter's files that do not exist yet (never replacing one). */
  private async writeStarter(site: SiteRecord): Promise<void> {
    const fs = await this.siteFs(site, { create: true });
    for (const [rel, text] of starterFiles(
      site.generator as 'builtin' | 'hugo',
      site.title,
      servedBase(this.ctx, site.name),
    )) {
      const target = await fs.resolve(`/${rel}`);
      if (target.stat || target.isSymlink) continue;
      await fs.writeFile(target, text);
    }
    await fs.mkdir('/content/posts');
  }

  // --- what a user sees ------------------------------------------------------------------------

  async listFor(user: SessionUser): Promise<UserSite[]> {
    const sites: UserSite[] = [];
    for (const site of await this.ctx.store.sites.list()) {
      const access = await this.sites.tryAccess(user, site);
      if (!access || !canCreate(user) || !canModify(user)) continue;
      sites.push({
        name: site.name,
        title: site.title,
        generator: site.generator as UserSite['generator'],
        path: access.sitePath,
        url: site.serve ? servedBase(this.ctx, site.name) : null,
      });
    }
    return sites;
  }

  async posts(user: SessionUser, name: string): Promise<Post[]> {
    const access = await this.access(user, name);
    const fs = await this.siteFs(access.site);
    const pending = await pendingSchedules(this.scheduler, name);
    const failures = await postFailures(this.ctx, name);
    const posts: Post[] = [];
    for (const rel of await contentPosts(fs)) {
      if (await access.userFs.isDenied(`${access.sitePath}/content/${rel}`)) continue;
      const text = (await fs.readAll(`/content/${rel}`, MAX_SOURCE_BYTES)).toString('utf8');
      posts.push(describePost(access, rel, text, this.now(), pending, failures));
    }
    return posts;
  }

  async archetypes(user: SessionUser, name: string): Promise<Archetype[]> {
    const access = await this.access(user, name);
    const fs = await this.siteFs(access.site);
    const dir = await fs.resolve('/archetypes');
    if (!dir.stat?.isDirectory()) return [];
    const { entries } = await fs.list(dir);
    const archetypes: Archetype[] = [];
    for (const entry of entries) {
      if (!entry.name.endsWith('.md') || !entry.stat?.isFile()) continue;
      const text = (await fs.readAll(`/archetypes/${entry.name}`, MAX_SOURCE_BYTES)).toString();
      let fields: string[] = [];
      try {
        fields = Object.keys(parseFrontMatter(fillArchetype(text, SAMPLE_VALUES)).data);
      } catch {
        // An archetype whose front matter does not parse is still listed; creating from it says why.
      }
      archetypes.push({ name: entry.name.slice(0, -3), fields });
    }
    return archetypes.sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  async createPost(user: SessionUser, name: string, request: PostCreateRequest): Promise<Post> {
    const access = await this.access(user, name);
    const title = request.title.trim();
    if (!title) throw errors.badRequest('invalid title');
    const archetype = nameSegment(request.archetype ?? 'default', 'archetype');
    const section = nameSegment(request.section ?? 'posts', 'section');
    const slug = nameSegment(request.slug?.trim() || slugify(title), 'slug');
    const rel = `${section}/${slug}.md`;
    const fs = await this.siteFs(access.site);
    const template = (
      await fs.readAll(`/archetypes/${archetype}.md`, MAX_SOURCE_BYTES).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404) {
          throw errors.badRequest('unknown archetype');
        }
        throw error;
      })
    ).toString('utf8');
    const date = new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const values = { title, slug, section, date, author: user.username };
    const filled = fillArchetype(template, values);
    const fields = parseFrontMatter(filled).data;
    const text = setFields(filled, {
      title,
      date,
      draft: true,
      ...('slug' in fields ? { slug } : {}),
      ...('author' in fields ? { author: user.username } : {}),
    });
    const target = `${access.sitePath}/content/${rel}`;
    const existing = await access.userFs.resolve(target);
    if (existing.stat || existing.isSymlink) {
      throw new SiteError('conflict', 'slug_taken', 'a post with this slug exists');
    }
    try {
      await access.userFs.writeFile(target, text);
    } catch (error) {
      if (error instanceof AppError && error.status === 409) {
        throw new SiteError('conflict', 'slug_taken', 'a post with this slug exists');
      }
      throw error;
    }
    return describePost(access, rel, text, this.now(), new Map(), new Map());
  }

  // --- preview, publishing, serving (sites/*.ts) ------------------------------------------------

  preview(user: SessionUser, name: string, request: PostPreviewRequest): Promise<PostPreview> {
    return this.previewer.preview(user, name, request);
  }

  previewFile(
    user: SessionUser | undefined,
    name: string,
    id: string,
    rel: string,
  ): Promise<FileToSend> {
    return this.previewer.previewFile(user, name, id, rel);
  }

  sweepPreviews(): Promise<number> {
    return this.previewer.sweep();
  }

  /** Removes build folders a crash left behind, once older than `ageMs`. */
  sweepBuilds(ageMs: number): Promise<number> {
    return this.publishing.sweepBuilds(this.now() - ageMs);
  }

  build(user: SessionUser, name: string): Promise<SiteBuild> {
    return this.publishing.build(user, name);
  }

  publish(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    return this.publishing.publish(user, name, raw);
  }

  unpublish(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    return this.publishing.unpublish(user, name, raw);
  }

  schedule(user: SessionUser, name: string, request: PostScheduleRequest) {
    return this.publishing.schedule(user, name, request);
  }

  cancelSchedule(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    return this.publishing.cancelSchedule(user, name, raw);
  }

  runScheduledPublish(job: Job): Promise<void> {
    return this.publishing.runScheduledPublish(job);
  }

  publicFile(name: string, rel: string): Promise<FileToSend> {
    return publicFile(this.ctx, this.sites, name, rel);
  }

  unbuiltTitle(name: string): Promise<string | undefined> {
    return unbuiltTitle(this.ctx, this.sites, name);
  }

  private siteFs(site: SiteRecord, options: { create?: boolean } = {}): Promise<ScopedFs> {
    return this.sites.siteFs(site, options);
  }

  private access(user: SessionUser, name: string): Promise<SiteAccess> {
    return this.sites.access(user, name);
  }
}

const SAMPLE_VALUES = {
  title: 'T',
  slug: 't',
  section: 'posts',
  date: '2000-01-01T00:00:00Z',
  author: 'a',
};

function toSite(site: SiteRecord): Site {
  return { ...site, generator: site.generator as Site['generator'] };
}
