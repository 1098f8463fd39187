import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SitesPage } from '../pages/sites-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

// The static-site area end to end on the real server: an administrator declares a site from the
// starter, a post is written with its live preview, published (and served), another scheduled a
// few seconds ahead becomes published by the server's scheduler; at phone width too; a user
// without a site sees no Sites entry.

const cabinet = withCabinet({ files: { 'notes/readme.txt': 'not a site\n' } });

/** How long the scheduler may take to publish a post that fell due (it polls). */
const SCHEDULER_WAIT_MS = 90_000;

/** Declares a site through the API, as the settings card does, for tests about something else. */
async function declareSite(name: string, users: number[] = []) {
  const response = await cabinet.server.fetch('/api/sites', {
    method: 'POST',
    token: cabinet.server.admin.token,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, title: `Site ${name}`, folder: `/${name}`, starter: true, users }),
  });
  expect(response.status).toBe(201);
}

/** A moment `seconds` ahead as the schedule inputs take it, in the browser's own time zone. */
function inputsAhead(page: Page, seconds: number): Promise<[string, string]> {
  return page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead * 1000);
    const two = (n: number) => String(n).padStart(2, '0');
    return [
      `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`,
      `${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`,
    ] as [string, string];
  }, seconds);
}

/** Schedules a post from the list a few seconds ahead and waits until the list says published. */
async function scheduleAndWatch(sites: SitesPage, title: string) {
  await sites.postAction(title, 'Schedule').click();
  const [date, time] = await inputsAhead(sites.page, 15);
  await sites.dialog.getByLabel('Date', { exact: true }).fill(date);
  await sites.dialog.getByLabel('Time', { exact: true }).fill(time);
  await sites.dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
  await sites.dialog.waitFor({ state: 'detached' });
  await expect.poll(() => sites.postState(title).textContent()).toBe('Scheduled');
  await expect
    .poll(() => sites.post(title).locator('time').textContent())
    .toMatch(/^Scheduled for/);
  // The list follows the event stream: the scheduler's build shows without a reload.
  await expect
    .poll(() => sites.postState(title).textContent(), { timeout: SCHEDULER_WAIT_MS })
    .toBe('Published');
}

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('the static-site area', () => {
  it('creates a site from the starter, writes a post with a live preview and publishes it', async () => {
    const { page } = await cabinet.loginPage();
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/settings/global`);
    await sites.createSite({ name: 'blog', title: 'My blog', folder: '/blog', serve: true });
    await waitForNotice(page, /Site .*blog.* created/);
    await sites.settingsCard.getByText('My blog').waitFor();

    await sites.sidebarLink.click();
    await sites.siteLink('My blog').click();
    await page.getByRole('heading', { name: 'My blog', level: 1 }).waitFor();

    await sites.writePost('Hello world');
    expect(new URL(page.url()).pathname).toBe('/publishing/blog/edit/posts/hello-world.md');
    // The preview frame runs nothing of the post in Cabinet's origin.
    await sites.previewFrameElement().waitFor();
    expect(await sites.previewFrameElement().getAttribute('sandbox')).toBe('');
    await sites.previewFrame().getByText('Hello world').first().waitFor();

    // What is typed shows in the preview before it is saved.
    await sites.editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\nTyped in the live preview.\n');
    await sites.previewFrame().getByText('Typed in the live preview.').waitFor();

    await sites.editorPublish.click();
    const report = sites.dialog.filter({ hasText: 'is published' });
    await report.getByText(/The generator ran in \d+ ms\./).waitFor();
    await report.getByRole('button', { name: 'Close' }).click();

    await sites.backToPosts.click();
    await expect.poll(() => sites.postState('Hello world').textContent()).toBe('Published');

    // Publishing saved the typed text first, and the served index (no sign-in) lists the post.
    const file = path.join(cabinet.server.root, 'blog/content/posts/hello-world.md');
    expect(await readFile(file, 'utf8')).toContain('Typed in the live preview.');
    const index = await cabinet.server.fetch('/sites/blog/');
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('Hello world');

    // Unpublish puts it back to draft.
    await sites.postAction('Hello world', 'Unpublish').click();
    await sites.dialog
      .filter({ hasText: 'is a draft again' })
      .getByRole('button', { name: 'Close' })
      .click();
    await expect.poll(() => sites.postState('Hello world').textContent()).toBe('Draft');
  });

  it('asks for another slug when the file exists', async () => {
    await declareSite('clash');
    const { page } = await cabinet.tokenPage();
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/publishing/clash`);
    await sites.writePost('Same name');
    await sites.backToPosts.click();
    await sites.newPost.click();
    await sites.dialog.getByLabel('Title', { exact: true }).fill('Same name');
    expect(await sites.dialog.getByLabel(/^Slug/).inputValue()).toBe('same-name');
    await sites.dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await sites.dialog
      .getByRole('alert')
      .getByText(/exists already/)
      .waitFor();
    await sites.dialog.getByLabel(/^Slug/).fill('same-name-2');
    await sites.dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await sites.editor.waitFor();
    expect(new URL(page.url()).pathname).toBe('/publishing/clash/edit/posts/same-name-2.md');
  });

  it('refuses a schedule in the past without asking the server', async () => {
    await declareSite('past');
    const { page } = await cabinet.tokenPage();
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/publishing/past`);
    await sites.writePost('Too late');
    await sites.backToPosts.click();
    await sites.postAction('Too late', 'Schedule').click();
    const [date, time] = await inputsAhead(page, -3600);
    await sites.dialog.getByLabel('Date', { exact: true }).fill(date);
    await sites.dialog.getByLabel('Time', { exact: true }).fill(time);
    await sites.dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await sites.dialog.getByText('Choose a moment in the future.').waitFor();
    await sites.dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await sites.postState('Too late').textContent()).toBe('Draft');
  });

  it('publishes a post scheduled a few seconds ahead', { timeout: 180_000 }, async () => {
    await declareSite('news');
    const { page } = await cabinet.tokenPage();
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/publishing/news`);
    await sites.writePost('Later post');
    await sites.backToPosts.click();
    await scheduleAndWatch(sites, 'Later post');
  });

  it(
    'works at phone width: tabs between editor and preview, schedule',
    { timeout: 180_000 },
    async () => {
      await declareSite('phone');
      const { page } = await cabinet.tokenPage({ width: 390, height: 800 });
      const sites = new SitesPage(page);
      await page.goto(`${cabinet.server.url}/publishing/phone`);
      await sites.newPost.waitFor();
      expect(await scrollsSideways(page)).toBe(false);

      await sites.writePost('Pocket post');
      // One pane at a time: the editor, then the preview.
      await expect.poll(() => sites.previewFrameElement().isVisible()).toBe(false);
      await sites.previewTab.click();
      await sites.previewFrame().getByText('Pocket post').first().waitFor();
      expect(await sites.editor.isVisible()).toBe(false);
      expect(await scrollsSideways(page)).toBe(false);
      await sites.editTab.click();
      await sites.editor.waitFor();

      await sites.backToPosts.click();
      await sites.post('Pocket post').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await scheduleAndWatch(sites, 'Pocket post');
    },
  );

  it('shows no Sites entry to a user allowed on no site', async () => {
    await declareSite('private', [cabinet.server.admin.user.id]);
    // Sites declared for everyone are in folders outside this user's scope.
    const bob = await cabinet.server.createUser({ scope: '/notes' });
    const mine = await cabinet.server.fetch('/api/sites', { token: bob.token });
    expect(await mine.json()).toEqual([]);

    const { page } = await cabinet.tokenPage({ token: bob.token });
    const sites = new SitesPage(page);
    await page.goto(`${cabinet.server.url}/files/`);
    await page.getByRole('link', { name: 'My files' }).waitFor();
    expect(await sites.sidebarLink.count()).toBe(0);
    // The screen itself says there is nothing, without pointing to the administrators' settings.
    await page.goto(`${cabinet.server.url}/publishing`);
    await page.getByText('There is no site you can write in yet.').waitFor();
    expect(await page.getByRole('link', { name: /global settings/ }).count()).toBe(0);

    // The administrator sees the entry.
    const admin = await cabinet.tokenPage();
    await admin.page.goto(`${cabinet.server.url}/files/`);
    await new SitesPage(admin.page).sidebarLink.waitFor();
  });
});
