import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SitesPage } from '../pages/sites-page.ts';
import { withCabinet } from '../support/cabinet.ts';

// The static-site area under load and over time (issue 40): builds started together all succeed,
// the live preview keeps one scratch page per post, the posts list follows the event stream, and
// "View the site" opens a site built when it was declared (or a page saying it has no output).

const cabinet = withCabinet();

async function declareSite(name: string, options: { starter?: boolean } = {}) {
  const response = await cabinet.server.fetch('/api/sites', {
    method: 'POST',
    token: cabinet.server.admin.token,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name,
      title: `Site ${name}`,
      folder: `/${name}`,
      serve: true,
      starter: options.starter ?? true,
    }),
  });
  expect(response.status).toBe(201);
}

async function writePosts(site: string, count: number) {
  const dir = path.join(cabinet.server.root, site, 'content', 'posts');
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    await writeFile(
      path.join(dir, `post-${i}.md`),
      `---\ntitle: Post ${i}\ndate: 2024-01-01T00:00:00Z\ndraft: false\n---\n\nPost number ${i}\n`,
    );
  }
}

/** The preview folders in the data folder that preview `post` of any site. */
async function previewsOf(post: string): Promise<string[]> {
  const dir = path.join(cabinet.server.dataDir, 'site-previews');
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const id of await readdir(dir)) {
    const meta = await readFile(path.join(dir, id, 'meta.json'), 'utf8').catch(() => '{}');
    if ((JSON.parse(meta) as { post?: string }).post === post) found.push(id);
  }
  return found;
}

describe('sites: builds, previews and the event stream', () => {
  it(
    'answers 15 builds started together from the page with success and serves the site',
    { timeout: 120_000 },
    async () => {
      await declareSite('busy');
      await writePosts('busy', 30);
      const { page } = await cabinet.tokenPage();
      const sites = new SitesPage(page);
      await page.goto(`${cabinet.server.url}/publishing/busy`);
      await sites.post('Post 7').waitFor();
      const results = await page.evaluate(async (token) => {
        const builds = Array.from({ length: 15 }, () =>
          fetch('/api/sites/busy/build', { method: 'POST', headers: { 'X-Auth': token } }).then(
            async (r) => ({ status: r.status, ok: ((await r.json()) as { ok?: boolean }).ok }),
          ),
        );
        return Promise.all(builds);
      }, cabinet.server.admin.token);
      expect(results).toEqual(Array.from({ length: 15 }, () => ({ status: 200, ok: true })));
      const folder = await readdir(path.join(cabinet.server.root, 'busy'));
      expect(folder.filter((name) => name.startsWith('.cabinet-build-'))).toEqual([]);
      // The output is whole: the site opens and lists the posts.
      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('link', { name: 'View the site' }).click(),
      ]);
      await tab.getByText('Post 7').first().waitFor();
    },
  );

  it('keeps one preview of a post while its text is typed, showing the latest', async () => {
    await declareSite('typing');
    await writePosts('typing', 100);
    const { page } = await cabinet.tokenPage();
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/publishing/typing/edit/posts/post-3.md`);
    await sites.previewFrame().getByText('Post number 3').waitFor();
    for (const word of ['first', 'second', 'third']) {
      await sites.editor.click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(`\n\nNow the ${word} version.\n`);
      await sites.previewFrame().getByText(`Now the ${word} version.`).waitFor();
    }
    // Each newer preview replaced the one before: one scratch page for the post, not four.
    await expect.poll(() => previewsOf('posts/post-3.md').then((ids) => ids.length)).toBe(1);
  });

  it('shows a publication made elsewhere on the open posts list, without a reload', async () => {
    await declareSite('elsewhere');
    const created = await cabinet.server.fetch('/api/sites/elsewhere/posts', {
      method: 'POST',
      token: cabinet.server.admin.token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Far away' }),
    });
    expect(created.status).toBe(201);
    const { page } = await cabinet.tokenPage();
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/publishing/elsewhere`);
    await expect.poll(() => sites.postState('Far away').textContent()).toBe('Draft');
    // Another session publishes it: the list hears of it through the event stream.
    const published = await cabinet.server.fetch('/api/sites/elsewhere/publish', {
      method: 'POST',
      token: cabinet.server.admin.token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ path: 'posts/far-away.md' }),
    });
    expect(published.status).toBe(200);
    await expect.poll(() => sites.postState('Far away').textContent()).toBe('Published');
  });

  it('opens a site built when declared in a new tab, and says when a site has no output yet', async () => {
    await declareSite('ready');
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/publishing/ready`);
    const view = page.getByRole('link', { name: 'View the site' });
    expect(await view.getAttribute('target')).toBe('_blank');
    expect(await view.getAttribute('rel')).toBe('noopener');
    const [home] = await Promise.all([page.context().waitForEvent('page'), view.click()]);
    await home.waitForLoadState();
    expect(new URL(home.url()).pathname).toBe('/sites/ready/');
    // Declared with the starter, it was built at once: its home page, not "not built yet".
    await home.getByRole('heading', { name: 'Site ready' }).first().waitFor();
    expect(await home.getByText('has not been built yet').count()).toBe(0);

    await declareSite('empty', { starter: false });
    await page.goto(`${cabinet.server.url}/publishing/empty`);
    const [blank] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'View the site' }).click(),
    ]);
    await blank.getByText('Site empty has not been built yet').waitFor();
    // The app's page stays where it was.
    expect(new URL(page.url()).pathname).toBe('/publishing/empty');
  });
});
