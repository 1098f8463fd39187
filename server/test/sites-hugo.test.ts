import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Post, PostActionResult, PostPreview } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let server: TestServer;
let ann: TestUser;

async function call<T>(token: string, method: string, url: string, body?: unknown) {
  const response = await server.fetch(url, {
    method,
    token,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

beforeAll(async () => {
  server = await startTestServer();
  await mkdir(path.join(server.root, 'users', 'ann'), { recursive: true });
  ann = await server.createUser({ scope: '/users/ann', perm: { create: true, modify: true } });
  const created = await call(server.admin.token, 'POST', '/api/sites', {
    name: 'docs',
    title: 'Ann "docs"',
    folder: '/users/ann/docs',
    generator: 'hugo',
    starter: true,
  });
  expect(created.status).toBe(201);
  const hostile = await call(server.admin.token, 'POST', '/api/sites', {
    name: 'hostile',
    folder: '/users/ann/hostile',
    generator: 'hugo',
    starter: true,
  });
  expect(hostile.status).toBe(201);
});
afterAll(async () => {
  await server.close();
});

describe('sites: Hugo', () => {
  it('builds a starter site with the real hugo binary, publishing and unpublishing a post', async () => {
    const site = path.join(server.root, 'users', 'ann', 'docs');
    expect(await readFile(path.join(site, 'hugo.toml'), 'utf8')).toContain(
      'title = "Ann \\"docs\\""',
    );
    const post = await call<Post>(ann.token, 'POST', '/api/sites/docs/posts', {
      title: 'First steps',
    });
    expect(post.status).toBe(201);
    // Declared with the starter, the site was built at once: it has output before any publish.
    expect(existsSync(path.join(site, 'public', 'index.html'))).toBe(true);
    const before = (await readdir(site)).sort();

    const preview = await call<PostPreview>(ann.token, 'POST', '/api/sites/docs/preview', {
      path: post.body.path,
      content: '---\ntitle: Draft view\ndraft: true\n---\n\nNot saved yet\n',
    });
    expect(preview.status).toBe(200);
    const page = await server.fetch(`${preview.body.url}?auth=${ann.token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Draft view');
    expect(html).toContain('Not saved yet');
    // The preview built into the data folder: nothing new in the site.
    expect(before).toEqual([
      'archetypes',
      'content',
      'hugo.toml',
      'layouts',
      'public',
      'resources',
    ]);
    expect((await readdir(site)).sort()).toEqual(before);
    expect(existsSync(path.join(site, 'public', 'posts', 'first-steps'))).toBe(false);

    const published = await call<PostActionResult>(ann.token, 'POST', '/api/sites/docs/publish', {
      path: post.body.path,
    });
    expect(published.body.build?.ok).toBe(true);
    expect(published.body.build?.changed.added).toContain('posts/first-steps/index.html');
    const out = await readFile(
      path.join(site, 'public', 'posts', 'first-steps', 'index.html'),
      'utf8',
    );
    expect(out).toContain('<h1>First steps</h1>');
    expect(await readFile(path.join(site, 'public', 'index.html'), 'utf8')).toContain(
      'First steps',
    );

    const unpublished = await call<PostActionResult>(
      ann.token,
      'POST',
      '/api/sites/docs/unpublish',
      {
        path: post.body.path,
      },
    );
    expect(unpublished.body.build?.changed.removed).toContain('posts/first-steps/index.html');
    expect(existsSync(path.join(site, 'public', 'posts', 'first-steps'))).toBe(false);
    const runs = await server.ctx.store.commandRuns.latest(5);
    expect(runs[0]).toMatchObject({ kind: 'site_build', outcome: 'exited', exitCode: 0 });
    expect(runs[0]!.line).toMatch(/^site docs: hugo --destination/);
  });

  it('serves the site with its own stylesheet and every link under /sites/docs/', async () => {
    const site = path.join(server.root, 'users', 'ann', 'docs');
    // The starter names the served prefix; the build passes it too, so an edited config is beaten.
    expect(await readFile(path.join(site, 'hugo.toml'), 'utf8')).toContain(
      'baseURL = "/sites/docs/"',
    );
    await writeFile(
      path.join(site, 'hugo.toml'),
      'baseURL = "https://elsewhere.example/"\ntitle = "Docs"\n',
    );
    await mkdir(path.join(site, 'static'), { recursive: true });
    await writeFile(path.join(site, 'static', 'style.css'), 'body { color: rebeccapurple }\n');
    const baseof = path.join(site, 'layouts', '_default', 'baseof.html');
    const layout = await readFile(baseof, 'utf8');
    await writeFile(
      baseof,
      layout.replace(
        '</head>',
        '<link rel="stylesheet" href="{{ "style.css" | relURL }}">\n</head>',
      ),
    );
    const updated = await call(server.admin.token, 'PUT', '/api/sites/docs', { serve: true });
    expect(updated.status).toBe(200);
    const post = await call<Post>(ann.token, 'POST', '/api/sites/docs/posts', { title: 'Linked' });
    const published = await call<PostActionResult>(ann.token, 'POST', '/api/sites/docs/publish', {
      path: post.body.path,
    });
    expect(published.body.build?.ok).toBe(true);

    const index = await fetch(`${server.url}/sites/docs/`);
    expect(index.status).toBe(200);
    const links = [...(await index.text()).matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
    expect(links).toContain('/sites/docs/style.css');
    expect(links).toContain('/sites/docs/posts/linked/');
    expect(links.every((link) => link.startsWith('/sites/docs/'))).toBe(true);
    const page = await fetch(`${server.url}/sites/docs/posts/linked/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('href="/sites/docs/"');
    expect((await fetch(`${server.url}/sites/docs/style.css`)).status).toBe(200);

    // One policy, the site's: its own prefix for styles, images, fonts and scripts, no other
    // origin, and an opaque origin (no allow-same-origin) so nothing on it reads the app's
    // cookies or storage.
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).not.toContain(',');
    const directives = new Map(
      policy.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)] as const),
    );
    expect(directives.get('sandbox')).toContain('allow-scripts');
    expect(directives.get('sandbox')).not.toContain('allow-same-origin');
    expect(directives.get('default-src')).toEqual(["'none'"]);
    for (const directive of ['style-src', 'img-src', 'font-src', 'script-src']) {
      const sources = directives.get(directive) ?? [];
      expect(sources).toContain(`${server.url}/sites/docs/`);
      expect(sources.filter((source) => /^(https?:|\*|'self')/.test(source))).toEqual([
        `${server.url}/sites/docs/`,
      ]);
    }
  });

  it('agrees with Hugo on publishDate and expiryDate, and Publish on a scheduled post publishes it', async () => {
    const site = path.join(server.root, 'users', 'ann', 'docs');
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const earlier = new Date(Date.now() - 3_600_000).toISOString();
    const dated = (title: string, extra: string) =>
      `---\ntitle: ${title}\ndate: ${earlier}\ndraft: false\n${extra}\n---\n\nBody\n`;
    const posts = path.join(site, 'content', 'posts');
    await writeFile(path.join(posts, 'later.md'), dated('Later', `publishDate: ${later}`));
    await writeFile(path.join(posts, 'gone.md'), dated('Gone', `expiryDate: ${earlier}`));
    const build = await call<{ ok: boolean }>(ann.token, 'POST', '/api/sites/docs/build');
    expect(build.body.ok).toBe(true);
    expect(existsSync(path.join(site, 'public', 'posts', 'later'))).toBe(false);
    expect(existsSync(path.join(site, 'public', 'posts', 'gone'))).toBe(false);
    const listed = await call<Post[]>(ann.token, 'GET', '/api/sites/docs/posts');
    expect(listed.body.find((p) => p.path === 'posts/later.md')?.state).toBe('scheduled');
    expect(listed.body.find((p) => p.path === 'posts/gone.md')?.state).toBe('draft');

    const published = await call<PostActionResult>(ann.token, 'POST', '/api/sites/docs/publish', {
      path: 'posts/later.md',
    });
    expect(published.body.post.state).toBe('published');
    expect(published.body.build?.changed.added).toContain('posts/later/index.html');
    expect((await fetch(`${server.url}/sites/docs/posts/later/`)).status).toBe(200);
  });

  it('reports a Hugo failure with its log and leaves the output as it was', async () => {
    const site = path.join(server.root, 'users', 'ann', 'docs');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(site, 'layouts', 'index.html'), '{{ .Broken ');
    const build = await call<{ ok: boolean; log: string }>(
      ann.token,
      'POST',
      '/api/sites/docs/build',
    );
    expect(build.body.ok).toBe(false);
    expect(build.body.log).toMatch(/index\.html/);
    expect(existsSync(path.join(site, 'public', 'index.html'))).toBe(true);
    expect((await readdir(site)).filter((name) => name.startsWith('.cabinet-build-'))).toEqual([]);
  });

  describe('a site cannot widen what Hugo may do', () => {
    const site = () => path.join(server.root, 'users', 'ann', 'hostile');
    const outside = () => path.join(path.dirname(server.root), 'outside-hugo');
    /** Everything a site's users could write to open Hugo's policy, in both places Hugo reads. */
    const OPEN_POLICY = [
      'baseURL = "http://example.org/"',
      'title = "hostile"',
      '[security]',
      'enableInlineShortcodes = true',
      '[security.exec]',
      "allow = ['.*']",
      "osEnv = ['.*']",
      '[security.funcs]',
      "getenv = ['.*']",
      '[security.http]',
      "urls = ['.*']",
      "methods = ['.*']",
    ].join('\n');

    async function build() {
      const result = await call<{ ok: boolean; log: string }>(
        ann.token,
        'POST',
        '/api/sites/hostile/build',
      );
      expect(result.status).toBe(200);
      return result.body;
    }

    async function layout(text: string) {
      await writeFile(path.join(site(), 'layouts', 'index.html'), text);
    }

    beforeAll(async () => {
      await writeFile(path.join(site(), 'hugo.toml'), OPEN_POLICY);
      await mkdir(path.join(site(), 'config', '_default'), { recursive: true });
      await writeFile(
        path.join(site(), 'config', '_default', 'security.toml'),
        "[exec]\nallow = ['.*']\n[funcs]\ngetenv = ['.*']\n[http]\nurls = ['.*']\n",
      );
      await mkdir(outside(), { recursive: true });
      await writeFile(path.join(outside(), 'secret.txt'), 'OUTSIDE-SECRET');
      // The output of the build at declaration goes: a refused build must not make one.
      await rm(path.join(site(), 'public'), { recursive: true, force: true });
    });

    it('a template cannot read an environment variable, even one the config allows', async () => {
      process.env['CABINET_SITE_SECRET'] = 'env-secret-7f3a';
      try {
        await layout('[{{ os.Getenv "CABINET_SITE_SECRET" }}|{{ os.Getenv "PATH" }}]');
        const result = await build();
        expect(result.ok).toBe(false);
        expect(result.log).toMatch(/access denied.*security\.funcs\.getenv/);
        expect(result.log).not.toContain('env-secret-7f3a');
        expect(existsSync(path.join(site(), 'public'))).toBe(false);
      } finally {
        delete process.env['CABINET_SITE_SECRET'];
      }
    });

    it('a template cannot fetch from the network, even where the config allows it', async () => {
      let hits = 0;
      const web = createServer((_request, response) => {
        hits++;
        response.end('FETCHED-BODY');
      });
      await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = web.address() as AddressInfo;
        await layout(
          `{{ with resources.GetRemote "http://127.0.0.1:${port}/x" }}{{ .Content }}{{ end }}`,
        );
        const result = await build();
        expect(result.ok).toBe(false);
        expect(result.log).toMatch(/access denied.*security\.http\.urls/);
        expect(hits).toBe(0);
      } finally {
        await new Promise((resolve) => web.close(resolve));
      }
    });

    it('content cannot start an external program, even one the config allows', async () => {
      // A stand-in asciidoctor on PATH that leaves a mark when Hugo runs it for an .adoc page.
      const bin = path.join(outside(), 'bin');
      const mark = path.join(outside(), 'ran');
      await mkdir(bin, { recursive: true });
      await writeFile(path.join(bin, 'asciidoctor'), `#!/bin/sh\ntouch '${mark}'\necho ok\n`);
      await chmod(path.join(bin, 'asciidoctor'), 0o755);
      const savedPath = process.env['PATH'];
      process.env['PATH'] = `${bin}:${savedPath}`;
      const page = path.join(site(), 'content', 'doc.adoc');
      try {
        await layout('home');
        await writeFile(page, '= A page\\n\\nText.\\n');
        const result = await build();
        expect(result.ok).toBe(false);
        expect(result.log).toMatch(/access denied.*security\.exec\.allow/);
        expect(existsSync(mark)).toBe(false);
      } finally {
        process.env['PATH'] = savedPath;
        await rm(page);
      }
    });

    it('builds with the policy held, and a link inside the site keeps working', async () => {
      await layout('home: {{ readFile "static/alias.txt" }}');
      await mkdir(path.join(site(), 'static'), { recursive: true });
      await writeFile(path.join(site(), 'static', 'real.txt'), 'inside text');
      await symlink('real.txt', path.join(site(), 'static', 'alias.txt'));
      const result = await build();
      expect(result.log).toBe('');
      expect(result.ok).toBe(true);
      expect(await readFile(path.join(site(), 'public', 'index.html'), 'utf8')).toBe(
        'home: inside text',
      );
    });

    it('refuses a build that would read outside the site folder: a mount or a symlink', async () => {
      await layout('home');
      await writeFile(
        path.join(site(), 'hugo.toml'),
        `${OPEN_POLICY}\n[[module.mounts]]\nsource = "${outside()}"\ntarget = "static/stolen"\n`,
      );
      const mounted = await build();
      expect(mounted.ok).toBe(false);
      expect(mounted.log).toMatch(/^Refused: the mount of .* lies outside the site folder\.$/);
      expect(existsSync(path.join(site(), 'public', 'stolen'))).toBe(false);

      await writeFile(
        path.join(site(), 'hugo.toml'),
        `themesDir = "${outside()}/.."\ntheme = "outside-hugo"\n${OPEN_POLICY}`,
      );
      const themed = await build();
      expect(themed.ok).toBe(false);
      expect(themed.log).toMatch(/^Refused: Hugo module .* lies outside the site folder\.$/);

      await writeFile(path.join(site(), 'hugo.toml'), OPEN_POLICY);
      await symlink(path.join(outside(), 'secret.txt'), path.join(site(), 'static', 'leak.txt'));
      await layout('home: {{ readFile "static/leak.txt" }}');
      const linked = await build();
      expect(linked.ok).toBe(false);
      expect(linked.log).toBe(
        'Refused: the symlink static/leak.txt leads outside the site folder.',
      );
      expect(await readFile(path.join(site(), 'public', 'index.html'), 'utf8')).toBe(
        'home: inside text',
      );
      const runs = await server.ctx.store.commandRuns.latest(1);
      expect(runs[0]).toMatchObject({ kind: 'site_build', outcome: 'refused' });
    });
  });
});
