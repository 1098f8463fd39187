import path from 'node:path';
import type {
  Archetype,
  Post,
  PostCreateRequest,
  PostFailure,
  PostPreview,
  PostPreviewRequest,
  PostScheduleRequest,
  PostActionResult,
  Site,
  SiteBuild,
  SiteCreateRequest,
  SiteUpdateRequest,
  UserSite,
} from '@cabinet/protocol';
import mime from 'mime-types';
import type { QuotaService } from './quota/quota.service.ts';
import type { AppContext } from '../context.ts';
import { openPreviewFile, SitePreviews } from '../cache/site-previews.ts';
import type { Job, Scheduler } from '../coordination/scheduler.ts';
import { AppError, errors } from '../errors.ts';
import { followSegments } from '../fs/real-path.ts';
import { ScopedFs } from '../fs/scoped-fs.ts';
import type { SiteRecord } from '../store/sites.repo.ts';
import { contentDisposition, type FileToSend } from './file-to-send.ts';
import { canCreate, canModify } from './permissions.ts';
import type { SessionUser } from './sessions.service.ts';
import { fillArchetype } from './sites/archetype-fill.ts';
import { pageFile, renderBuiltin } from './sites/builtin-generator.ts';
import { parseFrontMatter, setFields } from './sites/front-matter.ts';
import { runHugo } from './sites/hugo-runner.ts';
import { goLiveFields, postTimes, visibility } from './sites/post-dates.ts';
import {
  buildSite,
  contentPosts,
  MAX_SOURCE_BYTES,
  servedBase,
  siteSource,
} from './sites/site-builder.ts';
import {
  checkSiteName,
  nameSegment,
  outputFolder,
  postPath,
  siteFolder,
  slugify,
  splitPostPath,
} from './sites/site-paths.ts';
import { starterFiles } from './sites/starter.ts';

/** Scheduler job kinds of the static-site area. */
export const SITE_JOBS = {
  /** One per scheduled post, keyed `site-publish:<site>:<path>`: rebuilds the site when due. */
  publish: 'site.publish',
  /** Removes scratch preview builds older than PREVIEW_TTL_MS. */
  sweepPreviews: 'site.previews.sweep',
} as const;

/** How long a preview stays servable. */
export const PREVIEW_TTL_MS = 60 * 60 * 1000;

/** A refusal the Sites screen tells apart by its code (`{ message, code }` replies). */
export class SiteError extends AppError {
  constructor(
    code: 'conflict' | 'badRequest',
    readonly siteCode: string,
    message: string,
  ) {
    super(code, message);
  }
}

interface PublishPayload {
  site: string;
  path: string;
}

/** A site a user may use, with their view of it. */
interface SiteAccess {
  site: SiteRecord;
  /** The user's ScopedFs (rules apply to every post read and write). */
  userFs: ScopedFs;
  /** The site folder inside the user's scope. */
  sitePath: string;
}

function publishKey(site: string, path: string): string {
  return `site-publish:${site}:${path}`;
}

function normalScope(scope: string): string {
  const normal = path.posix.normalize(`/${scope}`).replace(/\/+$/, '');
  return normal === '' ? '/' : normal;
}

/** An ISO 8601 time with an explicit offset (or Z): the user's time zone, never the server's. */
function parseInstant(raw: string): number {
  const time = Date.parse(raw);
  if (Number.isNaN(time) || !/(Z|[+-]\d\d:?\d\d)$/i.test(raw) || !/T/.test(raw)) {
    throw errors.badRequest('invalid at');
  }
  return time;
}

/**
 * The static-site area (docs/sites.md): sites administrators declare, posts users create from
 * archetypes, previews, builds with the built-in generator or Hugo, and scheduled publications
 * run by the runtime's scheduler.
 */
export class SitesService {
  readonly previews: SitePreviews;

  /** `quota`: a build's new output is judged and counted against the site's users' quotas. */
  constructor(
    private readonly ctx: AppContext,
    private readonly scheduler: Scheduler,
    private readonly now: () => number = Date.now,
    private readonly quota?: QuotaService,
  ) {
    this.previews = new SitePreviews(path.join(ctx.config.data, 'site-previews'));
  }

  // --- administration -------------------------------------------------------------------------

  async listAll(): Promise<Site[]> {
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
    await this.insideRoot(site.folder);
    if (!(await this.ctx.store.sites.insert(site, this.now()))) {
      throw new SiteError('conflict', 'site_exists', 'a site with this name exists');
    }
    if (request.starter) await this.writeStarter(site);
    return toSite(site);
  }

  async update(name: string, request: SiteUpdateRequest): Promise<Site> {
    const site = await this.get(name);
    const next: SiteRecord = {
      ...site,
      title: request.title?.trim() || site.title,
      folder: request.folder !== undefined ? siteFolder(request.folder) : site.folder,
      generator: request.generator ?? site.generator,
      output: request.output !== undefined ? outputFolder(request.output) : site.output,
      serve: request.serve ?? site.serve,
      users: request.users ?? site.users,
    };
    if (next.folder !== site.folder) await this.insideRoot(next.folder);
    await this.ctx.store.sites.update(next);
    return toSite(next);
  }

  /** Forgets a site (its files stay) and cancels its pending publications. */
  async remove(name: string): Promise<void> {
    await this.get(name);
    for (const job of await this.scheduler.list(SITE_JOBS.publish)) {
      if ((job.payload as PublishPayload).site === name && job.key) {
        await this.scheduler.cancel(job.key);
      }
    }
    await this.ctx.store.sites.delete(name);
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
      const access = await this.tryAccess(user, site);
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
    const pending = await this.pendingSchedules(name);
    const failures = await this.failures(name);
    const posts: Post[] = [];
    for (const rel of await contentPosts(fs)) {
      if (await access.userFs.isDenied(`${access.sitePath}/content/${rel}`)) continue;
      const text = (await fs.readAll(`/content/${rel}`, MAX_SOURCE_BYTES)).toString('utf8');
      posts.push(this.describe(access, rel, text, pending, failures));
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
    return this.describe(access, rel, text, new Map(), new Map());
  }

  // --- preview ---------------------------------------------------------------------------------

  async preview(
    user: SessionUser,
    name: string,
    request: PostPreviewRequest,
  ): Promise<PostPreview> {
    const access = await this.access(user, name);
    const rel = postPath(request.path);
    const content =
      request.content ??
      (await access.userFs.readAll(`${access.sitePath}/content/${rel}`, MAX_SOURCE_BYTES)).toString(
        'utf8',
      );
    const { site } = access;
    const fs = await this.siteFs(site);
    const scratch = await this.previews.create({
      site: name,
      userId: user.id,
      createdAt: this.now(),
    });
    const base = `${this.ctx.config.baseURL}/api/sites/${name}/preview/${scratch.id}/`;
    if (site.generator === 'hugo') {
      const root = await fs.resolve('/');
      const args = ['--buildDrafts', '--buildFuture', '--noBuildLock', '--quiet'];
      args.push('--destination', scratch.out, '--cacheDir', path.join(scratch.dir, 'cache'));
      args.push('--baseURL', base);
      if (request.content !== undefined) {
        // Unsaved text: a copy of content/ with the post replaced, so the site is not touched.
        for (const other of await contentPosts(fs)) {
          const text = other === rel ? content : await siteSource(fs).post(other);
          await this.previews.write(scratch.dir, `content/${other}`, text);
        }
        await this.previews.write(scratch.dir, `content/${rel}`, content);
        args.push('--contentDir', path.join(scratch.dir, 'content'));
      }
      // Hugo's generated resources go to the scratch folder too: a preview leaves the site as it was.
      const run = await runHugo(this.ctx, root.real, args, {
        env: { HUGO_RESOURCEDIR: path.join(scratch.dir, 'resources') },
        alsoReadable: [scratch.dir],
      });
      if (!run.ok) throw errors.badRequest(`hugo failed: ${run.log.slice(0, 500)}`);
      const { section, slug } = splitPostPath(rel);
      const file = [section, slug].filter(Boolean).join('/');
      return { url: `/api/sites/${name}/preview/${scratch.id}/${file}/` };
    }
    const files = await renderBuiltin(siteSource(fs), {
      name,
      title: site.title,
      baseURL: base,
      now: this.now(),
      includeUnpublished: true,
      override: { path: rel, content },
    });
    for (const [file, text] of files) await this.previews.write(scratch.out, file, text);
    const page = pageFile(rel).replace(/index\.html$/, '');
    return { url: `/api/sites/${name}/preview/${scratch.id}/${page}` };
  }

  /**
   * A file of a preview of this site, by its ticket (the preview's random id) while the preview
   * lasts; with a signed-in user, only their own previews of a site they may use. 404 otherwise.
   */
  async previewFile(
    user: SessionUser | undefined,
    name: string,
    id: string,
    rel: string,
  ): Promise<FileToSend> {
    if (user) await this.access(user, name);
    const meta = await this.previews.meta(id);
    if (!meta || meta.site !== name || meta.createdAt < this.now() - PREVIEW_TTL_MS) {
      throw errors.notFound();
    }
    if (user && meta.userId !== user.id) throw errors.notFound();
    if (!user && !(await this.ctx.store.sites.get(name))) throw errors.notFound();
    const found = await this.previews.find(id, rel);
    if (!found) throw errors.notFound();
    return {
      size: found.size,
      mtime: found.mtime,
      contentType: typeOf(found.real),
      disposition: contentDisposition('inline', path.basename(found.real)),
      open: () => openPreviewFile(found.real),
    };
  }

  async sweepPreviews(): Promise<number> {
    return this.previews.sweep(this.now() - PREVIEW_TTL_MS);
  }

  // --- publishing ------------------------------------------------------------------------------

  async build(user: SessionUser, name: string): Promise<SiteBuild> {
    const access = await this.access(user, name);
    return this.rebuild(access.site, user);
  }

  async publish(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    const access = await this.access(user, name);
    const rel = postPath(raw);
    const text = await this.readPost(access, rel);
    // A date still ahead (a scheduled post) becomes now: Publish means on the site now, and the
    // pending job is cancelled so it cannot act on the post later.
    const now = new Date(this.now()).toISOString();
    const fields = goLiveFields(parseFrontMatter(text).data, now, true);
    await this.scheduler.cancel(publishKey(name, rel));
    await this.writePost(access, rel, setFields(text, fields));
    await this.ctx.store.sites.clearFailure(name, rel);
    const build = await this.rebuild(access.site, user);
    return { post: await this.postOf(access, rel), build };
  }

  async unpublish(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    const access = await this.access(user, name);
    const rel = postPath(raw);
    const text = await this.readPost(access, rel);
    await this.writePost(access, rel, setFields(text, { draft: true }));
    await this.scheduler.cancel(publishKey(name, rel));
    const build = await this.rebuild(access.site, user);
    return { post: await this.postOf(access, rel), build };
  }

  async schedule(
    user: SessionUser,
    name: string,
    request: PostScheduleRequest,
  ): Promise<PostActionResult> {
    const access = await this.access(user, name);
    const rel = postPath(request.path);
    const at = parseInstant(request.at);
    if (at <= this.now()) throw errors.badRequest('at is not in the future');
    const text = await this.readPost(access, rel);
    const fields = goLiveFields(parseFrontMatter(text).data, request.at, false);
    await this.writePost(access, rel, setFields(text, fields));
    await this.ctx.store.sites.clearFailure(name, rel);
    const payload: PublishPayload = { site: name, path: rel };
    await this.scheduler.schedule(SITE_JOBS.publish, at, payload, { key: publishKey(name, rel) });
    return { post: await this.postOf(access, rel), build: null };
  }

  /** Cancels a pending publication: the post goes back to draft. */
  async cancelSchedule(user: SessionUser, name: string, raw: string): Promise<PostActionResult> {
    const access = await this.access(user, name);
    const rel = postPath(raw);
    const text = await this.readPost(access, rel);
    await this.scheduler.cancel(publishKey(name, rel));
    await this.writePost(access, rel, setFields(text, { draft: true }));
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
      build = await this.rebuild(site, { id: 0, username: 'scheduler' });
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
      at: this.now(),
      message: 'the scheduled publication failed: the site did not build',
      log: build.log,
    });
  }

  // --- public serving --------------------------------------------------------------------------

  /** A file of a served site's output; 404 when the site is not served or the file is missing. */
  async publicFile(name: string, rel: string): Promise<FileToSend> {
    const site = await this.ctx.store.sites.get(name);
    if (!site || !site.serve) throw errors.notFound();
    const fs = await this.siteFs(site).catch(() => {
      throw errors.notFound();
    });
    const segments = rel.split('/').filter(Boolean);
    if (segments.some((s) => s === '..' || s === '.' || s.includes('\\'))) throw errors.notFound();
    let target = `/${[site.output, ...segments].join('/')}`;
    let found = await fs.stat(target).catch(() => undefined);
    if (found?.stat.isDirectory()) {
      target = `${target}/index.html`;
      found = await fs.stat(target).catch(() => undefined);
    }
    if (!found || !found.stat.isFile()) throw errors.notFound();
    const file = found;
    return {
      size: file.stat.size,
      mtime: file.stat.mtime,
      contentType: typeOf(file.name),
      disposition: contentDisposition('inline', file.name),
      open: () => fs.openFile(file),
    };
  }

  /**
   * A served site that has no output yet (never built, or its output folder removed): "View the
   * site" then shows a page saying so instead of a bare 404. The site's title, or undefined when
   * it has output or is not served.
   */
  async unbuiltTitle(name: string): Promise<string | undefined> {
    const site = await this.ctx.store.sites.get(name);
    if (!site || !site.serve) return undefined;
    const fs = await this.siteFs(site).catch(() => undefined);
    const output = await fs?.stat(`/${site.output}`).catch(() => undefined);
    return output ? undefined : site.title;
  }

  // --- helpers ---------------------------------------------------------------------------------

  private async get(name: string): Promise<SiteRecord> {
    const site = await this.ctx.store.sites.get(name);
    if (!site) throw errors.notFound();
    return site;
  }

  /**
   * Refuses (403) a site folder whose real location, every symlink on the way followed, is not
   * inside the served root: administrators are bound by the root too, and a build reads and writes
   * there. Checked when a site is declared or moved and again before every use of its folder,
   * since a link can be swapped in after the declaration.
   */
  private async insideRoot(folder: string): Promise<void> {
    const root = this.ctx.files.realRoot;
    await followSegments(root, folder.split('/').filter(Boolean), root).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 403) {
        throw errors.forbidden(`the site folder ${folder} leads outside the root`);
      }
      throw error;
    });
  }

  /** The site folder as its own ScopedFs: the generator can reach nothing outside it. */
  private async siteFs(site: SiteRecord, options: { create?: boolean } = {}): Promise<ScopedFs> {
    await this.insideRoot(site.folder);
    if (options.create) {
      const root = await ScopedFs.open(this.ctx.files, {
        scope: '/',
        rules: [],
        hideDotfiles: false,
      });
      await root.mkdir(site.folder);
    }
    return ScopedFs.open(this.ctx.files, { scope: site.folder, rules: [], hideDotfiles: false });
  }

  /** The user's view of a site, or undefined when it is not theirs to see. */
  private async tryAccess(user: SessionUser, site: SiteRecord): Promise<SiteAccess | undefined> {
    if (site.users.length > 0 && !site.users.includes(user.id)) return undefined;
    const scope = normalScope(user.scope);
    let sitePath: string;
    if (scope === '/') sitePath = site.folder;
    else if (site.folder.startsWith(`${scope}/`)) sitePath = site.folder.slice(scope.length);
    else return undefined;
    const userFs = await ScopedFs.forUser(
      { files: this.ctx.files, settings: this.ctx.settings },
      user,
    );
    if (await userFs.isDenied(sitePath)) return undefined;
    return { site, userFs, sitePath };
  }

  /** A site the user may use: 404 when it is not theirs to see, 403 without create+modify. */
  private async access(user: SessionUser, name: string): Promise<SiteAccess> {
    const site = await this.ctx.store.sites.get(name);
    const access = site && (await this.tryAccess(user, site));
    if (!access) throw errors.notFound();
    if (!canCreate(user) || !canModify(user)) throw errors.forbidden();
    return access;
  }

  private async readPost(access: SiteAccess, rel: string): Promise<string> {
    const file = `${access.sitePath}/content/${rel}`;
    return (await access.userFs.readAll(file, MAX_SOURCE_BYTES)).toString('utf8');
  }

  private async writePost(access: SiteAccess, rel: string, text: string): Promise<void> {
    await access.userFs.writeFile(`${access.sitePath}/content/${rel}`, text, { override: true });
  }

  private async rebuild(site: SiteRecord, user: { id: number; username: string }) {
    const fs = await this.siteFs(site);
    const actor = { userId: user.id, username: user.username };
    const build = await buildSite(this.ctx, site, fs, actor, this.now(), this.quota);
    await this.syncDateJobs(site, fs);
    return build;
  }

  /**
   * Dates written by hand (a future `date` or `publishDate`, an `expiryDate`) take effect like
   * Schedule's: each post's next such time gets its rebuild job, and a job whose post no longer
   * wants it (removed, a draft, its date moved) is cancelled. Jobs already due are left to run.
   */
  private async syncDateJobs(site: SiteRecord, fs: ScopedFs): Promise<void> {
    const now = this.now();
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
    const pending = await this.pendingSchedules(site.name);
    for (const [rel, at] of pending) {
      if (!wanted.has(rel) && at > now) await this.scheduler.cancel(publishKey(site.name, rel));
    }
    for (const [rel, at] of wanted) {
      if (pending.get(rel) === at) continue;
      const payload: PublishPayload = { site: site.name, path: rel };
      await this.scheduler.schedule(SITE_JOBS.publish, at, payload, {
        key: publishKey(site.name, rel),
      });
    }
  }

  private async pendingSchedules(name: string): Promise<Map<string, number>> {
    const pending = new Map<string, number>();
    for (const job of await this.scheduler.list(SITE_JOBS.publish)) {
      const payload = job.payload as PublishPayload;
      if (payload.site === name && job.failedAt === null) pending.set(payload.path, job.runAt);
    }
    return pending;
  }

  private async failures(name: string): Promise<Map<string, PostFailure>> {
    const failures = new Map<string, PostFailure>();
    for (const failure of await this.ctx.store.sites.failures(name)) {
      failures.set(failure.path, {
        at: new Date(failure.at).toISOString(),
        message: failure.message,
        log: failure.log,
      });
    }
    return failures;
  }

  private async postOf(access: SiteAccess, rel: string): Promise<Post> {
    const text = await this.readPost(access, rel);
    return this.describe(
      access,
      rel,
      text,
      await this.pendingSchedules(access.site.name),
      await this.failures(access.site.name),
    );
  }

  private describe(
    access: SiteAccess,
    rel: string,
    text: string,
    pending: Map<string, number>,
    failures: Map<string, PostFailure>,
  ): Post {
    const { section, slug } = splitPostPath(rel);
    let data: Record<string, unknown> = {};
    try {
      data = parseFrontMatter(text).data;
    } catch {
      // A post whose front matter does not parse is listed as a draft by its file name.
    }
    const times = postTimes(data);
    const draft = times.draft || Object.keys(data).length === 0;
    const shown = draft ? 'draft' : visibility(times, this.now());
    const scheduled = pending.get(rel);
    return {
      path: rel,
      filePath: `${access.sitePath}/content/${rel}`,
      section,
      slug,
      title: typeof data['title'] === 'string' ? data['title'] : slug,
      date: times.date,
      draft,
      // An expired post (Hugo's expiryDate passed) is off the site, as a draft is.
      state: shown === 'expired' ? 'draft' : shown,
      // A post's pending job may be its expiry's: only a post still to come is "scheduled for".
      scheduledAt:
        scheduled === undefined || shown !== 'scheduled' ? null : new Date(scheduled).toISOString(),
      failure: failures.get(rel) ?? null,
    };
  }
}

const SAMPLE_VALUES = {
  title: 'T',
  slug: 't',
  section: 'posts',
  date: '2000-01-01T00:00:00Z',
  author: 'a',
};

function typeOf(name: string): string {
  const type = mime.lookup(name) || 'application/octet-stream';
  return /^text\/|xml|javascript|json/.test(type) ? `${type}; charset=utf-8` : type;
}

function toSite(site: SiteRecord): Site {
  return { ...site, generator: site.generator as Site['generator'] };
}
