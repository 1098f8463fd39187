import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { seedFiles } from '../support/servers.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet({ files: { 'notes.txt': 'n' } });

const themeOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const shownName = (page: Page) => page.locator('.app-header__name').textContent();

describe('branding saved in the global settings', { timeout: 120_000 }, () => {
  it('applies theme and name at once, in this tab and the others; "system" follows the browser live', async () => {
    const before = await cabinet.server.ctx.settings.get();
    const { page, context } = await cabinet.loginPage();
    try {
      await cabinet.server.updateSettings({ branding: { ...before.branding, theme: '' } });
      // Another tab of the same browser, open on the files.
      const other = await context.newPage();
      await other.goto(`${cabinet.server.url}/files/`);
      await other.locator('.app-header__name').waitFor();

      await new SettingsPages(page).goto(cabinet.server.url, 'global');
      // "" is "system": the page follows the browser's preference, live.
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(() => themeOf(page)).toBe('dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await expect.poll(() => themeOf(page)).toBe('light');

      const card = page.getByRole('form', { name: 'Global settings' });
      const theme = card.getByRole('combobox', { name: 'Theme' });
      expect(await theme.inputValue()).toBe('');
      expect(await theme.locator('option').allTextContents()).toEqual([
        'Follow the system',
        'Light',
        'Dark',
      ]);
      await theme.selectOption({ label: 'Dark' });
      await card.getByRole('textbox', { name: 'Instance name' }).fill('Acme Files');
      await card.getByRole('button', { name: 'Update' }).click();
      await waitForNotice(page, 'Settings updated!');

      // No reload: this tab and the other one show the new name and theme.
      await expect.poll(() => themeOf(page)).toBe('dark');
      await expect.poll(() => shownName(page)).toBe('Acme Files');
      await expect.poll(() => page.title()).toMatch(/ - Acme Files$/);
      await expect.poll(() => themeOf(other)).toBe('dark');
      await expect.poll(() => shownName(other)).toBe('Acme Files');
      expect((await cabinet.server.ctx.settings.get()).branding.theme).toBe('dark');

      // An explicit light theme holds against a dark browser.
      await page.emulateMedia({ colorScheme: 'dark' });
      await theme.selectOption({ label: 'Light' });
      await card.getByRole('button', { name: 'Update' }).click();
      await waitForNotice(page, 'Settings updated!');
      await expect.poll(() => themeOf(page)).toBe('light');
      expect((await cabinet.server.ctx.settings.get()).branding.theme).toBe('light');

      // Back to "system" (the empty string on the wire): dark again, since the browser is.
      await theme.selectOption({ label: 'Follow the system' });
      await card.getByRole('button', { name: 'Update' }).click();
      await waitForNotice(page, 'Settings updated!');
      await expect.poll(() => themeOf(page)).toBe('dark');
      expect((await cabinet.server.ctx.settings.get()).branding.theme).toBe('');
    } finally {
      await cabinet.server.updateSettings({ branding: before.branding });
    }
  });
});

/** A user (list view) whose scope is a fresh folder holding `entries`. */
async function signIn(entries: Record<string, string>, width = 1280) {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const root = `${cabinet.server.root}${scope}`;
  await seedFiles(root, entries);
  const user = await cabinet.server.createUser({ viewMode: 'list', scope });
  const { page } = await cabinet.loginPage({ user, width });
  const files = new FilesPage(page);
  await files.listing.waitFor();
  return { page, files, root };
}

/**
 * Drags a file "from the desktop" to the point (x, y) and drops it there: the events a browser
 * fires on the element under the point, carrying a DataTransfer with a real File. Returns what
 * was highlighted as the drop target during the drag and whether the drop was taken.
 */
function dropAt(page: Page, x: number, y: number, fileName: string) {
  return page.evaluate(
    ([x, y, fileName]) => {
      const element = document.elementFromPoint(x as number, y as number)!;
      const data = new DataTransfer();
      data.items.add(
        new File([`dropped at ${x},${y}`], fileName as string, { type: 'text/plain' }),
      );
      const fire = (type: string) =>
        element.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      fire('dragenter');
      const accepted = !fire('dragover');
      const highlighted = [...document.querySelectorAll('[data-drop-active="true"]')].map(
        (el) => el.className,
      );
      const listing = document.querySelector('.folder-listing')!.getBoundingClientRect();
      const coversPoint =
        listing.left <= (x as number) &&
        (x as number) <= listing.right &&
        listing.top <= (y as number) &&
        (y as number) <= listing.bottom;
      fire('drop');
      return { accepted, highlighted, coversPoint };
    },
    [x, y, fileName] as const,
  );
}

describe('desktop drops on the files screen', { timeout: 120_000 }, () => {
  it('upload into the folder on screen from the empty area under a short list and from the header', async () => {
    const { page, files, root } = await signIn({ 'docs/': '', 'only.txt': 'o' });
    const viewport = page.viewportSize()!;
    const list = (await files.listing.boundingBox())!;

    // Well below the last row, in the empty part of the page.
    const below = await dropAt(page, list.x + list.width / 2, viewport.height - 60, 'below.txt');
    expect(below.accepted).toBe(true);
    // The drop target shown is the folder's listing, and it reaches under the point.
    expect(below.highlighted).toEqual(['folder-listing']);
    expect(below.coversPoint).toBe(true);
    await files.entry('below.txt').waitFor();
    expect(await readFile(`${root}/below.txt`, 'utf8')).toContain('dropped at');

    // On the header bar and on the breadcrumbs.
    const header = (await page.locator('.app-header').boundingBox())!;
    const onHeader = await dropAt(page, header.x + header.width / 2, header.y + 5, 'header.txt');
    expect(onHeader.accepted).toBe(true);
    expect(onHeader.highlighted).toEqual(['folder-listing']);
    const crumbs = (await page.locator('.files__bar').boundingBox())!;
    const onCrumbs = await dropAt(page, crumbs.x + crumbs.width - 5, crumbs.y + 5, 'crumbs.txt');
    expect(onCrumbs.accepted).toBe(true);
    await files.entry('header.txt').waitFor();
    await files.entry('crumbs.txt').waitFor();
    expect(await readFile(`${root}/header.txt`, 'utf8')).toContain('dropped at');

    // A drop onto a folder row still goes into that folder.
    const docs = (await files.item('docs').boundingBox())!;
    const onFolder = await dropAt(page, docs.x + 40, docs.y + docs.height / 2, 'inside.txt');
    expect(onFolder.accepted).toBe(true);
    await expect
      .poll(() => readFile(`${root}/docs/inside.txt`, 'utf8').catch(() => ''))
      .toContain('dropped at');
    expect(await files.entry('inside.txt').count()).toBe(0);
    // Once dropped, nothing stays highlighted.
    expect(await page.locator('[data-drop-active="true"]').count()).toBe(0);
  });

  it('takes no drop from a user who may not create', async () => {
    const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
    await seedFiles(`${cabinet.server.root}${scope}`, { 'only.txt': 'o' });
    const user = await cabinet.server.createUser({
      viewMode: 'list',
      scope,
      perm: { create: false },
    });
    const { page } = await cabinet.loginPage({ user });
    await new FilesPage(page).listing.waitFor();
    const header = (await page.locator('.app-header').boundingBox())!;
    const drop = await dropAt(page, header.x + header.width / 2, header.y + 5, 'refused.txt');
    expect(drop.accepted).toBe(false);
    expect(drop.highlighted).toEqual([]);
  });
});

/** Long words without spaces, where phones break layouts: file, folder and user names. */
const LONG_FOLDER = 'Verwaltungsgerichtsentscheidungssammlung-Archiv-2026';
const LONG_FILE = 'Quarterly_Financial_Statement_Consolidated_Subsidiaries_Final_v12.txt';
const LONG_USER = 'Bartholomew-Maximilian-Featherstonehaugh-Worthington';
const LONG_INSTANCE = 'Acme Files Internationale Dokumentenverwaltung';

/** What scrolls sideways on the page: the document's width past the viewport, and the widest. */
function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const excess = document.documentElement.scrollWidth - width;
    if (excess <= 0) return null;
    // For the message: the deepest elements reaching past the viewport's edges.
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.right > width + 1 || box.left < -1);
      })
      .filter((el) => ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1))
      .slice(0, 4)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]}`);
    return `${excess}px wider (${culprits.join(', ')})`;
  });
}

describe('no sideways scrolling on phones', { timeout: 900_000 }, () => {
  it('fits every main screen into 320 and 430 px with long names, in long-word languages', async () => {
    const before = await cabinet.server.ctx.settings.get();
    const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
    const root = `${cabinet.server.root}${scope}`;
    await seedFiles(root, {
      [`${LONG_FOLDER}/${LONG_FILE}`]: 'long',
      [LONG_FILE]: 'long',
    });
    const share = await cabinet.server.fetch(`/api/share${scope}/${LONG_FILE}`, {
      method: 'POST',
      token: cabinet.server.admin.token,
      body: JSON.stringify({}),
    });
    const { hash } = (await share.json()) as { hash: string };
    await cabinet.server.updateSettings({ branding: { ...before.branding, name: LONG_INSTANCE } });
    cabinet.server.ctx.search.rebuild();
    await cabinet.server.ctx.search.settled();

    const failures: string[] = [];
    try {
      // The narrowest width in the languages with the longest words and in right-to-left, and the
      // widest phone width once: each visit renders a dozen screens, so this is the CI budget.
      const runs: Array<[string, number]> = [
        ['de', 320],
        ['ru', 320],
        ['ar', 320],
        ['en', 430],
      ];
      for (const [locale, width] of runs) {
        const perm = { admin: true };
        const listUser = await cabinet.server.createUser({
          username: `${LONG_USER}-${locale}`,
          scope,
          locale,
          viewMode: 'list',
          perm,
        });
        // Into this user's trash (each user has their own).
        const gone = `gone-for-good-with-a-rather-long-name-without-any-spaces-${locale}.txt`;
        await seedFiles(root, { [gone]: 'x' });
        const deleted = await cabinet.server.fetch(`/api/resources/${gone}`, {
          method: 'DELETE',
          token: listUser.token,
        });
        expect(deleted.status).toBe(204);
        const gridUser = await cabinet.server.createUser({
          scope,
          locale,
          viewMode: 'mosaic',
          perm,
        });
        {
          const check = async (page: Page, screen: string) => {
            const overflow = await sidewaysOverflow(page);
            if (overflow) failures.push(`${locale} ${width}px ${screen}: ${overflow}`);
          };
          const { page } = await cabinet.tokenPage({ token: listUser.token, width, height: 800 });
          const go = async (path: string, ready: string) => {
            await page.goto(`${cabinet.server.url}${path}`);
            // A text on screen, or a form field holding it.
            await page
              .getByText(ready, { exact: false })
              .or(page.locator(`input[value="${ready}"]`))
              .first()
              .waitFor();
            await check(page, path);
          };
          await go('/files/', LONG_FILE);
          await go(`/files/${LONG_FOLDER}/${LONG_FILE}`, 'long');
          await page.goto(`${cabinet.server.url}/settings/profile`);
          await page.locator('main h1').waitFor();
          await check(page, '/settings/profile');
          await go('/settings/global', LONG_INSTANCE);
          await go('/settings/users', `${LONG_USER}-${locale}`);
          await go(`/settings/users/${listUser.user.id}`, `${LONG_USER}-${locale}`);
          await go('/settings/shares', LONG_FILE);
          await go('/trash', 'gone-for-good');
          await page.goto(`${cabinet.server.url}/files/`);
          await page.locator('.app-header__search button').click();
          await page.getByRole('dialog').getByRole('textbox').first().fill('Quarterly');
          await page.getByRole('dialog').getByRole('textbox').first().press('Enter');
          await page.getByRole('dialog').getByRole('link').first().waitFor();
          await check(page, 'search');

          const grid = await cabinet.tokenPage({ token: gridUser.token, width, height: 800 });
          await grid.page.goto(`${cabinet.server.url}/files/`);
          await grid.page.getByText(LONG_FILE).first().waitFor();
          await check(grid.page, '/files/ (grid)');

          const visitor = await cabinet.newPage({ width, height: 800, locale });
          await visitor.page.goto(`${cabinet.server.url}/share/${hash}`);
          await visitor.page.getByText(LONG_FILE).first().waitFor();
          await check(visitor.page, '/share/:hash');
          await visitor.page.goto(`${cabinet.server.url}/login`);
          await visitor.page.getByText(LONG_INSTANCE).first().waitFor();
          await check(visitor.page, '/login');
          await Promise.all([
            page.context().close(),
            grid.context.close(),
            visitor.context.close(),
          ]);
        }
      }
    } finally {
      await cabinet.server.updateSettings({ branding: before.branding });
    }
    expect(failures).toEqual([]);
  });
});

/** Where each character of an element's first text node is drawn (x of its box's left edge). */
function charXs(page: Page, selector: string, text: string) {
  return page.evaluate(
    ([selector, text]) => {
      const host = [...document.querySelectorAll(selector!)].find((el) => el.textContent === text);
      if (!host) return null;
      const walker = document.createTreeWalker(host, NodeFilter.SHOW_TEXT);
      const node = walker.nextNode()!;
      const xs: number[] = [];
      // Code points, so an emoji (two UTF-16 units) is one character.
      let offset = 0;
      for (const ch of text!) {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + ch.length);
        xs.push(range.getBoundingClientRect().x);
        offset += ch.length;
      }
      return xs;
    },
    [selector, text] as const,
  );
}

describe('right-to-left (Arabic)', { timeout: 180_000 }, () => {
  it('keeps names in their own direction and moves the arrows the way the eye reads', async () => {
    const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
    const root = `${cabinet.server.root}${scope}`;
    await seedFiles(root, {
      '.config/settings.bin': 'x',
      '.dotfile': '\u0000',
      '🎉party.bin': '\u0000',
      // Binary (a NUL byte), so the preview steps over them (text opens the editor).
      'a.bin': '\u0000a',
      'b.bin': '\u0000b',
      'c.bin': '\u0000c',
    });
    const user = await cabinet.server.createUser({ scope, locale: 'ar', viewMode: 'mosaic' });
    const { page } = await cabinet.tokenPage({ token: user.token, width: 1280 });
    await page.goto(`${cabinet.server.url}/files/`);
    await page.getByText('a.bin').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');

    // ".dotfile" keeps its dot in front (on the left), the emoji stays before "party".
    const dot = (await charXs(page, '.tile__name bdi', '.dotfile'))!;
    expect(dot[0]).toBeLessThan(dot[1]!);
    const party = (await charXs(page, '.tile__name bdi', '🎉party.bin'))!;
    expect(party[0]).toBeLessThan(party[1]!);

    // The grid runs from the right: ArrowLeft goes to the tile on the left, which comes next.
    const tiles = page.locator('.tile__name');
    const names = await tiles.allTextContents();
    const x = (name: string) =>
      page
        .locator('.tile')
        .filter({ hasText: name })
        .evaluate((el) => el.getBoundingClientRect().x);
    const [first, second] = [names[0]!, names[1]!];
    expect(await x(second)).toBeLessThan(await x(first));
    await tiles.first().focus();
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toBe(second);
    await page.keyboard.press('ArrowRight');
    await expect.poll(focused).toBe(first);

    // Breadcrumbs and the preview's title isolate their names too.
    await page.goto(`${cabinet.server.url}/files/.config/`);
    await page.getByText('settings.bin').first().waitFor();
    const crumb = (await charXs(page, '.breadcrumbs__link bdi', '.config'))!;
    expect(crumb[0]).toBeLessThan(crumb[1]!);

    // Preview: Next sits on the left with ArrowLeft, Previous on the right with ArrowRight.
    await page.goto(`${cabinet.server.url}/files/b.bin`);
    const title = page.locator('.preview-bar__name');
    await expect.poll(() => title.textContent()).toBe('b.bin');
    // Arabic "Next" and "Previous".
    const next = page.getByRole('button', { name: 'التالي', exact: true });
    const previous = page.getByRole('button', { name: 'السابق', exact: true });
    await next.waitFor();
    await previous.waitFor();
    const nextBox = (await next.boundingBox())!;
    const previousBox = (await previous.boundingBox())!;
    expect(nextBox.x).toBeLessThan(previousBox.x);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => title.textContent()).toBe('c.bin');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => title.textContent()).toBe('b.bin');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => title.textContent()).toBe('a.bin');
    await next.click();
    await expect.poll(() => title.textContent()).toBe('b.bin');
  });
});
