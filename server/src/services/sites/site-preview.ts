import path from 'node:path';
import type { PostPreview, PostPreviewRequest } from '@cabinet/protocol';
import { SitePreviews, type PreviewMeta } from '../../cache/site-previews.ts';
import type { SitesContext } from './sites-context.ts';
import { errors } from '../../errors.ts';
import { LinkWalkCache } from '../../fs/link-walk-cache.ts';
import type { ScopedFs } from '../../fs/scoped-fs.ts';
import { findGroupLeader, WarmLeader } from '../../process/process-group.ts';
import type { SiteRecord } from '../../store/sites.repo.ts';
import type { FileToSend } from '../file-to-send.ts';
import type { SessionUser } from '../sessions.service.ts';
import { pageFile, renderBuiltin, type SiteSource } from './builtin-generator.ts';
import { HugoMountsCache } from './hugo-mounts-cache.ts';
import { runHugo } from './hugo-runner.ts';
import type { SiteAccess, SiteAccessor } from './site-access.ts';
import { MAX_SOURCE_BYTES, siteSource } from './site-builder.ts';
import { SiteError } from './site-error.ts';
import { postPath, splitPostPath } from './site-paths.ts';
import { previewToSend } from './site-serving.ts';

/** How long a preview stays servable: long enough to read it and follow its links. */
export const PREVIEW_TTL_MS = 10 * 60 * 1000;
/** Most previews kept at once, across users (the oldest go first). */
export const MAX_PREVIEWS = 100;

/**
 * Live previews (docs/sites.md, "Preview"): the post being edited, rendered with the site's layout
 * into a scratch folder in the data folder, in time proportional to the post, not the site. The
 * built-in generator renders that post alone (with an index and feed holding only it); Hugo runs
 * on the site's configuration, layouts, themes and static files with a content folder holding only
 * the post (and its sections' `_index.md`). A newer preview of the same post by the same user
 * cancels the one still running (Hugo's process is stopped) and replaces the finished one.
 */
export class SitePreviewer {
  readonly previews: SitePreviews;
  /** Previews being made, by user, site and post: a newer one aborts the older. */
  private readonly running = new Map<string, AbortController>();
  /** `hugo config mounts` answers, kept while the sites' configuration is unchanged. */
  private readonly mounts: HugoMountsCache;
  /** The symlink walk of the sites' folders, kept per folder while it is unchanged. */
  private readonly links: LinkWalkCache;
  /** Where perl was found (`leader`). */
  private leaderPath: Promise<string | undefined> | undefined;

  constructor(
    private readonly ctx: SitesContext,
    private readonly sites: SiteAccessor,
    private readonly now: () => number,
  ) {
    this.previews = new SitePreviews(path.join(ctx.config.data, 'site-previews'));
    this.mounts = new HugoMountsCache(now);
    this.links = new LinkWalkCache(now);
  }

  async preview(
    user: SessionUser,
    name: string,
    request: PostPreviewRequest,
  ): Promise<PostPreview> {
    const site = await this.ctx.store.sites.get(name);
    const leader = site?.generator === 'hugo' ? await this.leader() : undefined;
    let warm: WarmLeader | undefined;
    const made = this.make(user, name, site, request, () => warm);
    made.catch(() => undefined);
    // Hugo's group leader is started now, so perl's start runs while the checks do; once their
    // reads are under way, as its spawn holds this thread for a moment.
    try {
      if (leader !== undefined) warm = new WarmLeader(leader);
    } catch {
      // Not started (the system refused a process): Hugo is then started the usual way.
    }
    try {
      return await made;
    } finally {
      warm?.dispose();
    }
  }

  private async make(
    user: SessionUser,
    name: string,
    site: SiteRecord | undefined,
    request: PostPreviewRequest,
    warm: () => WarmLeader | undefined,
  ): Promise<PostPreview> {
    const valid = site && validPostPath(request.path);
    const meta = { site: name, userId: user.id, post: valid ?? '', createdAt: this.now() };
    // The scratch folder and the site's own ScopedFs are made while the user's access is checked;
    // a refusal removes the folder (its random id was never told).
    const making = valid === undefined ? undefined : this.previews.create(meta);
    const siteFs = site && this.sites.siteFs(site);
    // For Hugo, the editor's text is written into the folder meanwhile too, with its sections'
    // `_index.md` read from the site: nothing of it reaches the user unless access is granted.
    const text = request.content;
    const written =
      site?.generator === 'hugo' && making && siteFs && text !== undefined
        ? Promise.all([making, siteFs]).then(([made, fs]) =>
            this.writeContent(fs, made.dir, valid!, text),
          )
        : undefined;
    // Each is awaited below (or the folder removed): none is left to fail unheard.
    making?.catch(() => undefined);
    siteFs?.catch(() => undefined);
    written?.catch(() => undefined);
    try {
      const access = await this.sites.accessTo(user, site);
      const rel = postPath(request.path);
      const made = await making!;
      return await this.render(access, rel, request, meta, made, await siteFs!, warm, written);
    } catch (error) {
      // No write goes on into a folder being removed.
      await written?.catch(() => undefined);
      const made = await making?.catch(() => undefined);
      if (made) await this.previews.remove(made.id);
      throw error;
    }
  }

  private async render(
    access: SiteAccess,
    rel: string,
    request: PostPreviewRequest,
    meta: PreviewMeta,
    made: { id: string; dir: string; out: string },
    fs: ScopedFs,
    warm: () => WarmLeader | undefined,
    written: Promise<void> | undefined,
  ): Promise<PostPreview> {
    const name = access.site.name;
    const key = `${meta.userId}:${name}:${rel}`;
    this.running.get(key)?.abort();
    const controller = new AbortController();
    this.running.set(key, controller);
    const { signal } = controller;
    // While it renders (Hugo's start leaves this process idle): what this preview replaces is
    // looked up, the files of previews discarded earlier are removed (until it is rendered) and
    // the next preview's scratch folder is made. The answer waits for none of them.
    let rendered = false;
    const tidy = Promise.all([
      this.previews.replacedBy(made.id, meta, MAX_PREVIEWS),
      this.previews.purge(() => rendered),
      this.previews.prepare(),
    ]).then(
      ([replaced]) => replaced,
      () => [],
    );
    try {
      const content =
        request.content ??
        (
          await access.userFs.readAll(`${access.sitePath}/content/${rel}`, MAX_SOURCE_BYTES)
        ).toString('utf8');
      const base = `${this.ctx.config.baseURL}/api/sites/${name}/preview/${made.id}/`;
      let page: string;
      if (access.site.generator === 'hugo') {
        const post = written ?? this.writeContent(fs, made.dir, rel, content);
        // Waited for whatever happens, so no write goes on into a folder a failure then removes.
        await this.hugo(fs, access.site.output, made, post, base, signal, warm).finally(() =>
          post.catch(() => undefined),
        );
        const { section, slug } = splitPostPath(rel);
        page = `${[section, slug].filter(Boolean).join('/')}/`;
      } else {
        const files = await renderBuiltin(onePost(siteSource(fs), rel, content), {
          name,
          title: access.site.title,
          baseURL: base,
          now: this.now(),
          includeUnpublished: true,
        });
        if (signal.aborted) throw superseded();
        for (const [file, text] of files) await this.previews.write(made.out, file, text);
        page = pageFile(rel).replace(/index\.html$/, '');
      }
      rendered = true;
      if (signal.aborted) throw superseded();
      // The page this one replaces is not needed any more; past the count, the oldest go.
      await this.previews.discard(await tidy);
      return { url: `/api/sites/${name}/preview/${made.id}/${page}` };
    } catch (error) {
      rendered = true;
      throw signal.aborted ? superseded() : error;
    } finally {
      // Nothing of this request runs on after its answer.
      await tidy;
      if (this.running.get(key) === controller) this.running.delete(key);
    }
  }

  /** perl, the group leader (process-group.ts), looked up once while it is found. */
  private async leader(): Promise<string | undefined> {
    this.leaderPath ??= findGroupLeader();
    const found = await this.leaderPath;
    if (found === undefined) this.leaderPath = undefined;
    return found;
  }

  /**
   * Hugo on the site itself (configuration, layouts, themes, static, assets, data) with a content
   * folder in the scratch space holding only the post and the `_index.md` of its sections, so its
   * time follows the post, not the site. Its resources and cache go to the scratch folder too: a
   * preview leaves the site as it was.
   */
  private async hugo(
    fs: ScopedFs,
    output: string,
    scratch: { dir: string; out: string },
    written: Promise<void>,
    base: string,
    signal: AbortSignal,
    warm: () => WarmLeader | undefined,
  ): Promise<void> {
    // The post is written (`written`) while the checks before Hugo's start run (hugo-runner.ts).
    written.catch(() => undefined);
    const root = await fs.resolve('/');
    const contentDir = path.join(scratch.dir, 'content');
    const args = ['--buildDrafts', '--buildFuture', '--noBuildLock', '--quiet'];
    args.push('--destination', scratch.out, '--cacheDir', path.join(scratch.dir, 'cache'));
    args.push('--contentDir', contentDir, '--baseURL', base);
    // Both are waited for, so no write goes on into a scratch folder a failure then removes.
    const [run, wrote] = await Promise.allSettled([
      runHugo(this.ctx, root.real, args, {
        env: { HUGO_RESOURCEDIR: path.join(scratch.dir, 'resources') },
        alsoReadable: [scratch.dir],
        signal,
        output: path.join(root.real, output),
        mounts: this.mounts,
        links: this.links,
        ready: written,
        warm,
      }),
      written,
    ]);
    if (wrote.status === 'rejected') throw wrote.reason;
    if (run.status === 'rejected') throw run.reason;
    if (signal.aborted) throw superseded();
    if (!run.value.ok) throw errors.badRequest(`hugo failed: ${run.value.log.slice(0, 500)}`);
  }

  /** The preview's content folder: the post and the `_index.md` of its sections. */
  private async writeContent(
    fs: ScopedFs,
    dir: string,
    rel: string,
    content: string,
  ): Promise<void> {
    const parts = rel.split('/').slice(0, -1);
    const indexes = Array.from({ length: parts.length + 1 }, (_, depth) =>
      [...parts.slice(0, depth), '_index.md'].join('/'),
    );
    // The post and each section's index at once: written one after another, each waited for a CPU.
    await Promise.all([
      this.previews.write(dir, `content/${rel}`, content),
      ...indexes.map(async (index) => {
        const text = await fs.readAll(`/content/${index}`, MAX_SOURCE_BYTES).catch(() => undefined);
        if (text) await this.previews.write(dir, `content/${index}`, text);
      }),
    ]);
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
    if (user) await this.sites.access(user, name);
    const meta = await this.previews.meta(id);
    if (!meta || meta.site !== name || meta.createdAt < this.now() - PREVIEW_TTL_MS) {
      throw errors.notFound();
    }
    if (user && meta.userId !== user.id) throw errors.notFound();
    if (!user && !(await this.ctx.store.sites.get(name))) throw errors.notFound();
    const found = await this.previews.find(id, rel);
    if (!found) throw errors.notFound();
    return previewToSend(found);
  }

  async sweep(): Promise<number> {
    return this.previews.sweep(this.now() - PREVIEW_TTL_MS);
  }
}

/** The post path when it is a valid one (postPath answers 400 for it once access is known). */
function validPostPath(raw: string): string | undefined {
  try {
    return postPath(raw);
  } catch {
    return undefined;
  }
}

/** A newer preview of the same post replaced this one while it was being made. */
function superseded(): SiteError {
  return new SiteError(
    'conflict',
    'preview_superseded',
    'a newer preview of this post replaced it',
  );
}

/** The site as the built-in generator sees it for a preview: its layouts and the one post. */
function onePost(source: SiteSource, rel: string, content: string): SiteSource {
  return {
    layouts: () => source.layouts(),
    posts: () => Promise.resolve([rel]),
    post: (p) => (p === rel ? Promise.resolve(content) : source.post(p)),
  };
}
