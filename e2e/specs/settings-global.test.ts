import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '@cabinet/server/testing';
import { withCabinet } from '../support/cabinet.ts';
import { startAppServer } from '../support/servers.ts';
import { loginThroughForm } from '../support/session.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet();
// A second server, with the command runner, for the screens it adds: the fixture's server runs
// without it, which the first test checks.
let execServer: TestServer;
let branding: string;

beforeAll(async () => {
  execServer = await startAppServer({ config: { enableExec: true } });
  branding = await mkdtemp(path.join(os.tmpdir(), 'cabinet-branding-'));
  await mkdir(path.join(branding, 'img'));
  await writeFile(
    path.join(branding, 'img/logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="orange"/></svg>',
  );
  await writeFile(path.join(branding, 'custom.css'), 'body { outline: 3px solid rgb(255, 0, 0); }');
});

afterAll(async () => {
  await execServer?.close();
  if (branding) await rm(branding, { recursive: true, force: true });
});

describe('global settings', { timeout: 180_000 }, () => {
  it('saves theme, name and branding folder; every page shows them to other users', async () => {
    const admin = await cabinet.loginPage();
    const visitor = await cabinet.newPage();
    const user = await cabinet.server.createUser();
    const before = await cabinet.server.ctx.settings.get();
    try {
      await new SettingsPages(admin.page).goto(cabinet.server.url, 'global');
      const card = admin.page.getByRole('form', { name: 'Global settings' });
      await card.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Dark' });
      await card.getByRole('textbox', { name: 'Instance name' }).fill('Team Drive');
      await card.getByRole('textbox', { name: 'Branding directory path' }).fill(branding);
      // Without the command runner there is no shell field and no third card.
      expect(await card.getByRole('textbox', { name: 'Shell' }).count()).toBe(0);
      expect(await admin.page.getByRole('heading', { name: 'Command runner' }).count()).toBe(0);
      await card.getByRole('button', { name: 'Update' }).click();
      await waitForNotice(admin.page, 'Settings updated!');
      const saved = await cabinet.server.ctx.settings.get();
      expect(saved.branding).toMatchObject({ theme: 'dark', name: 'Team Drive', files: branding });
      expect(saved.defaults).toEqual(before.defaults);

      // Another visitor: the login page already has them, and so do the pages after it.
      await visitor.page.goto(`${cabinet.server.url}/login`);
      await visitor.page.getByRole('heading', { name: 'Team Drive' }).waitFor();
      const looks = () =>
        visitor.page.evaluate(() => ({
          theme: document.documentElement.dataset.theme,
          outline: getComputedStyle(document.body).outlineColor,
          logo: document.querySelector('img.logo')?.getAttribute('src'),
          title: document.title,
        }));
      expect(await looks()).toMatchObject({
        theme: 'dark',
        outline: 'rgb(255, 0, 0)',
        logo: '/static/img/logo.svg',
        title: 'Login - Team Drive',
      });
      const logo = await visitor.page.request.get(`${cabinet.server.url}/static/img/logo.svg`);
      expect(await logo.text()).toContain('orange');
      await loginThroughForm(visitor.page, cabinet.server.url, user.user.username, user.password);
      await visitor.page.getByRole('banner').locator('img.logo').waitFor();
      expect(await looks()).toMatchObject({ theme: 'dark', outline: 'rgb(255, 0, 0)' });
    } finally {
      await cabinet.server.updateSettings({ branding: before.branding });
    }
  });

  it('saves the defaults for new users from the second card', async () => {
    const { page } = await cabinet.loginPage();
    await new SettingsPages(page).goto(cabinet.server.url, 'global');
    const card = page.getByRole('form', { name: 'User default settings' });
    await card.getByRole('textbox', { name: 'Scope' }).fill('/shared');
    await card.getByRole('checkbox', { name: 'Share files' }).uncheck();
    await card.getByRole('checkbox', { name: 'Delete files and directories' }).uncheck();
    expect(await card.getByRole('textbox', { name: 'Username' }).count()).toBe(0);
    expect(await card.getByRole('checkbox', { name: /Prevent the user/ }).count()).toBe(0);
    await card.getByRole('button', { name: 'Update' }).click();
    await waitForNotice(page, 'Settings updated!');
    const { defaults } = await cabinet.server.ctx.settings.get();
    expect(defaults.scope).toBe('/shared');
    expect(defaults.perm).toMatchObject({ share: false, delete: false, create: true });

    // The new-user screen starts from them.
    await new SettingsPages(page).goto(cabinet.server.url, 'users/new');
    await expect.poll(() => new SettingsPages(page).scope.inputValue()).toBe('/shared');
    expect(await new SettingsPages(page).perm('Share files').isChecked()).toBe(false);
  });

  it('with the command runner: splits the shell on spaces and each event on lines', async () => {
    const { page } = await cabinet.newPage();
    await loginThroughForm(page, execServer.url, 'admin', execServer.admin.password);
    await new SettingsPages(page).goto(execServer.url, 'global');
    const general = page.getByRole('form', { name: 'Global settings' });
    await general.getByRole('textbox', { name: 'Shell' }).fill('  bash   -c ');
    await general.getByRole('button', { name: 'Update' }).click();
    await waitForNotice(page, 'Settings updated!');
    await expect
      .poll(async () => (await execServer.ctx.settings.get()).shell)
      .toEqual(['bash', '-c']);

    const runner = page.getByRole('form', { name: 'Command runner' });
    await runner.getByText('Before Copy').click();
    await runner.getByRole('textbox', { name: 'Before Copy' }).fill('  echo one \n\n echo two');
    await runner.getByRole('button', { name: 'Update' }).click();
    await expect
      .poll(async () => (await execServer.ctx.settings.get()).commands.before_copy)
      .toEqual(['echo one', 'echo two']);

    // The user form offers the execute box and the commands line.
    const ui = new SettingsPages(page);
    await ui.goto(execServer.url, 'users/new');
    await ui.perm('Execute commands').waitFor();
    await page.getByRole('textbox', { name: 'Commands' }).waitFor();
  });
});
