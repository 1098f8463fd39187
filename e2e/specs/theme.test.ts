import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { TestServer } from '@cabinet/server/testing';
import { launchBrowser, newPage } from '../support/browser.ts';
import { startAppServer } from '../support/servers.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startAppServer();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function setTheme(theme: string): Promise<void> {
  const settings = await server.ctx.settings.get();
  await server.updateSettings({ branding: { ...settings.branding, theme } });
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
    const { context, page } = await newPage(browser);
    try {
      await setTheme('');
      await page.goto(`${server.url}/login`);
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
      await context.close();
      await setTheme('');
    }
  });

  it('shows the branding name in the title and on the login card', async () => {
    const { context, page } = await newPage(browser);
    const settings = await server.ctx.settings.get();
    try {
      await server.updateSettings({ branding: { ...settings.branding, name: 'Team Drive' } });
      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: 'Team Drive' }).waitFor();
      await expect.poll(() => page.title()).toBe('Login - Team Drive');
    } finally {
      await context.close();
      await server.updateSettings({ branding: settings.branding });
    }
  });
});
