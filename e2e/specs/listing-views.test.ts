import sharp from 'sharp';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import type { PageOptions } from '../support/browser.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet({
  files: {
    'docs/': '',
    'music/': '',
    'apple.txt': 'a',
    'banana.txt': 'bbbbbbbbbb',
    'cherry.txt': 'ccccc',
  },
  setup: async (server) => {
    // A real image, so the server has something to make a thumbnail of.
    const png = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#3a7bd5' },
    })
      .png()
      .toBuffer();
    await writeFile(`${server.root}/photo.png`, png);
  },
});

async function login(
  viewMode: string,
  options: PageOptions = {},
  perm: Record<string, boolean> = {},
): Promise<{ page: Page; files: FilesPage }> {
  const user = await cabinet.server.createUser({ viewMode, perm });
  const opened = await cabinet.newPage(options);
  await loginThroughForm(opened.page, cabinet.server.url, user.user.username, user.password);
  const files = new FilesPage(opened.page);
  await files.entry('docs').waitFor();
  return { page: opened.page, files };
}

describe('views', () => {
  it('switches between mosaic and list and keeps the choice after a reload', async () => {
    const { page, files } = await login('mosaic');
    expect(await files.mosaic.isVisible()).toBe(true);
    await files.action('Switch to list view').click();
    await files.table.waitFor();
    await expect.poll(() => files.mosaic.count()).toBe(0);
    // The update renews the token, which carries the view mode into the next visit.
    await expect
      .poll(() =>
        page.evaluate(() => JSON.parse(atob(localStorage.getItem('jwt')!.split('.')[1]!))),
      )
      .toMatchObject({ user: { viewMode: 'list' } });
    await page.reload();
    await files.table.waitFor();
    await files.action('Switch to mosaic view').click();
    await files.mosaic.waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => JSON.parse(atob(localStorage.getItem('jwt')!.split('.')[1]!))),
      )
      .toMatchObject({ user: { viewMode: 'mosaic' } });
    await page.reload();
    await files.mosaic.waitFor();
  });

  it.each([
    [1280, 3],
    [1600, 4],
    [390, 1],
  ])('lays the mosaic out in 300 px columns at %i px', async (width, columns) => {
    const { files } = await login('mosaic', { width, height: 800 });
    const gridWidth = await files.mosaic.evaluate((el) => el.clientWidth);
    expect(Math.max(1, Math.floor(gridWidth / 300))).toBe(columns);
    expect(await files.mosaic.getAttribute('aria-colcount')).toBe(String(columns));
    const firstRow = files.mosaic.getByRole('row').first();
    expect(await firstRow.getByRole('gridcell').count()).toBe(Math.min(columns, 7));
  });

  it('shows thumbnails of images, and icons to users who may not download', async () => {
    const { page, files } = await login('mosaic');
    const thumb = files.item('photo.png').locator('img');
    expect(await thumb.getAttribute('src')).toMatch(
      /\/api\/preview\/thumb\/photo\.png\?inline=true/,
    );
    await expect
      .poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    await page.close();

    const restricted = await login('list', {}, { download: false });
    expect(await restricted.files.item('photo.png').locator('img').count()).toBe(0);
  });
});

describe('sorting', () => {
  it('sorts by a column, flips with a second click, and keeps it after a reload', async () => {
    const { page, files } = await login('list');
    const files_ = ['apple.txt', 'banana.txt', 'cherry.txt', 'photo.png'];
    expect(await files.entryNames()).toEqual(['docs', 'music', ...files_]);
    expect(await files.column('Name').getAttribute('aria-sort')).toBe('ascending');

    await files.sortButton('Name').click();
    await expect.poll(() => files.column('Name').getAttribute('aria-sort')).toBe('descending');
    await expect
      .poll(() => files.entryNames())
      .toEqual(['music', 'docs', ...[...files_].reverse()]);
    await page.reload();
    await files.entry('docs').waitFor();
    expect(await files.column('Name').getAttribute('aria-sort')).toBe('descending');
    expect(await files.entryNames()).toEqual(['music', 'docs', ...[...files_].reverse()]);

    await files.sortButton('Size').click();
    await expect.poll(() => files.column('Size').getAttribute('aria-sort')).toBe('ascending');
    const bySize = ['apple.txt', 'cherry.txt', 'banana.txt'];
    await expect
      .poll(async () => (await files.entryNames()).filter((n) => n.endsWith('.txt')))
      .toEqual(bySize);
    await files.sortButton('Size').click();
    await expect.poll(() => files.column('Size').getAttribute('aria-sort')).toBe('descending');
    await expect
      .poll(async () => (await files.entryNames()).filter((n) => n.endsWith('.txt')))
      .toEqual([...bySize].reverse());
    await page.reload();
    await files.entry('docs').waitFor();
    expect(await files.column('Size').getAttribute('aria-sort')).toBe('descending');
    // Folders stay first whatever the sorting.
    expect((await files.entryNames()).slice(0, 2).sort()).toEqual(['docs', 'music']);
  });

  it('offers the same sorting in the mosaic view', async () => {
    const { files, page } = await login('mosaic');
    const sortBy = page.getByRole('group', { name: 'Sort by' });
    expect(await sortBy.getByRole('button', { name: /^Name/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await sortBy.getByRole('button', { name: /^Name/ }).click();
    await expect
      .poll(() => sortBy.getByRole('button', { name: 'Name, descending' }).count())
      .toBe(1);
    await expect.poll(async () => (await files.entryNames())[0]).toBe('music');
  });
});
