import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestUser } from '@cabinet/server/testing';
import { AppShell } from '../pages/app-shell.ts';
import { withCabinet } from '../support/cabinet.ts';
import { routeOf } from '../support/session.ts';

let member: TestUser;
const cabinet = withCabinet({
  setup: async (server) => {
    member = await server.createUser({ username: 'member', perm: { create: false } });
  },
});

async function pageAs(user: TestUser | 'admin' | null): Promise<Page> {
  if (!user) return (await cabinet.newPage()).page;
  return (await cabinet.loginPage(user === 'admin' ? {} : { user })).page;
}

describe('a non-admin', () => {
  it.each(['/settings/global', '/settings/users', '/settings/users/new', '/settings/users/1'])(
    'visiting %s lands on /403',
    async (route) => {
      const page = await pageAs(member);
      await page.goto(`${cabinet.server.url}${route}`);
      await page.waitForURL(`${cabinet.server.url}/403`);
      const shell = new AppShell(page);
      expect(await shell.errorHeading().textContent()).toBe(
        "You don't have permissions to access this.",
      );
      await expect.poll(() => page.title()).toBe('Forbidden - Cabinet');
    },
  );

  it('reaches profile settings from /settings, without the admin tab bar', async () => {
    const page = await pageAs(member);
    await new AppShell(page).settings.click();
    await page.waitForURL(`${cabinet.server.url}/settings/profile`);
    await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();
    expect(await page.getByRole('link', { name: 'Global settings' }).count()).toBe(0);
    await expect.poll(() => page.title()).toBe('Profile settings - Cabinet');
  });

  it('sees no New folder or New file without the create permission', async () => {
    const page = await pageAs(member);
    const shell = new AppShell(page);
    await shell.myFiles.waitFor();
    expect(await shell.newFolder.count()).toBe(0);
    expect(await shell.newFile.count()).toBe(0);
    expect(await shell.logoutButton.isVisible()).toBe(true);
  });
});

describe('an admin', () => {
  it('sees the settings tab bar and every settings screen', async () => {
    const page = await pageAs('admin');
    const shell = new AppShell(page);
    await shell.newFolder.waitFor();
    await page.goto(`${cabinet.server.url}/settings`);
    await page.waitForURL(`${cabinet.server.url}/settings/profile`);
    const tabs = page.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Global settings' }).click();
    await page.getByRole('heading', { name: 'Global settings', level: 1 }).waitFor();
    await expect.poll(() => page.title()).toBe('Global settings - Cabinet');
    await tabs.getByRole('link', { name: 'User management' }).click();
    await page.getByRole('heading', { name: 'User management', level: 1 }).waitFor();
    await page.goto(`${cabinet.server.url}/settings/users/new`);
    await page.getByRole('heading', { name: 'New User', level: 1 }).waitFor();
  });
});

describe('routes', () => {
  it('redirects / and /files to /files/ (via login when logged out)', async () => {
    const page = await pageAs('admin');
    await page.goto(`${cabinet.server.url}/`);
    await page.waitForURL(`${cabinet.server.url}/files/`);
    await page.goto(`${cabinet.server.url}/files`);
    await page.waitForURL(`${cabinet.server.url}/files/`);
  });

  it('takes an unknown path as a path inside the files', async () => {
    const page = await pageAs(null);
    await page.goto(`${cabinet.server.url}/some/where`);
    await page.waitForURL(/\/login\?/);
    expect(routeOf(page, cabinet.server.url)).toBe(
      `/login?redirect=${encodeURIComponent('/files/some/where')}`,
    );
  });

  it.each([
    ['/403', "You don't have permissions to access this.", 'Forbidden'],
    ['/404', "This location can't be reached.", 'Not Found'],
    ['/500', 'Something really went wrong.', 'Internal Error'],
  ])('shows the %s page to anyone', async (route, message, title) => {
    const page = await pageAs(null);
    await page.goto(`${cabinet.server.url}${route}`);
    const shell = new AppShell(page);
    expect(await shell.errorHeading().textContent()).toBe(message);
    await expect.poll(() => page.title()).toBe(`${title} - Cabinet`);
    expect(await shell.loginLink.isVisible()).toBe(true);
    expect(await shell.logoutButton.count()).toBe(0);
  });
});
