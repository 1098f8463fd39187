import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { ARTIFACTS } from '../support/paths.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';
import { seedFiles } from '../support/servers.ts';

const PHOTOS = 120;

const cabinet = withCabinet({
  setup: async (server) => {
    const entries: Record<string, string> = {
      'notes/': '',
      'notes/readme.md': '# readme',
      'deep/er/target-file.txt': 'found me',
      'report 2026.pdf': 'pdf',
    };
    for (let i = 0; i < PHOTOS; i++) entries[`pics/photo-${String(i).padStart(3, '0')}.jpg`] = 'x';
    await seedFiles(server.root, entries);
    // The files were written after the server started: a full walk makes the index hold them all.
    server.ctx.search.rebuild();
    await server.ctx.search.settled();
    await mkdir(ARTIFACTS, { recursive: true });
  },
});

async function login(options: { width?: number } = {}): Promise<{ page: Page; files: FilesPage }> {
  const { page } = await cabinet.newPage(options);
  await loginThroughForm(page, cabinet.server.url, 'admin', cabinet.server.admin.password);
  const files = new FilesPage(page);
  await files.listing.waitFor();
  return { page, files };
}

/** The overlay and what is in it, found by role and name as a user would. */
function overlay(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Search' });
  return {
    dialog,
    field: dialog.getByRole('textbox', { name: 'Search in this folder' }),
    status: dialog.getByRole('status'),
    results: dialog.getByRole('list', { name: 'Search results' }).getByRole('link'),
    list: dialog.getByRole('list', { name: 'Search results' }),
  };
}

async function scrollToEnd(list: Locator): Promise<void> {
  await list.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
}

describe('search overlay', () => {
  it('searches on Enter, shows 50 results and 50 more on scrolling near the end', async () => {
    const { page, files } = await login();
    await files.header.getByRole('button', { name: 'Search' }).click();
    const search = overlay(page);
    await search.field.fill('photo');
    // Nothing is searched before Enter.
    await expect.poll(() => search.results.count()).toBe(0);
    await search.field.press('Enter');
    await search.status.getByText(`${PHOTOS} results`).waitFor();
    expect(await search.results.count()).toBe(50);
    expect(await search.results.first().textContent()).toContain('photo-000.jpg');

    await scrollToEnd(search.list);
    await expect.poll(() => search.results.count()).toBe(100);
    await scrollToEnd(search.list);
    await expect.poll(() => search.results.count()).toBe(PHOTOS);

    // Typing clears the results; Esc closes the overlay and gives focus back.
    await search.field.press('s');
    await expect.poll(() => search.results.count()).toBe(0);
    await expect.poll(() => search.status.textContent()).toBe('');
    await page.keyboard.press('Escape');
    await search.dialog.waitFor({ state: 'detached' });
  });

  it('opens with Ctrl+F, moves through results with the arrow keys and opens one with Enter', async () => {
    const { page } = await login();
    await page.keyboard.press('Control+f');
    const search = overlay(page);
    await search.field.waitFor();
    await search.field.fill('target');
    await search.field.press('Enter');
    await search.status.getByText('1 result').waitFor();
    await search.field.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent ?? ''))
      .toContain('target-file.txt');
    await page.keyboard.press('ArrowUp');
    await expect
      .poll(() => search.field.evaluate((el) => el === document.activeElement))
      .toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/files\/deep\/er\/target-file\.txt$/);
    await search.dialog.waitFor({ state: 'detached' });
  });

  it('offers type shortcuts, searches the folder on screen and opens a clicked result', async () => {
    const { page, files } = await login();
    await files.open('pics');
    await page.waitForURL(/\/files\/pics\/$/);
    await files.header.getByRole('button', { name: 'Search' }).click();
    const search = overlay(page);
    await search.dialog.getByRole('button', { name: 'Images' }).click();
    // The shortcut searches at once: no Enter needed.
    await search.status.getByText(`${PHOTOS} results`).waitFor();
    expect(await search.field.inputValue()).toBe('type:image ');
    // Paths are relative to the folder searched: no "pics/" in front.
    expect(await search.results.first().textContent()).toBe('photo-000.jpg');

    await search.field.fill('photo-117');
    await search.field.press('Enter');
    await search.status.getByText('1 result').waitFor();
    await search.results.first().click();
    await page.waitForURL(/\/files\/pics\/photo-117\.jpg$/);
  });

  it('opens a folder result as a listing and says when nothing matched', async () => {
    const { page, files } = await login();
    await files.header.getByRole('button', { name: 'Search' }).click();
    const search = overlay(page);
    await search.field.fill('no-such-name-anywhere');
    await search.field.press('Enter');
    await search.status.getByText('No results.').waitFor();
    await search.field.fill('notes');
    await search.field.press('Enter');
    await search.status.getByText('1 result').waitFor();
    await search.results.first().click();
    await page.waitForURL(/\/files\/notes\/$/);
    await files.entry('readme.md').waitFor();
  });
});

describe('search overlay screenshots', () => {
  async function setTheme(theme: string): Promise<void> {
    const settings = await cabinet.server.ctx.settings.get();
    await cabinet.server.updateSettings({ branding: { ...settings.branding, theme } });
  }
  afterAll(() => setTheme(''));

  it.each([
    ['light', 1280],
    ['light', 390],
    ['dark', 1280],
    ['dark', 390],
  ] as const)('%s theme at %i px: types, then results, fit the screen', async (theme, width) => {
    await setTheme(theme === 'dark' ? 'dark' : '');
    const { page, files } = await login({ width });
    await files.header.getByRole('button', { name: 'Search' }).click();
    const search = overlay(page);
    await search.field.waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, `search-types-${theme}-${width}.png`) });
    await search.field.fill('o');
    await search.field.press('Enter');
    await search.status.getByText(/results$/).waitFor();
    await search.results.nth(1).focus();
    await page.screenshot({ path: path.join(ARTIFACTS, `search-results-${theme}-${width}.png`) });
    const box = await search.dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  });
});
