import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer, TestUser } from '@cabinet/server/testing';
import { AppShell } from '../pages/app-shell.ts';
import { launchBrowser, newPage } from '../support/browser.ts';
import { loginThroughForm, routeOf } from '../support/session.ts';
import { startAppServer } from '../support/servers.ts';

let browser: Browser;
let server: TestServer;
let member: TestUser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startAppServer();
  member = await server.createUser({ username: 'member', perm: { create: false } });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

async function pageAs(user: { username: string; password: string } | null): Promise<Page> {
  ({ context, page } = await newPage(browser));
  if (user) await loginThroughForm(page, server.url, user.username, user.password);
  return page;
}

describe('a non-admin', () => {
  it.each(['/settings/global', '/settings/users', '/settings/users/new', '/settings/users/1'])(
    'visiting %s lands on /403',
    async (route) => {
      const page = await pageAs({ username: 'member', password: member.password });
      await page.goto(`${server.url}${route}`);
      await page.waitForURL(`${server.url}/403`);
      const shell = new AppShell(page);
      expect(await shell.errorHeading().textContent()).toBe(
        "You don't have permissions to access this.",
      );
      await expect.poll(() => page.title()).toBe('Forbidden - Cabinet');
    },
  );

  it('reaches profile settings from /settings, without the admin tab bar', async () => {
    const page = await pageAs({ username: 'member', password: member.password });
    await new AppShell(page).settings.click();
    await page.waitForURL(`${server.url}/settings/profile`);
    await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();
    expect(await page.getByRole('link', { name: 'Global settings' }).count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Profile settings - Cabinet');
  });

  it('sees no New folder or New file without the create permission', async () => {
    const page = await pageAs({ username: 'member', password: member.password });
    const shell = new AppShell(page);
    await shell.myFiles.waitFor();
    expect(await shell.newFolder.count()).toBe(0);
    expect(await shell.newFile.count()).toBe(0);
    expect(await shell.logoutButton.isVisible()).toBe(true);
  });
});

describe('an admin', () => {
  it('sees the settings tab bar and every settings screen', async () => {
    const page = await pageAs({ username: 'admin', password: server.admin.password });
    const shell = new AppShell(page);
    await shell.newFolder.waitFor();
    await page.goto(`${server.url}/settings`);
    await page.waitForURL(`${server.url}/settings/profile`);
    const tabs = page.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Global settings' }).click();
    await page.getByRole('heading', { name: 'Global settings', level: 1 }).waitFor();
    await expect.poll(() => page.title()).toBe('Global settings - Cabinet');
    await tabs.getByRole('link', { name: 'User management' }).click();
    await page.getByRole('heading', { name: 'User management', level: 1 }).waitFor();
    await page.goto(`${server.url}/settings/users/new`);
    await page.getByRole('heading', { name: 'New User', level: 1 }).waitFor();
  });
});

describe('routes', () => {
  it('redirects / and /files to /files/ (via login when logged out)', async () => {
    const page = await pageAs({ username: 'admin', password: server.admin.password });
    await page.goto(`${server.url}/`);
    await page.waitForURL(`${server.url}/files/`);
    await page.goto(`${server.url}/files`);
    await page.waitForURL(`${server.url}/files/`);
  });

  it('takes an unknown path as a path inside the files', async () => {
    const page = await pageAs(null);
    await page.goto(`${server.url}/some/where`);
    await page.waitForURL(/\/login\?/);
    expect(routeOf(page, server.url)).toBe(
      `/login?redirect=${encodeURIComponent('/files/some/where')}`,
    );
  });

  it.each([
    ['/403', "You don't have permissions to access this.", 'Forbidden'],
    ['/404', "This location can't be reached.", 'Not Found'],
    ['/500', 'Something really went wrong.', 'Internal Error'],
  ])('shows the %s page to anyone', async (route, message, title) => {
    const page = await pageAs(null);
    await page.goto(`${server.url}${route}`);
    const shell = new AppShell(page);
    expect(await shell.errorHeading().textContent()).toBe(message);
    await expect.poll(() => page.title()).toBe(`${title} - Cabinet`);
    expect(await shell.loginLink.isVisible()).toBe(true);
    expect(await shell.logoutButton.count()).toBe(0);
  });
});
