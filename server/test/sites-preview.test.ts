// Live previews stay light (docs/sites.md, "Preview"): the post being edited is rendered alone
// with the site's layout, a newer preview of the same post cancels the one still running (Hugo's
// process stopped), the one it replaces is removed, and previews go after a few minutes.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PostPreview } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { until } from './helpers/eventually.ts';

let server: TestServer;
let ann: TestUser;
/** How far the sites' clock runs ahead of the real one. */
let clockAhead = 0;

const previews = () => path.join(server.dataDir, 'site-previews');

async function call<T>(method: string, url: string, body?: unknown) {
  const response = await server.fetch(url, {
    method,
    token: ann.token,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function declare(name: string, generator: 'builtin' | 'hugo'): Promise<void> {
  const response = await server.fetch('/api/sites', {
    method: 'POST',
    token: server.admin.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, folder: `/users/ann/${name}`, generator, starter: true }),
  });
  expect(response.status).toBe(201);
}

async function writePosts(name: string, count: number): Promise<void> {
  const dir = path.join(server.root, 'users', 'ann', name, 'content', 'posts');
  for (let i = 0; i < count; i++) {
    const text = `---\ntitle: Other ${i}\ndate: 2024-01-01T00:00:00Z\ndraft: false\n---\n\nOther post ${i}\n`;
    await writeFile(path.join(dir, `other-${i}.md`), text);
  }
}

/** Preview folders now, with the post each previews. */
async function previewFolders(): Promise<{ id: string; post: string | undefined }[]> {
  const names = existsSync(previews()) ? await readdir(previews()) : [];
  const found = [];
  for (const id of names.filter((n) => /^[a-f0-9]{32}$/.test(n))) {
    const meta = await readFile(path.join(previews(), id, 'meta.json'), 'utf8').catch(() => '{}');
    found.push({ id, post: (JSON.parse(meta) as { post?: string }).post });
  }
  return found;
}

function idOf(url: string): string {
  return /preview\/([a-f0-9]{32})\//.exec(url)![1]!;
}

beforeAll(async () => {
  server = await startTestServer({ now: () => Date.now() + clockAhead });
  ann = await server.createUser({ scope: '/users/ann', perm: { create: true, modify: true } });
  await declare('light', 'builtin');
  await declare('docs', 'hugo');
  await writePosts('light', 40);
  await writePosts('docs', 40);
});

afterAll(async () => {
  await server.close();
});

describe('sites: light previews', () => {
  it('renders the edited post alone with the built-in layout, replacing its previous preview', async () => {
    const urls: string[] = [];
    for (let i = 0; i < 4; i++) {
      const preview = await call<PostPreview>('POST', '/api/sites/light/preview', {
        path: 'posts/other-3.md',
        content: `---\ntitle: Version ${i}\n---\n\nText ${i}\n`,
      });
      expect(preview.status).toBe(200);
      urls.push(preview.body.url);
    }
    const page = await fetch(`${server.url}${urls[3]}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Version 3');
    expect(html).toContain('Text 3');
    // Only the post previewed was rendered: no other post's page is in the preview.
    const out = path.join(previews(), idOf(urls[3]!), 'out', 'posts');
    expect(await readdir(out)).toEqual(['other-3']);
    // The earlier versions were replaced: one preview of the post is kept.
    expect((await fetch(`${server.url}${urls[0]}`)).status).toBe(404);
    const kept = (await previewFolders()).filter((f) => f.post === 'posts/other-3.md');
    expect(kept.map((f) => f.id)).toEqual([idOf(urls[3]!)]);
  });

  it('renders the edited post alone with Hugo, on the site’s own layouts', async () => {
    const preview = await call<PostPreview>('POST', '/api/sites/docs/preview', {
      path: 'posts/other-5.md',
      content: '---\ntitle: Hugo draft\ndraft: true\n---\n\nHugo text\n',
    });
    expect(preview.status).toBe(200);
    const page = await fetch(`${server.url}${preview.body.url}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hugo text');
    const scratch = path.join(previews(), idOf(preview.body.url));
    expect(await readdir(path.join(scratch, 'content', 'posts'))).toEqual(['other-5.md']);
    const pages = await readdir(path.join(scratch, 'out', 'posts'), { withFileTypes: true });
    expect(pages.filter((e) => e.isDirectory()).map((e) => e.name)).toEqual(['other-5']);
  });

  it('cancels a Hugo preview still running when a newer one of the post comes', async () => {
    const layout = path.join(server.root, 'users', 'ann', 'docs', 'layouts', '_default');
    const single = path.join(layout, 'single.html');
    const good = await readFile(single, 'utf8');
    // A page whose text says SLOW takes Hugo seconds to render.
    await writeFile(
      single,
      good.replace(
        '{{ define "main" }}',
        '{{ define "main" }}{{ if in .RawContent "SLOW" }}{{ range seq 1000 }}{{ range seq 1000 }}{{ range seq 20 }}{{ end }}{{ end }}{{ end }}{{ end }}',
      ),
    );
    try {
      const slow = call<{ code: string }>('POST', '/api/sites/docs/preview', {
        path: 'posts/other-6.md',
        content: '---\ntitle: Slow\n---\n\nSLOW text\n',
      });
      // Once the first preview's scratch folder holds its post, Hugo is on its way.
      await until(async () =>
        (await previewFolders()).some(
          (f) =>
            f.post === 'posts/other-6.md' &&
            existsSync(path.join(previews(), f.id, 'content', 'posts', 'other-6.md')),
        ),
      );
      const first = (await previewFolders()).find((f) => f.post === 'posts/other-6.md')!;
      const fresh = await call<PostPreview>('POST', '/api/sites/docs/preview', {
        path: 'posts/other-6.md',
        content: '---\ntitle: Fast\n---\n\nFast text\n',
      });
      expect(fresh.status).toBe(200);
      const superseded = await slow;
      expect(superseded.status).toBe(409);
      expect(superseded.body.code).toBe('preview_superseded');
      // Its process is gone and so is its folder: only the newer preview of the post is kept.
      expect(await hugoRunningFor(first.id)).toBe(false);
      const kept = (await previewFolders()).filter((f) => f.post === 'posts/other-6.md');
      expect(kept.map((f) => f.id)).toEqual([idOf(fresh.body.url)]);
      expect(await (await fetch(`${server.url}${fresh.body.url}`)).text()).toContain('Fast text');
    } finally {
      await writeFile(single, good);
    }
  });

  it('refuses a preview once the configuration mounts a folder outside the site', async () => {
    const config = path.join(server.root, 'users', 'ann', 'docs', 'hugo.toml');
    const good = await readFile(config, 'utf8');
    const first = await call<PostPreview>('POST', '/api/sites/docs/preview', {
      path: 'posts/other-8.md',
    });
    expect(first.status).toBe(200);
    // The mounts Hugo reported for the first preview are not trusted after the change.
    await writeFile(
      config,
      `${good}\n[module]\n[[module.mounts]]\nsource = "/etc"\ntarget = "static/etc"\n`,
    );
    try {
      const refused = await call<{ message: string }>('POST', '/api/sites/docs/preview', {
        path: 'posts/other-8.md',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/Refused: the mount of \/etc/);
    } finally {
      await writeFile(config, good);
    }
  });

  it('refuses a preview once a symlink leading outside is added to the site after a first one', async () => {
    const partials = path.join(server.root, 'users', 'ann', 'docs', 'layouts', 'partials');
    // The sites' clock a minute ahead: every folder of the site counts as long unchanged, so the
    // first preview keeps its walk of them.
    clockAhead += 60_000;
    try {
      const first = await call<PostPreview>('POST', '/api/sites/docs/preview', {
        path: 'posts/other-9.md',
      });
      expect(first.status).toBe(200);
      await mkdir(partials, { recursive: true });
      await symlink('/etc/passwd', path.join(partials, 'leak.html'));
      const refused = await call<{ message: string }>('POST', '/api/sites/docs/preview', {
        path: 'posts/other-9.md',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(
        /Refused: the symlink layouts\/partials\/leak.html leads outside the site folder/,
      );
    } finally {
      clockAhead -= 60_000;
      await rm(partials, { recursive: true, force: true });
    }
  });

  it('answers 404 to a user the site is not for, leaving no scratch folder behind', async () => {
    const bob = await server.createUser({
      scope: '/users/bob',
      perm: { create: true, modify: true },
    });
    for (const name of ['docs', 'light']) {
      const response = await server.fetch(`/api/sites/${name}/preview`, {
        method: 'POST',
        token: bob.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: 'posts/bob-tries.md', content: '---\ntitle: B\n---\n\nB\n' }),
      });
      expect(response.status).toBe(404);
    }
    // The folder made while access was checked is gone by the answer.
    expect((await previewFolders()).filter((f) => f.post === 'posts/bob-tries.md')).toEqual([]);
  });

  it('removes previews a few minutes old when the sweep runs', async () => {
    const preview = await call<PostPreview>('POST', '/api/sites/light/preview', {
      path: 'posts/other-9.md',
    });
    expect(preview.status).toBe(200);
    const id = idOf(preview.body.url);
    clockAhead = 11 * 60_000;
    try {
      expect((await fetch(`${server.url}${preview.body.url}`)).status).toBe(404);
      expect(await server.runtime.services.sites.sweepPreviews()).toBeGreaterThan(0);
      expect(existsSync(path.join(previews(), id))).toBe(false);
    } finally {
      clockAhead = 0;
    }
  });
});

/** Whether a process whose command line names the preview's folder still runs. */
async function hugoRunningFor(id: string): Promise<boolean> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const line = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (line.includes(id) && line.startsWith('hugo')) return true;
  }
  return false;
}
