import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withCabinet } from '../support/cabinet.ts';
import { ARTIFACTS, REPO_ROOT } from '../support/paths.ts';

// The interface in other languages: switching, right to left, the quoted Portuguese strings, long
// German and Russian words at phone and desktop widths, and the login page in the browser's
// language. Each check names the catalogue it needs and reads its strings from that file, so a
// wording change in a catalogue does not break the test.

type Catalogue = Record<string, Record<string, unknown>>;

function catalogue(code: string): Catalogue {
  const file = path.join(REPO_ROOT, 'web/src/i18n/locales', `${code}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as Catalogue;
}

function text(cat: Catalogue, key: string): string {
  const [section, name] = key.split('.') as [string, string];
  const value = cat[section]?.[name];
  if (typeof value !== 'string') throw new Error(`no string ${key}`);
  return value;
}

const en = catalogue('en');

const cabinet = withCabinet({
  files: {
    'Documents/': '',
    'Documents/reports/': '',
    'Documents/reports/q3-summary.txt': 'x'.repeat(4_300),
    'Empty/': '',
    'holiday-photos-from-the-mountains-2026.jpg': 'x'.repeat(2_400_000),
    'meeting-notes.md': '# Notes\n',
    'presentation.pdf': 'x'.repeat(830_000),
  },
  setup: async () => {
    await mkdir(ARTIFACTS, { recursive: true });
  },
});

async function signedIn(locale: string, width = 1280, admin = false): Promise<Page> {
  const user = await cabinet.server.createUser({ locale, perm: { admin } });
  const { page } = await cabinet.loginPage({
    user,
    width,
    height: width > 736 ? 800 : 844,
  });
  return page;
}

/** Waits until <html> says the page is in this language. */
/** A file or folder link of the listing, found by its name in any language. */
function entry(page: Page, name: string) {
  return page.locator('main').getByRole('link', { name, exact: true }).first();
}

async function inLanguage(page: Page, lang: string): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);
}

/**
 * Elements inside `scope` whose content is wider than their box: buttons, tabs, headers, menu
 * items, sidebar entries, dialogs. A deliberate ellipsis (overflow hidden + text-overflow) counts
 * as fitting.
 */
function overflowing(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate((root) => {
    const selectors = [
      'button',
      'a',
      'label',
      'h1',
      'h2',
      'h3',
      'th',
      '[role=columnheader]',
      '[role=menuitem]',
      '[role=tab]',
      '.tabs__tab',
      '.sidebar__item',
      'dialog',
      'header',
      'nav',
      'main',
    ].join(',');
    const found: string[] = [];
    for (const scopeEl of document.querySelectorAll(root)) {
      for (const el of [scopeEl, ...scopeEl.querySelectorAll(selectors)]) {
        if (!(el instanceof HTMLElement) || !el.matches(selectors + ',' + root)) continue;
        const style = getComputedStyle(el);
        if (style.display === 'none' || style.visibility === 'hidden') continue;
        if (el.getClientRects().length === 0 || el.clientWidth === 0) continue;
        if (el.classList.contains('visually-hidden')) continue;
        const over = el.scrollWidth - el.clientWidth;
        if (over <= 1) continue;
        if (style.overflowX === 'hidden' && style.textOverflow === 'ellipsis') continue;
        const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        found.push(`${el.tagName.toLowerCase()}.${el.className} "${label}" +${over}px`);
      }
    }
    const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    if (page > 0) found.push(`the page itself +${page}px`);
    return found;
  }, scope);
}

describe('switching the language', { timeout: 120_000 }, () => {
  it('shows German after choosing Deutsch in the profile, and English again after English', async () => {
    const de = catalogue('de');
    const page = await signedIn('en');
    await page.goto(`${cabinet.server.url}/settings/profile`);
    const language = page.getByRole('combobox', { name: text(en, 'settings.language') });
    await language.selectOption({ label: 'Deutsch' });
    await page
      .getByRole('button', { name: text(en, 'buttons.update') })
      .first()
      .click();
    await inLanguage(page, 'de');
    await page
      .getByRole('heading', { name: text(de, 'settings.profileSettings'), level: 2 })
      .waitFor();
    await page.getByRole('link', { name: text(de, 'sidebar.myFiles') }).waitFor();

    const sprache = page.getByRole('combobox', { name: text(de, 'settings.language') });
    await sprache.selectOption({ label: 'English' });
    await page
      .getByRole('button', { name: text(de, 'buttons.update') })
      .first()
      .click();
    await inLanguage(page, 'en');
    await page
      .getByRole('heading', { name: text(en, 'settings.profileSettings'), level: 2 })
      .waitFor();
    await page.getByRole('link', { name: text(en, 'sidebar.myFiles') }).waitFor();
  });
});

describe('Arabic (ar catalogue)', { timeout: 120_000 }, () => {
  it('renders right to left with the sidebar on the right and paths and sizes readable', async () => {
    const ar = catalogue('ar');
    const page = await signedIn('ar');
    await inLanguage(page, 'ar');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.goto(`${cabinet.server.url}/files/Documents/reports/`);
    await entry(page, 'q3-summary.txt').waitFor();

    const sidebar = await page.locator('.sidebar').boundingBox();
    const main = await page.locator('main').boundingBox();
    expect(sidebar && main).toBeTruthy();
    expect(sidebar!.x).toBeGreaterThan(main!.x);

    // The breadcrumbs run right to left (home rightmost), each folder name kept whole.
    const crumbs = page.getByRole('navigation', { name: text(ar, 'files.breadcrumbs') });
    const home = await crumbs.getByRole('link', { name: text(ar, 'files.home') }).boundingBox();
    const documents = crumbs.getByRole('link', { name: 'Documents' });
    const reports = await crumbs.getByRole('link', { name: 'reports' }).boundingBox();
    expect(home!.x).toBeGreaterThan((await documents.boundingBox())!.x);
    expect((await documents.boundingBox())!.x).toBeGreaterThan(reports!.x);
    expect(await documents.evaluate((el) => getComputedStyle(el).unicodeBidi)).toBe('isolate');

    // A size reads "4.2 KiB" left to right inside the Arabic row.
    const size = page.locator('main .bidi-ltr').first();
    expect(await size.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    expect(await size.textContent()).toMatch(/^[\d٠-٩][\d٠-٩.,٫]* KiB$/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'i18n-ar-files-1280.png') });

    // A dialog is mirrored too.
    await page
      .locator('.sidebar')
      .getByRole('button', { name: text(ar, 'sidebar.newFolder') })
      .click();
    const dialog = page.getByRole('dialog', { name: text(ar, 'dialogs.newDirTitle') });
    await dialog.waitFor();
    expect(await dialog.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await overflowing(page, 'dialog[open]')).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'i18n-ar-dialog-1280.png') });
  });

  it('keeps the layout mirrored on a phone', async () => {
    const page = await signedIn('ar', 390);
    await inLanguage(page, 'ar');
    await entry(page, 'Documents').waitFor();
    expect(await overflowing(page)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'i18n-ar-files-390.png') });
  });
});

describe('Brazilian Portuguese (pt-br catalogue)', { timeout: 60_000 }, () => {
  it('says "Não existe nada aqui." in an empty folder', async () => {
    expect(text(catalogue('pt-br'), 'files.empty')).toBe('Não existe nada aqui.');
    const page = await signedIn('pt-br');
    await inLanguage(page, 'pt-br');
    await page.goto(`${cabinet.server.url}/files/Empty/`);
    try {
      await page.getByText('Não existe nada aqui.').waitFor();
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS, 'i18n-pt-br-empty.png') });
    }
  });
});

describe.each(['de', 'ru'])('long words (%s catalogue)', (code) => {
  it.each([1280, 390])(
    'nothing overflows its box at %i px',
    { timeout: 120_000 },
    async (width) => {
      const cat = catalogue(code);
      const page = await signedIn(code, width, true);
      await inLanguage(page, code);
      await entry(page, 'Documents').waitFor();
      expect(await overflowing(page), 'files screen').toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `i18n-${code}-files-${width}.png`) });

      if (width <= 736) {
        await page.getByRole('button', { name: text(cat, 'layout.toggleSidebar') }).click();
        await page.locator('.sidebar[data-open="true"]').waitFor();
        expect(await overflowing(page, '.sidebar'), 'sidebar drawer').toEqual([]);
        await page.keyboard.press('Escape');
      }

      for (const tab of ['profile', 'global', 'users']) {
        await page.goto(`${cabinet.server.url}/settings/${tab}`);
        await page.locator('.tabs').waitFor();
        await page.waitForLoadState('networkidle');
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        // Lazy parts may still settle after the network is idle: wait for a layout that fits.
        await expect.poll(() => overflowing(page), { message: `settings ${tab}` }).toEqual([]);
        if (tab === 'global') {
          await page.screenshot({
            path: path.join(ARTIFACTS, `i18n-${code}-settings-${width}.png`),
            fullPage: true,
          });
        }
      }

      await page.goto(`${cabinet.server.url}/files/`);
      await entry(page, 'Documents').waitFor();
      if (width > 736) {
        await page
          .locator('.sidebar')
          .getByRole('button', { name: text(cat, 'sidebar.newFolder') })
          .click();
      } else {
        await page.getByRole('button', { name: text(cat, 'layout.toggleSidebar') }).click();
        await page
          .locator('.sidebar[data-open="true"]')
          .getByRole('button', { name: text(cat, 'sidebar.newFolder') })
          .click();
      }
      await page.getByRole('dialog', { name: text(cat, 'dialogs.newDirTitle') }).waitFor();
      expect(await overflowing(page, 'dialog[open]'), 'new folder dialog').toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, `i18n-${code}-dialog-${width}.png`) });
    },
  );
});

describe('the login page (fr catalogue)', { timeout: 60_000 }, () => {
  it('follows a French browser', async () => {
    const fr = catalogue('fr');
    const { page } = await cabinet.newPage({ locale: 'fr-FR' });
    await page.goto(`${cabinet.server.url}/login`);
    await inLanguage(page, 'fr');
    await page.getByRole('textbox', { name: text(fr, 'login.username') }).waitFor();
    await page.getByRole('button', { name: text(fr, 'login.submit') }).waitFor();
  });
});
