import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { loginThroughForm } from '../support/session.ts';

const cabinet = withCabinet({ files: { 'docs/': '', 'notes.txt': 'n' } });

/** Controls whose accessible name is empty (a rough check: label text, aria-label, title). */
function unnamedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea')]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => {
        const labelled = el.getAttribute('aria-labelledby');
        const name =
          el.getAttribute('aria-label') ??
          (labelled ? document.getElementById(labelled)?.textContent : null) ??
          (el instanceof HTMLInputElement || el instanceof HTMLSelectElement
            ? el.labels?.[0]?.textContent
            : el.textContent) ??
          el.getAttribute('title');
        return !name?.trim();
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

describe('accessibility', () => {
  it('names every control and works from the keyboard', async () => {
    const { page } = await cabinet.newPage();
    await page.goto(`${cabinet.server.url}/login`);
    await page.getByRole('textbox', { name: 'Username' }).waitFor();
    expect(await unnamedControls(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');

    // The form is keyboard-driven: type, tab, type, Enter.
    await page.keyboard.type('admin');
    await page.keyboard.press('Tab');
    await page.keyboard.type(cabinet.server.admin.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${cabinet.server.url}/files/`);
    const files = new FilesPage(page);
    await files.entry('docs').waitFor();
    expect(await unnamedControls(page)).toEqual([]);

    // The first Tab reaches the skip link, which moves focus to the page content.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    // The focused element shows a focus ring.
    expect(await skip.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');

    // A folder opens from the keyboard.
    await files.entry('docs').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${cabinet.server.url}/files/docs/`);

    // Help opens as a modal dialog and Esc closes it.
    const shell = new AppShell(page);
    await shell.helpButton.focus();
    await page.keyboard.press('Enter');
    const help = page.getByRole('dialog', { name: 'Help' });
    await help.getByText('rename the selected item').waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    expect(await shell.helpButton.evaluate((el) => el === document.activeElement)).toBe(true);
  });
});

describe('login with a page already logged in elsewhere', () => {
  it('shares the session between tabs of one browser', async () => {
    const { context } = await cabinet.loginPage();
    const second = await context.newPage();
    await second.goto(`${cabinet.server.url}/files/`);
    await new FilesPage(second).entry('notes.txt').waitFor();
  });
});

describe('a dialog and the route', () => {
  it('keeps a dialog opened while the next screen loads, and closes it on the next route', async () => {
    const { page } = await cabinet.newPage();
    // Hold the global settings screen's code back: the navigation to it is still rendering
    // (the address already shows it) when the user opens the help.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/GlobalSettingsPage-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await loginThroughForm(page, cabinet.server.url, 'admin', cabinet.server.admin.password);
    await page.goto(`${cabinet.server.url}/settings/profile`);
    const tabs = page.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Global settings' }).click();
    await page.waitForURL(`${cabinet.server.url}/settings/global`);
    const shell = new AppShell(page);
    await shell.helpButton.click();
    const help = page.getByRole('dialog', { name: 'Help' });
    await help.waitFor();
    release();
    await page.getByRole('heading', { name: 'Global settings', level: 1 }).waitFor();
    expect(await help.isVisible()).toBe(true);

    // Going elsewhere afterwards closes it, as any route change does.
    await page.goBack();
    await page.waitForURL(`${cabinet.server.url}/settings/profile`);
    await help.waitFor({ state: 'detached' });
  });
});
