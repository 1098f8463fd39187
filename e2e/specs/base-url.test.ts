import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestServer } from '@cabinet/server/testing';
import { AppShell } from '../pages/app-shell.ts';
import { LoginPage } from '../pages/login-page.ts';
import { launchBrowser, newPage } from '../support/browser.ts';
import { routeOf, storedToken } from '../support/session.ts';
import { startAppServer } from '../support/servers.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startAppServer({ config: { baseURL: '/fb' } });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('under the base URL /fb', () => {
  it('routes, logs in, loads lazy screens and logs out with every URL under /fb', async () => {
    expect(server.url).toMatch(/\/fb$/);
    const { context, page, consoleErrors } = await newPage(browser);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    try {
      await page.goto(`${server.url}/settings/profile`);
      await page.waitForURL(/\/fb\/login\?redirect=/);
      expect(routeOf(page, server.url)).toBe(
        `/login?redirect=${encodeURIComponent('/settings/profile')}`,
      );
      await new LoginPage(page).login('admin', server.admin.password);
      // The settings screens are separate chunks: they must load from /fb/static/.
      await page.waitForURL(`${server.url}/settings/profile`);
      await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();

      const cookie = (await context.cookies()).find((c) => c.name === 'auth');
      expect(cookie?.path).toBe('/fb/');
      expect(cookie?.value).toBe(await storedToken(page));
      expect(cookie?.sameSite).toBe('Strict');

      const shell = new AppShell(page);
      await shell.myFiles.click();
      await page.waitForURL(`${server.url}/files/`);
      await shell.logout();
      await page.waitForURL(`${server.url}/login`);

      const outside = requests.filter((p) => !p.startsWith('/fb/'));
      expect(outside).toEqual([]);
      expect(requests.some((p) => /^\/fb\/static\/assets\/.+\.js$/.test(p))).toBe(true);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
