import { parseFrontMatter } from './front-matter.ts';
import { postTimes, visibility } from './post-dates.ts';
import { splitPostPath } from './site-paths.ts';

/** What the built-in generator reads of a site; every read stays inside the site folder. */
export interface SiteSource {
  /** Every file under `layouts/`, relative to it, with its text. */
  layouts(): Promise<Map<string, string>>;
  /** Every `content/**\/*.md` but `_index.md`, relative to content/. */
  posts(): Promise<string[]>;
  /** A post's text (path relative to content/). */
  post(path: string): Promise<string>;
}

export interface BuiltinBuild {
  name: string;
  title: string;
  /** Where the output is served from, ending in `/` (links and the feed use it). */
  baseURL: string;
  /** Milliseconds: posts dated after this are future posts. */
  now: number;
  /** Previews include drafts and future posts; real builds never do. */
  includeUnpublished: boolean;
  /** Unsaved editor text rendered in place of a post's file (previews). */
  override?: { path: string; content: string };
}

/** A post as templates see it (`page`, and each of `posts`). */
export interface PageVars {
  title: string;
  /** ISO 8601 as written, or '' when the post has none. */
  date: string;
  slug: string;
  section: string;
  /** Relative to the output folder: `posts/hello/`. */
  url: string;
  draft: boolean;
  /** The Markdown body as HTML. */
  content: string;
  /** Every front-matter field. */
  params: Record<string, unknown>;
}

/** The output file of a post's page, relative to the output folder. */
export function pageFile(path: string): string {
  return `${pageUrl(path)}index.html`;
}

function pageUrl(path: string): string {
  const { slug } = splitPostPath(path);
  const dir = path.includes('/') ? `${path.slice(0, path.lastIndexOf('/'))}/` : '';
  return `${dir}${slug}/`;
}

function dateOf(value: unknown): string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : '';
}

/**
 * Cabinet's own generator: Markdown posts with YAML or TOML front matter rendered through the
 * site's Liquid layouts (`layouts/post.liquid`, `layouts/index.liquid`, partials beside them) into
 * one page per post, an index newest first and an Atom feed (`atom.xml`). The output is a function
 * of the files alone (and `now`), so the same input gives the same bytes. Templates come from an
 * in-memory map of `layouts/`, so an include can name no file outside it.
 */
export async function renderBuiltin(
  source: SiteSource,
  build: BuiltinBuild,
): Promise<Map<string, string>> {
  // Loaded with the first build, not with the server: most servers host no site (~1.4 MiB of heap).
  const [{ Liquid }, { Marked }] = await Promise.all([import('liquidjs'), import('marked')]);
  const templates = Object.fromEntries(await source.layouts());
  const liquid = new Liquid({
    templates,
    extname: '.liquid',
    ownPropertyOnly: true,
    strictFilters: true,
  });
  const marked = new Marked({ gfm: true });
  const pages: PageVars[] = [];
  for (const path of await source.posts()) {
    const text = build.override?.path === path ? build.override.content : await source.post(path);
    const matter = parseFrontMatter(text);
    const { slug, section } = splitPostPath(path);
    const date = dateOf(matter.data['date']);
    const times = postTimes(matter.data);
    const draft = times.draft;
    // Hugo's rules: drafts, posts whose publishDate (or date) is ahead and expired ones are left out.
    if (!build.includeUnpublished && visibility(times, build.now) !== 'published') continue;
    pages.push({
      title: typeof matter.data['title'] === 'string' ? matter.data['title'] : slug,
      date,
      slug,
      section,
      url: pageUrl(path),
      draft,
      content: await marked.parse(matter.body),
      params: matter.data,
    });
  }
  pages.sort(newestFirst);
  const site = { name: build.name, title: build.title, baseURL: build.baseURL };
  const out = new Map<string, string>();
  const pageTemplate = templates['post.liquid'] !== undefined ? 'post' : undefined;
  for (const page of pages) {
    const html = pageTemplate
      ? await liquid.renderFile(pageTemplate, { site, page })
      : `<!doctype html><title>${escapeXml(page.title)}</title>${page.content}`;
    out.set(`${page.url}index.html`, html);
  }
  out.set(
    'index.html',
    templates['index.liquid'] !== undefined
      ? await liquid.renderFile('index', { site, posts: pages })
      : `<!doctype html><title>${escapeXml(site.title)}</title>`,
  );
  out.set('atom.xml', atomFeed(site, pages));
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Newest first; posts without a date last; ties by URL so the order never depends on the disk. */
function newestFirst(a: PageVars, b: PageVars): number {
  const da = a.date ? Date.parse(a.date) : -Infinity;
  const db = b.date ? Date.parse(b.date) : -Infinity;
  if (da !== db) return db - da;
  return a.url < b.url ? -1 : a.url > b.url ? 1 : 0;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** An Atom feed of the published posts; `updated` is the newest post's date, so it is stable. */
function atomFeed(site: { name: string; title: string; baseURL: string }, pages: PageVars[]) {
  const iso = (date: string) => (date ? new Date(Date.parse(date)).toISOString() : EPOCH);
  const entries = pages.map(
    (page) => `  <entry>
    <title>${escapeXml(page.title)}</title>
    <link href="${escapeXml(site.baseURL + page.url)}"/>
    <id>${escapeXml(site.baseURL + page.url)}</id>
    <updated>${iso(page.date)}</updated>
    <content type="html">${escapeXml(page.content)}</content>
  </entry>
`,
  );
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${escapeXml(site.title)}</title>
  <link href="${escapeXml(site.baseURL)}"/>
  <id>${escapeXml(site.baseURL)}</id>
  <updated>${iso(pages[0]?.date ?? '')}</updated>
${entries.join('')}</feed>
`;
}

const EPOCH = '1970-01-01T00:00:00.000Z';
