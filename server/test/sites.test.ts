import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Post, PostActionResult, PostPreview, SiteBuild, UserSite } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { eventually } from './helpers/eventually.ts';
import { openReady } from './helpers/event-stream.ts';

let server: TestServer;
/** How far the sites' clock runs ahead of the real one (the scheduler keeps real time). */
let clockAhead = 0;
let ann: TestUser;
let reader: TestUser;

const blog = () => path.join(server.root, 'users', 'ann', 'blog');

async function call<T>(
  s: TestServer,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await s.fetch(url, {
    method,
    token,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // plain text
  }
  return { status: response.status, body: parsed as T };
}

/** Runs due jobs until the condition holds (the job is due 1 s after it was scheduled). */
/**
 * How far ahead a test schedules a post it waits for: far enough that the request reaches the
 * server before that time on a busy machine (one second was not: the schedule was refused as in
 * the past). The tests then wait for the publication, not for the time.
 */
const SOON_MS = 5000;

async function untilPublished(s: TestServer, file: string): Promise<void> {
  while (!existsSync(file)) {
    await s.runtime.coordination.scheduler.runDue();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function newPost(s: TestServer, title: string, site = 'blog'): Promise<Post> {
  const created = await call<Post>(s, ann.token, 'POST', `/api/sites/${site}/posts`, { title });
  expect(created.status).toBe(201);
  return created.body;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.now() + clockAhead });
  await mkdir(path.join(server.root, 'users', 'ann'), { recursive: true });
  ann = await server.createUser({ scope: '/users/ann', perm: { create: true, modify: true } });
  reader = await server.createUser({ scope: '/users/ann', perm: { create: true, modify: false } });
  const created = await call(server, server.admin.token, 'POST', '/api/sites', {
    name: 'blog',
    title: 'Ann writes',
    folder: '/users/ann/blog',
    serve: true,
    starter: true,
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server.close();
});

describe('sites: administration', () => {
  it('writes the starter and refuses a second site of the same name or a bad one', async () => {
    expect(existsSync(path.join(blog(), 'archetypes', 'default.md'))).toBe(true);
    expect(existsSync(path.join(blog(), 'layouts', 'post.liquid'))).toBe(true);
    expect(existsSync(path.join(blog(), 'content', 'posts'))).toBe(true);
    const again = await call<{ code: string }>(server, server.admin.token, 'POST', '/api/sites', {
      name: 'blog',
      folder: '/users/ann/other',
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('site_exists');
    for (const bad of [
      { name: 'Bad Name', folder: '/x' },
      { name: 'ok', folder: '/users/../etc' },
      { name: 'ok', folder: '/x', output: '../out' },
    ]) {
      const refused = await call(server, server.admin.token, 'POST', '/api/sites', bad);
      expect(refused.status).toBe(400);
    }
    const asUser = await call(server, ann.token, 'POST', '/api/sites', { name: 'x', folder: '/x' });
    expect(asUser.status).toBe(403);
  });

  it('lists the site for users allowed on it, and to admins with all=1', async () => {
    const mine = await call<UserSite[]>(server, ann.token, 'GET', '/api/sites');
    expect(mine.body).toEqual([
      {
        name: 'blog',
        title: 'Ann writes',
        generator: 'builtin',
        path: '/blog',
        url: '/sites/blog/',
      },
    ]);
    expect((await call<UserSite[]>(server, reader.token, 'GET', '/api/sites')).body).toEqual([]);
    const all = await call<unknown[]>(server, server.admin.token, 'GET', '/api/sites?all=1');
    expect(all.body).toHaveLength(1);
    expect((await call(server, ann.token, 'GET', '/api/sites?all=1')).status).toBe(403);
  });
});

describe('sites: posts', () => {
  it('creates a post from the archetype with its placeholders filled, and refuses a clash', async () => {
    const post = await newPost(server, 'Hello World');
    expect(post).toMatchObject({
      path: 'posts/hello-world.md',
      filePath: '/blog/content/posts/hello-world.md',
      title: 'Hello World',
      draft: true,
      state: 'draft',
      scheduledAt: null,
    });
    const text = await readFile(path.join(blog(), 'content', 'posts', 'hello-world.md'), 'utf8');
    expect(text).toMatch(
      /^---\ntitle: "Hello World"\ndate: \d{4}-\d\d-\d\dT[\d:]+Z\ndraft: true\n/,
    );
    expect(text).toContain(`author: "${ann.user.username}"`);
    expect(text).not.toContain('{{');
    const clash = await call<{ code: string }>(server, ann.token, 'POST', '/api/sites/blog/posts', {
      title: 'Hello World',
    });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('slug_taken');
    const archetypes = await call(server, ann.token, 'GET', '/api/sites/blog/archetypes');
    expect(archetypes.body).toEqual([
      { name: 'default', fields: ['title', 'date', 'draft', 'author'] },
    ]);
  });

  it('refuses paths that leave content/ and users without modify permission', async () => {
    for (const bad of ['../secret.md', '/posts/a.md', 'posts\\a.md', 'posts/../../a.md']) {
      const refused = await call(server, ann.token, 'POST', '/api/sites/blog/publish', {
        path: bad,
      });
      expect(refused.status).toBe(400);
    }
    const slug = await call(server, ann.token, 'POST', '/api/sites/blog/posts', {
      title: 'x',
      slug: '../../x',
    });
    expect(slug.status).toBe(400);
    expect((await call(server, reader.token, 'GET', '/api/sites/blog/posts')).status).toBe(403);
    const write = await call(server, reader.token, 'POST', '/api/sites/blog/posts', { title: 'y' });
    expect(write.status).toBe(403);
  });

  it('previews a draft in a sandboxed page reached by its ticket, links and feed included', async () => {
    const post = await newPost(server, 'Preview me');
    const preview = await call<PostPreview>(server, ann.token, 'POST', '/api/sites/blog/preview', {
      path: post.path,
      content: '---\ntitle: Unsaved <b>title</b>\ndraft: true\n---\n\n*Fresh* text\n',
    });
    expect(preview.status).toBe(200);
    expect(preview.body.url).toMatch(
      /^\/api\/sites\/blog\/preview\/[a-f0-9]{32}\/posts\/preview-me\/$/,
    );
    const page = await server.fetch(`${preview.body.url}?auth=${ann.token}`);
    expect(page.status).toBe(200);
    // The site's own policy, scoped to this preview: an opaque origin loading only its files.
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/^sandbox allow-scripts[^;]*;/);
    expect(policy).not.toContain('allow-same-origin');
    expect(policy).toContain(
      `style-src ${server.url}${preview.body.url.replace(/posts\/.*$/, '')} `,
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    // A revalidation keeps the one policy (a second, the API's, would block the site's styles).
    const again = await fetch(`${server.url}${preview.body.url}`, {
      headers: { 'if-none-match': page.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get('content-security-policy')).toBe(policy);
    const html = await page.text();
    expect(html).toContain('<h1>Unsaved &lt;b&gt;title&lt;/b&gt;</h1>');
    expect(html).toContain('<p><em>Fresh</em> text</p>');
    // What the page links to answers without a token (a sandboxed page sends none): the index
    // and the feed of the preview, by the ticket in their path.
    const home = preview.body.url.replace(/posts\/preview-me\/$/, '');
    expect(html).toContain(`href="${home}"`);
    expect((await fetch(`${server.url}${home}`)).status).toBe(200);
    expect((await fetch(`${server.url}${home}atom.xml`)).status).toBe(200);
    expect((await fetch(`${server.url}${preview.body.url}`)).status).toBe(200);
    const forged = preview.body.url.replace(/preview\/[a-f0-9]{32}/, `preview/${'0'.repeat(32)}`);
    expect((await fetch(`${server.url}${forged}`)).status).toBe(404);
    // A preview past its hour is gone, swept or not.
    clockAhead = 61 * 60_000;
    try {
      expect((await fetch(`${server.url}${preview.body.url}`)).status).toBe(404);
    } finally {
      clockAhead = 0;
    }
    const other = await server.createUser({
      scope: '/users/ann',
      perm: { create: true, modify: true },
    });
    expect((await server.fetch(`${preview.body.url}?auth=${other.token}`)).status).toBe(404);
    // Nothing was published by the preview.
    expect(existsSync(path.join(blog(), 'public', 'posts', 'preview-me'))).toBe(false);
  });

  it('publishes (page, index, feed, served publicly) and unpublishes', async () => {
    const post = await newPost(server, 'Going live');
    const published = await call<PostActionResult>(
      server,
      ann.token,
      'POST',
      '/api/sites/blog/publish',
      {
        path: post.path,
      },
    );
    expect(published.status).toBe(200);
    expect(published.body.post.state).toBe('published');
    expect(published.body.build?.ok).toBe(true);
    expect(published.body.build?.changed.added).toContain('posts/going-live/index.html');
    const out = path.join(blog(), 'public');
    expect(await readFile(path.join(out, 'posts', 'going-live', 'index.html'), 'utf8')).toContain(
      '<h1>Going live</h1>',
    );
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain(
      '/sites/blog/posts/going-live/',
    );
    expect(await readFile(path.join(out, 'atom.xml'), 'utf8')).toContain(
      '<title>Going live</title>',
    );
    // Drafts never reach a real build.
    expect(existsSync(path.join(out, 'posts', 'hello-world'))).toBe(false);

    const served = await fetch(`${server.url}/sites/blog/posts/going-live/`);
    expect(served.status).toBe(200);
    // A served site's own policy: an opaque origin (no allow-same-origin) loading its own files.
    const policy = served.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/^sandbox allow-scripts[^;]*;/);
    expect(policy).not.toContain('allow-same-origin');
    expect(policy).toContain(`style-src ${server.url}/sites/blog/ 'unsafe-inline'`);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${server.url}/sites/blog/nothing-here`)).status).toBe(404);
    expect((await fetch(`${server.url}/sites/nosuch/`)).status).toBe(404);

    const unpublished = await call<PostActionResult>(
      server,
      ann.token,
      'POST',
      '/api/sites/blog/unpublish',
      {
        path: post.path,
      },
    );
    expect(unpublished.body.post.state).toBe('draft');
    expect(unpublished.body.build?.changed.removed).toContain('posts/going-live/index.html');
    expect(existsSync(path.join(out, 'posts', 'going-live'))).toBe(false);
  });

  it('a served site never built says so on a page, not a bare 404', async () => {
    // Declared over an empty folder: nothing to build yet.
    const created = await call(server, server.admin.token, 'POST', '/api/sites', {
      name: 'fresh',
      title: 'Fresh <start>',
      folder: '/users/ann/fresh',
      serve: true,
    });
    expect(created.status).toBe(201);
    const page = await fetch(`${server.url}/sites/fresh/`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Fresh &#60;start&#62; has not been built yet');
    expect(html).toContain('Publish a post');
    await mkdir(path.join(server.root, 'users', 'ann', 'fresh', 'content'), { recursive: true });
    const built = await call<SiteBuild>(
      server,
      server.admin.token,
      'POST',
      '/api/sites/fresh/build',
    );
    expect(built.body.ok).toBe(true);
    expect((await fetch(`${server.url}/sites/fresh/`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/sites/fresh/nothing-here`)).text()).not.toContain(
      'not been built',
    );
    await call(server, server.admin.token, 'DELETE', '/api/sites/fresh');
  });

  it('builds on demand and records the run like a command run', async () => {
    const build = await call<SiteBuild>(server, ann.token, 'POST', '/api/sites/blog/build');
    expect(build.body.ok).toBe(true);
    const runs = await server.ctx.store.commandRuns.latest(5);
    expect(runs.some((run) => run.kind === 'site_build' && run.line.startsWith('site blog:'))).toBe(
      true,
    );
  });
});

describe('sites: scheduling', () => {
  it('publishes a post scheduled a few seconds ahead, through the scheduler', async () => {
    const post = await newPost(server, 'Soon');
    const at = new Date(Date.now() + SOON_MS).toISOString();
    const scheduled = await call<PostActionResult>(
      server,
      ann.token,
      'POST',
      '/api/sites/blog/schedule',
      {
        path: post.path,
        at,
      },
    );
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.post.state).toBe('scheduled');
    expect(scheduled.body.post.scheduledAt).toBe(at);
    const page = path.join(blog(), 'public', 'posts', 'soon', 'index.html');
    await untilPublished(server, page);
    const posts = await call<Post[]>(server, ann.token, 'GET', '/api/sites/blog/posts');
    expect(posts.body.find((p) => p.path === post.path)).toMatchObject({
      state: 'published',
      scheduledAt: null,
      failure: null,
    });
  });

  it("tells the site's users, and no one else, of a schedule and of the scheduled build", async () => {
    const stranger = await server.createUser({
      scope: '/elsewhere',
      perm: { create: true, modify: true },
    });
    const mine = await openReady(server.url, { token: ann.token });
    const theirs = await openReady(server.url, { token: stranger.token });
    try {
      const post = await newPost(server, 'Told');
      const at = new Date(Date.now() + SOON_MS).toISOString();
      const scheduled = await call(server, ann.token, 'POST', '/api/sites/blog/schedule', {
        path: post.path,
        at,
      });
      expect(scheduled.status).toBe(200);
      const told = await mine.next((e) => e.type === 'site');
      expect(told.data).toEqual({ site: 'blog', path: post.path });
      await untilPublished(server, path.join(blog(), 'public', 'posts', 'told', 'index.html'));
      const built = await mine.next(
        (e) => e.type === 'site' && (e.data as { build?: string }).build !== undefined,
      );
      expect(built.data).toEqual({ site: 'blog', path: post.path, build: 'ok' });
      expect(theirs.events.filter((e) => e.type === 'site')).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });

  it('publishes a scheduled post now when Publish is pressed, and its job cannot undo it', async () => {
    const post = await newPost(server, 'Ahead');
    const at = new Date(Date.now() + 10 * 60_000).toISOString();
    const scheduled = await call<PostActionResult>(
      server,
      ann.token,
      'POST',
      '/api/sites/blog/schedule',
      {
        path: post.path,
        at,
      },
    );
    expect(scheduled.body.post.state).toBe('scheduled');
    const published = await call<PostActionResult>(
      server,
      ann.token,
      'POST',
      '/api/sites/blog/publish',
      {
        path: post.path,
      },
    );
    expect(published.body.post).toMatchObject({ state: 'published', scheduledAt: null });
    expect(published.body.build?.changed.added).toContain('posts/ahead/index.html');
    expect((await fetch(`${server.url}/sites/blog/posts/ahead/`)).status).toBe(200);
    const scheduler = server.runtime.coordination.scheduler;
    const jobs = await scheduler.list('site.publish');
    expect(jobs.filter((job) => (job.payload as { path: string }).path === post.path)).toEqual([]);

    // Past the time it had been scheduled for, a publication job for it (one another instance
    // still held, say) rebuilds without taking the post off.
    clockAhead = 11 * 60_000;
    try {
      const id = await scheduler.schedule('site.publish', Date.now() - 1, {
        site: 'blog',
        path: post.path,
      });
      await scheduler.runDue();
      await eventually(
        async () => (await scheduler.list('site.publish')).some((job) => job.id === id),
        (pending) => !pending,
      );
      const posts = await call<Post[]>(server, ann.token, 'GET', '/api/sites/blog/posts');
      expect(posts.body.find((p) => p.path === post.path)).toMatchObject({
        state: 'published',
        scheduledAt: null,
        failure: null,
      });
      expect((await fetch(`${server.url}/sites/blog/posts/ahead/`)).status).toBe(200);
    } finally {
      clockAhead = 0;
    }
  });

  it("honours Hugo's publishDate and expiryDate, and Publish clears an expiry passed", async () => {
    const posts = path.join(blog(), 'content', 'posts');
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    const dated = (title: string, extra: string) =>
      `---\ntitle: ${title}\ndate: ${earlier}\ndraft: false\n${extra}\n---\n\nBody\n`;
    await writeFile(path.join(posts, 'later.md'), dated('Later', `publishDate: ${later}`));
    await writeFile(path.join(posts, 'gone.md'), dated('Gone', `expiryDate: ${earlier}`));
    const build = await call<SiteBuild>(server, ann.token, 'POST', '/api/sites/blog/build');
    expect(build.body.ok).toBe(true);
    expect((await fetch(`${server.url}/sites/blog/posts/later/`)).status).toBe(404);
    expect((await fetch(`${server.url}/sites/blog/posts/gone/`)).status).toBe(404);
    const listed = await call<Post[]>(server, ann.token, 'GET', '/api/sites/blog/posts');
    // A date written by hand is scheduled like one set with Schedule: a rebuild is due then.
    expect(listed.body.find((p) => p.path === 'posts/later.md')).toMatchObject({
      state: 'scheduled',
      scheduledAt: new Date(later).toISOString(),
    });
    expect(listed.body.find((p) => p.path === 'posts/gone.md')?.state).toBe('draft');

    const published = await call<PostActionResult>(
      server,
      ann.token,
      'POST',
      '/api/sites/blog/publish',
      {
        path: 'posts/gone.md',
      },
    );
    expect(published.body.post.state).toBe('published');
    expect(await readFile(path.join(posts, 'gone.md'), 'utf8')).not.toContain('expiryDate');
    expect((await fetch(`${server.url}/sites/blog/posts/gone/`)).status).toBe(200);
    // The date the post already had stays: it was due.
    expect(published.body.post.date).toBe(earlier);

    // A post removed takes its pending rebuild with it (at the next build).
    await rm(path.join(posts, 'later.md'));
    await call(server, ann.token, 'POST', '/api/sites/blog/build');
    const jobs = await server.runtime.coordination.scheduler.list('site.publish');
    expect(jobs.map((job) => (job.payload as { path: string }).path)).not.toContain(
      'posts/later.md',
    );
  });

  it('publishes a post whose publishDate, written by hand, comes a few seconds later', async () => {
    const at = new Date(Date.now() + SOON_MS).toISOString();
    await writeFile(
      path.join(blog(), 'content', 'posts', 'by-hand.md'),
      `---\ntitle: By hand\ndraft: false\npublishDate: ${at}\n---\n\nBody\n`,
    );
    expect(
      (await call<SiteBuild>(server, ann.token, 'POST', '/api/sites/blog/build')).body.ok,
    ).toBe(true);
    const page = path.join(blog(), 'public', 'posts', 'by-hand', 'index.html');
    expect(existsSync(page)).toBe(false);
    await untilPublished(server, page);
    const posts = await call<Post[]>(server, ann.token, 'GET', '/api/sites/blog/posts');
    expect(posts.body.find((p) => p.path === 'posts/by-hand.md')).toMatchObject({
      state: 'published',
      scheduledAt: null,
    });
  });

  it('refuses a time in the past or without an offset', async () => {
    const post = await newPost(server, 'Never');
    for (const at of [new Date(Date.now() - 1000).toISOString(), '2999-01-01T10:00:00', 'soon']) {
      const refused = await call(server, ann.token, 'POST', '/api/sites/blog/schedule', {
        path: post.path,
        at,
      });
      expect(refused.status).toBe(400);
    }
  });

  it('cancels a schedule: the post goes back to draft and the job is gone', async () => {
    const post = await newPost(server, 'Maybe');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await call(server, ann.token, 'POST', '/api/sites/blog/schedule', { path: post.path, at });
    const cancelled = await call<PostActionResult>(
      server,
      ann.token,
      'DELETE',
      `/api/sites/blog/schedule?path=${encodeURIComponent(post.path)}`,
    );
    expect(cancelled.body.post).toMatchObject({ state: 'draft', scheduledAt: null });
    expect(await server.runtime.coordination.scheduler.list('site.publish')).toEqual([]);
  });

  it('keeps a schedule across a restart', async () => {
    const first = await startTestServer();
    await mkdir(path.join(first.root, 'users', 'ann'), { recursive: true });
    const user = await first.createUser({
      scope: '/users/ann',
      perm: { create: true, modify: true },
    });
    await call(first, first.admin.token, 'POST', '/api/sites', {
      name: 'diary',
      folder: '/users/ann/diary',
      starter: true,
    });
    const created = await call<Post>(first, user.token, 'POST', '/api/sites/diary/posts', {
      title: 'After restart',
    });
    const at = new Date(Date.now() + SOON_MS).toISOString();
    await call(first, user.token, 'POST', '/api/sites/diary/schedule', {
      path: created.body.path,
      at,
    });
    const { root, dataDir } = first;
    await first.close({ removeFiles: false });
    const second = await startTestServer({ root, dataDir });
    try {
      const page = path.join(
        root,
        'users',
        'ann',
        'diary',
        'public',
        'posts',
        'after-restart',
        'index.html',
      );
      await untilPublished(second, page);
      expect(await readFile(page, 'utf8')).toContain('After restart');
    } finally {
      await second.close();
    }
  });

  it('shows a failed scheduled publication on the post, with the log', async () => {
    const post = await newPost(server, 'Broken');
    await writeFile(
      path.join(blog(), 'layouts', 'index.liquid'),
      '{% include "../../etc/passwd" %}',
    );
    try {
      const at = new Date(Date.now() + SOON_MS).toISOString();
      await call(server, ann.token, 'POST', '/api/sites/blog/schedule', { path: post.path, at });
      let failed: Post | undefined;
      while (!failed?.failure) {
        await server.runtime.coordination.scheduler.runDue();
        const posts = await call<Post[]>(server, ann.token, 'GET', '/api/sites/blog/posts');
        failed = posts.body.find((p) => p.path === post.path);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(failed.failure.log).toMatch(/passwd/);
    } finally {
      await writeFile(path.join(blog(), 'layouts', 'index.liquid'), 'index');
    }
  });
});

describe('sites: containment', () => {
  it('a template cannot include a file outside layouts/, nor read through a symlink out', async () => {
    const layouts = path.join(blog(), 'layouts');
    await writeFile(path.join(layouts, 'index.liquid'), '{% render "../../../../../etc/passwd" %}');
    const traversal = await call<SiteBuild>(server, ann.token, 'POST', '/api/sites/blog/build');
    expect(traversal.body.ok).toBe(false);
    expect(traversal.body.log).not.toContain('root:');
    await symlink('/etc/passwd', path.join(layouts, 'evil.liquid'));
    await writeFile(path.join(layouts, 'index.liquid'), '{% render "evil" %}');
    const viaLink = await call<SiteBuild>(server, ann.token, 'POST', '/api/sites/blog/build');
    expect(viaLink.body.ok).toBe(false);
    expect(viaLink.body.log).not.toContain('root:');
    expect(await readFile(path.join(blog(), 'public', 'index.html'), 'utf8')).not.toContain(
      'root:',
    );
  });

  it('refuses a site folder that leads out of the root, at declaration and at each build', async () => {
    const outside = path.join(path.dirname(server.root), 'outside-site');
    await mkdir(path.join(outside, 'layouts'), { recursive: true });
    await symlink(outside, path.join(server.root, 'users', 'ann', 'escape'));
    const declared = await call<{ message: string }>(
      server,
      server.admin.token,
      'POST',
      '/api/sites',
      {
        name: 'escape',
        folder: '/users/ann/escape',
        starter: true,
      },
    );
    expect(declared.status).toBe(403);
    expect(declared.body.message).toMatch(/outside the root/);
    const moved = await call<{ message: string }>(
      server,
      server.admin.token,
      'PUT',
      '/api/sites/blog',
      {
        folder: '/users/ann/escape/blog',
      },
    );
    expect(moved.status).toBe(403);
    expect(existsSync(path.join(outside, 'blog'))).toBe(false);

    // Declared while inside, then swapped for a link out: the build refuses and writes nothing.
    const swapped = path.join(server.root, 'users', 'ann', 'swapped');
    await mkdir(swapped);
    const made = await call(server, server.admin.token, 'POST', '/api/sites', {
      name: 'swapped',
      folder: '/users/ann/swapped',
    });
    expect(made.status).toBe(201);
    await rm(swapped, { recursive: true });
    await symlink(outside, swapped);
    const build = await call<{ message: string }>(
      server,
      ann.token,
      'POST',
      '/api/sites/swapped/build',
    );
    expect(build.status).toBe(403);
    expect(build.body.message).toMatch(/outside the root/);
    expect(await readdir(outside)).toEqual(['layouts']);
    await call(server, server.admin.token, 'DELETE', '/api/sites/swapped');
  });

  it('a site whose folder a rule blocks is invisible to the user', async () => {
    const blocked = await server.createUser({
      scope: '/users/ann',
      perm: { create: true, modify: true },
      rules: [{ allow: false, path: '/blog', regex: false }],
    });
    expect((await call<UserSite[]>(server, blocked.token, 'GET', '/api/sites')).body).toEqual([]);
    expect((await call(server, blocked.token, 'GET', '/api/sites/blog/posts')).status).toBe(404);
  });

  it('a site listing other users is invisible to the rest', async () => {
    await call(server, server.admin.token, 'PUT', '/api/sites/blog', {
      users: [server.admin.user.id],
    });
    try {
      expect((await call<UserSite[]>(server, ann.token, 'GET', '/api/sites')).body).toEqual([]);
    } finally {
      await call(server, server.admin.token, 'PUT', '/api/sites/blog', { users: [] });
    }
  });
});

describe('sites: removal', () => {
  it('forgets a site, cancels its pending publications and keeps its files', async () => {
    const post = await newPost(server, 'Pending');
    const at = new Date(Date.now() + 3_600_000).toISOString();
    await call(server, ann.token, 'POST', '/api/sites/blog/schedule', { path: post.path, at });
    expect(await server.runtime.coordination.scheduler.list('site.publish')).toHaveLength(1);
    expect((await call(server, ann.token, 'DELETE', '/api/sites/blog')).status).toBe(403);
    expect((await call(server, server.admin.token, 'DELETE', '/api/sites/blog')).status).toBe(204);
    expect(await server.runtime.coordination.scheduler.list('site.publish')).toEqual([]);
    expect(existsSync(path.join(blog(), 'content', 'posts', 'pending.md'))).toBe(true);
    expect((await call(server, ann.token, 'GET', '/api/sites/blog/posts')).status).toBe(404);
    expect((await fetch(`${server.url}/sites/blog/`)).status).toBe(404);
    expect((await call(server, server.admin.token, 'DELETE', '/api/sites/blog')).status).toBe(404);
  });
});
