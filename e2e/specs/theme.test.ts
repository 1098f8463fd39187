import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();

async function setTheme(theme: string): Promise<void> {
  const settings = await cabinet.server.ctx.settings.get();
  await cabinet.server.updateSettings({ branding: { ...settings.branding, theme } });
}

async function looks(page: Page) {
  return page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    background: getComputedStyle(document.body).backgroundColor,
    text: getComputedStyle(document.body).color,
  }));
}

describe('theme', () => {
  it('applies the dark theme from the branding settings, and light otherwise', async () => {
    const { page } = await cabinet.newPage();
    try {
      await setTheme('');
      await page.goto(`${cabinet.server.url}/login`);
      await page.getByRole('button', { name: 'Login' }).waitFor();
      const light = await looks(page);
      expect(light.theme).toBe('light');

      await setTheme('dark');
      await page.reload();
      await page.getByRole('button', { name: 'Login' }).waitFor();
      const dark = await looks(page);
      expect(dark.theme).toBe('dark');
      expect(dark.background).not.toBe(light.background);
      expect(dark.text).not.toBe(light.text);
    } finally {
      await setTheme('');
    }
  });

  it('shows the branding name in the title and on the login card', async () => {
    const { page } = await cabinet.newPage();
    const settings = await cabinet.server.ctx.settings.get();
    try {
      await cabinet.server.updateSettings({
        branding: { ...settings.branding, name: 'Team Drive' },
      });
      await page.goto(`${cabinet.server.url}/login`);
      await page.getByRole('heading', { name: 'Team Drive' }).waitFor();
      await expect.poll(() => page.title()).toBe('Login - Team Drive');
    } finally {
      await cabinet.server.updateSettings({ branding: settings.branding });
    }
  });
});
