import { mkdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';
import { ADMIN_PASSWORD } from '@cabinet/server/testing';

const COUNT = 2500;
const name = (i: number) => `file-${String(i).padStart(4, '0')}.txt`;

const cabinet = withCabinet({
  setup: async (server) => {
    await mkdir(`${server.root}/big`);
    for (let i = 1; i <= COUNT; i++) await writeFile(`${server.root}/big/${name(i)}`, 'x');
  },
});

async function openBig(viewMode: string): Promise<{ page: Page; files: FilesPage }> {
  const user = await cabinet.server.createUser({ viewMode });
  const { page } = await cabinet.newPage();
  await loginThroughForm(page, cabinet.server.url, user.user.username, user.password);
  const files = new FilesPage(page);
  await files.goto(cabinet.server.url, 'big/');
  await files.entry(name(1)).waitFor();
  return { page, files };
}

/** Scrolls to the page bottom until `target` is rendered (50 more entries arrive each time). */
async function scrollUntil(page: Page, files: FilesPage, target: string): Promise<number> {
  for (let round = 1; round <= 200; round++) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    if ((await files.entry(target).count()) > 0) return round;
  }
  throw new Error(`${target} never appeared`);
}

describe(`a folder of ${COUNT} entries`, () => {
  it('renders only a window of rows and reveals the last entry by scrolling', async () => {
    const { page, files } = await openBig('list');
    // A streamed folder shows its first part before the rest arrives: the count grows to all.
    await expect.poll(() => files.table.getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
    expect(await files.table.locator('[aria-selected]').count()).toBeLessThanOrEqual(50);
    const rounds = await scrollUntil(page, files, name(COUNT));
    // Shown 50 at a time: many pages were needed to get there.
    expect(rounds).toBeGreaterThan(10);
    expect(await files.entry(name(COUNT)).isVisible()).toBe(true);
    const rendered = await files.table.locator('[aria-selected]').count();
    expect(rendered).toBeLessThan(100);
    expect(await files.item(name(COUNT)).getAttribute('aria-rowindex')).toBe(String(COUNT + 1));
    expect(await files.entry(name(1)).count()).toBe(0);
  });

  it('End goes to the last entry from the keyboard, Ctrl+A selects all of them', async () => {
    const { page, files } = await openBig('list');
    await files.entry(name(1)).focus();
    await page.keyboard.press('End');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe(name(COUNT));
    expect(await files.entry(name(COUNT)).isVisible()).toBe(true);
    await page.keyboard.press('Control+a');
    expect(await files.selectionBanner.textContent()).toBe(`${COUNT} selected`);
  });

  it('virtualises the mosaic too', async () => {
    const { page, files } = await openBig('mosaic');
    const columns = Number(await files.mosaic.getAttribute('aria-colcount'));
    await expect
      .poll(() => files.mosaic.getAttribute('aria-rowcount'))
      .toBe(String(Math.ceil(COUNT / columns)));
    await scrollUntil(page, files, name(COUNT));
    expect(await files.mosaic.getByRole('gridcell').count()).toBeLessThan(120);
  });
});

describe('opening a big folder by its address', () => {
  it('asks for the folder once, while the session is still being renewed', async () => {
    const { page, files } = await openBig('list');
    const sent: string[] = [];
    let renewAnswered = false;
    let sentBeforeRenewAnswered: boolean | undefined;
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/resources/big')) return;
      sent.push(url.pathname + url.search);
      sentBeforeRenewAnswered ??= !renewAnswered;
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/renew') renewAnswered = true;
    });
    // A page load of the folder with the stored session.
    await page.reload();
    await files.entry(name(1)).waitFor();
    await expect.poll(() => files.table.getAttribute('aria-rowcount')).toBe(String(COUNT + 1));
    expect(sent).toEqual(['/api/resources/big/?format=compact']);
    // Sent before the renewal had been answered: it did not wait for the app to start.
    expect(sentBeforeRenewAnswered).toBe(true);
  });

  it('falls back to the login page when the stored session is refused', async () => {
    const user = await cabinet.server.createUser({});
    const { page } = await cabinet.newPage();
    await loginThroughForm(page, cabinet.server.url, user.user.username, user.password);
    const files = new FilesPage(page);
    await files.goto(cabinet.server.url, 'big/');
    await files.entry(name(1)).waitFor();
    const removed = await cabinet.server.fetch(`/api/users/${user.user.id}`, {
      method: 'DELETE',
      token: cabinet.server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ current_password: ADMIN_PASSWORD }),
    });
    expect(removed.status).toBe(200);
    await page.reload();
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await files.entry(name(1)).count()).toBe(0);
  });
});
