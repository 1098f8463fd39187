import * as z from 'zod/mini';

/**
 * The static-site area (docs/sites.md): sites an administrator declares, and the posts users
 * write, preview, publish and schedule in them. Every route lives under /api/sites.
 */

/** How a site is built: Debian's `hugo`, or Cabinet's own generator that needs nothing installed. */
export const SITE_GENERATORS = ['builtin', 'hugo'] as const;
export type SiteGenerator = (typeof SITE_GENERATORS)[number];

/** A site name is its URL segment (`/sites/<name>/`, `/api/sites/<name>`): lower-case, no slash. */
export const SITE_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Where a post stands: `scheduled` is not a draft and dated in the future. */
export const POST_STATES = ['draft', 'scheduled', 'published'] as const;
export type PostState = (typeof POST_STATES)[number];

/** A site as administrators declare it (GET/POST/PUT /api/sites…). */
export const Site = z.object({
  name: z.string(),
  /** Shown in the sidebar and on the Sites screen. */
  title: z.string(),
  /** The site folder, relative to the server's root (`/users/alice/blog`). */
  folder: z.string(),
  generator: z.enum(SITE_GENERATORS),
  /** The output folder inside the site folder (`public` by default). */
  output: z.string(),
  /** Serve the output read-only at `/sites/<name>/` without sign-in. */
  serve: z.boolean(),
  /** Ids of the users allowed on the site; empty means every user whose scope holds the folder. */
  users: z.array(z.number()),
});
export type Site = z.infer<typeof Site>;

/**
 * A site as one user sees it (GET /api/sites): only sites the user may use. `path` is the site
 * folder inside the user's own scope, for opening it in the file browser.
 */
export const UserSite = z.object({
  name: z.string(),
  title: z.string(),
  generator: z.enum(SITE_GENERATORS),
  path: z.string(),
  /** `/sites/<name>/` under the base URL when the site is served, else null. */
  url: z.nullable(z.string()),
});
export type UserSite = z.infer<typeof UserSite>;
export const UserSiteList = z.array(UserSite);

/** Body of POST /api/sites (admin): `starter` writes a minimal layout and one archetype first. */
export const SiteCreateRequest = z.object({
  name: z.string(),
  title: z.optional(z.string()),
  folder: z.string(),
  generator: z.optional(z.enum(SITE_GENERATORS)),
  output: z.optional(z.string()),
  serve: z.optional(z.boolean()),
  users: z.optional(z.array(z.number())),
  starter: z.optional(z.boolean()),
});
export type SiteCreateRequest = z.infer<typeof SiteCreateRequest>;

/** Body of PUT /api/sites/{name} (admin): the fields to change. The name stays. */
export const SiteUpdateRequest = z.object({
  title: z.optional(z.string()),
  folder: z.optional(z.string()),
  generator: z.optional(z.enum(SITE_GENERATORS)),
  output: z.optional(z.string()),
  serve: z.optional(z.boolean()),
  users: z.optional(z.array(z.number())),
});
export type SiteUpdateRequest = z.infer<typeof SiteUpdateRequest>;

/** A failed scheduled publication, kept on the post until the next publish or schedule. */
export const PostFailure = z.object({
  /** ISO 8601. */
  at: z.string(),
  message: z.string(),
  /** The generator's output. */
  log: z.string(),
});
export type PostFailure = z.infer<typeof PostFailure>;

/** A post as the Sites screen lists it (GET /api/sites/{name}/posts). */
export const Post = z.object({
  /** The file, relative to the site's `content/` folder (`posts/hello-world.md`). */
  path: z.string(),
  /** The same file inside the user's scope, for the editor and the file browser. */
  filePath: z.string(),
  /** First folder under content/ (`posts`), empty for a post at its top. */
  section: z.string(),
  slug: z.string(),
  title: z.string(),
  /** The front matter's date (ISO 8601 with offset), null when it has none. */
  date: z.nullable(z.string()),
  draft: z.boolean(),
  state: z.enum(POST_STATES),
  /** The pending scheduled publication's time (ISO 8601), null when none is pending. */
  scheduledAt: z.nullable(z.string()),
  failure: z.nullable(PostFailure),
});
export type Post = z.infer<typeof Post>;
export const PostList = z.array(Post);

/** A template for new posts: `archetypes/<name>.md` (the section of the same name uses it). */
export const Archetype = z.object({
  name: z.string(),
  /** The front-matter keys it sets (title, date, draft, slug, author…). */
  fields: z.array(z.string()),
});
export type Archetype = z.infer<typeof Archetype>;
export const ArchetypeList = z.array(Archetype);

/** Body of POST /api/sites/{name}/posts: 409 `slug_taken` when the file exists. */
export const PostCreateRequest = z.object({
  title: z.string(),
  /** Default: `default`. */
  archetype: z.optional(z.string()),
  /** Default: `posts`. */
  section: z.optional(z.string()),
  /** Default: made from the title. */
  slug: z.optional(z.string()),
});
export type PostCreateRequest = z.infer<typeof PostCreateRequest>;

/** Identifies a post in the publish, unpublish and preview bodies. */
export const PostRef = z.object({
  /** Relative to content/, as Post.path. */
  path: z.string(),
});
export type PostRef = z.infer<typeof PostRef>;

/** Body of POST /api/sites/{name}/schedule: `at` is ISO 8601 with the user's offset, in the future. */
export const PostScheduleRequest = z.object({
  path: z.string(),
  at: z.string(),
});
export type PostScheduleRequest = z.infer<typeof PostScheduleRequest>;

/**
 * Body of POST /api/sites/{name}/preview: `content` renders unsaved editor text instead of the
 * file. The answer names a URL under /api/sites/{name}/preview/… serving the scratch build.
 */
export const PostPreviewRequest = z.object({
  path: z.string(),
  content: z.optional(z.string()),
});
export type PostPreviewRequest = z.infer<typeof PostPreviewRequest>;
export const PostPreview = z.object({
  /** Relative to the base URL; load it in a sandboxed frame (with the `auth` query parameter). */
  url: z.string(),
});
export type PostPreview = z.infer<typeof PostPreview>;

/** One generator run, recorded like a command run. */
export const SiteBuild = z.object({
  ok: z.boolean(),
  /** The generator's output (trimmed to the output limit). */
  log: z.string(),
  durationMs: z.number(),
  /** Output files, relative to the output folder, by what the run did to them. */
  changed: z.object({
    added: z.array(z.string()),
    updated: z.array(z.string()),
    removed: z.array(z.string()),
  }),
});
export type SiteBuild = z.infer<typeof SiteBuild>;

/** Answer of publish, unpublish, schedule and cancel: the post after the change, and the build. */
export const PostActionResult = z.object({
  post: Post,
  build: z.nullable(SiteBuild),
});
export type PostActionResult = z.infer<typeof PostActionResult>;

/** The event-stream event (`GET /api/events`) telling a site's users that its posts or output changed. */
export const SITE_EVENT = 'site';
/**
 * Sent on publish, unpublish, schedule, cancel and at the end of every build (a scheduled one
 * included): the posts screen of `site` reads its posts again.
 */
export const SiteEvent = z.object({
  site: z.string(),
  /** The post acted on, when the change was about one. */
  path: z.optional(z.string()),
  /** The build's outcome, when the change was a build. */
  build: z.optional(z.enum(['ok', 'failed'])),
});
export type SiteEvent = z.infer<typeof SiteEvent>;
