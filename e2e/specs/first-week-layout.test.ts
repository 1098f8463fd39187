import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withCabinet } from '../support/cabinet.ts';
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
