import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { ShellPanel } from '../pages/shell-panel.ts';
import { withCabinet } from '../support/cabinet.ts';
import { loginThroughForm } from '../support/session.ts';
import { seedFiles } from '../support/servers.ts';

/** Issue #28's first steps of an admin (and of the people they create), items 5–8. */
const cabinet = withCabinet({
  files: { 'work/a.txt': 'a', 'work/b.txt': 'b' },
  server: { config: { enableExec: true } },
});

const STRONG = 'a-long-enough-unusual-passphrase';

/** Whether the element is wholly inside the viewport (not scrolled away, not under the fold). */
async function isInView(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.y >= 0 && box.y + box.height <= viewport.height;
}

/** The error notifications on screen. */
const errorToasts = (page: Page) => new AppShell(page).notifications.getByRole('alert');

describe('a taken username', () => {
  it('is said once, next to the field, brought into view with the field focused', async () => {
    await cabinet.server.createUser({ username: 'already-here' });
    const { page } = await cabinet.loginPage({ width: 1280, height: 600 });
    const ui = new SettingsPages(page);
    await ui.goto(cabinet.server.url, 'users/new');
    await ui.username.fill('already-here');
    await ui.password.fill(STRONG);
    await ui.yourPassword.fill(cabinet.server.admin.password);
    // Save is at the end of a long form: the username field is out of view when it is pressed.
    await ui.save.scrollIntoViewIfNeeded();
    expect(await isInView(page, ui.username)).toBe(false);
    await ui.save.click();

    const message = page.getByText('Username already taken');
    await message.waitFor();
    await expect.poll(() => ui.username.getAttribute('aria-invalid')).toBe('true');
    await expect
      .poll(() => ui.username.evaluate((input) => input === document.activeElement))
      .toBe(true);
    await expect.poll(() => isInView(page, ui.username)).toBe(true);
    expect(await isInView(page, message)).toBe(true);
    // One message: no notification besides, and none in the file-system words.
    expect(await errorToasts(page).count()).toBe(0);
    expect(await page.getByText('An item with this name already exists there.').count()).toBe(0);
    expect(await cabinet.server.ctx.store.users.byUsername('already-here')).toBeDefined();
  });
});

describe('Delete without the delete permission', () => {
  it('says why nothing is deleted, once however often it is pressed', async () => {
    const scope = `/scopes/no-delete`;
    await seedFiles(`${cabinet.server.root}${scope}`, { 'keep.txt': 'k' });
    const user = await cabinet.server.createUser({
      viewMode: 'list',
      scope,
      perm: { delete: false },
    });
    const { page } = await cabinet.newPage();
    await loginThroughForm(page, cabinet.server.url, user.user.username, user.password);
    const files = new FilesPage(page);
    await files.entry('keep.txt').click();
    await page.keyboard.press('Delete');
    const toast = errorToasts(page).filter({
      hasText: "You don't have permission to delete files and folders.",
    });
    await toast.waitFor();
    await page.keyboard.press('Delete');
    expect(await toast.count()).toBe(1);
    expect(await page.getByRole('dialog', { name: 'Delete' }).count()).toBe(0);
    await files.entry('keep.txt').waitFor();
  });
});

describe('the command runs list', () => {
  it('names a hook’s event in words, not as its code', async () => {
    await cabinet.server.updateSettings({ commands: { after_upload: ['true'] } });
    try {
      const response = await cabinet.server.fetch('/api/resources/work/hooked.txt?override=true', {
        method: 'POST',
        body: 'hooked',
        token: cabinet.server.admin.token,
      });
      expect(response.status).toBe(200);
      const ops = await cabinet.open('');
      await ops.page.goto(`${cabinet.server.url}/settings/commands`);
      const row = ops.page
        .getByRole('table')
        .getByRole('row')
        .filter({ hasText: '/work/hooked.txt' });
      await row.first().waitFor();
      const cells = await row.first().getByRole('cell').allTextContents();
      expect(cells[2]).toBe('After upload');
      expect(await ops.page.getByText('after_upload').count()).toBe(0);
    } finally {
      await cabinet.server.updateSettings({ commands: {} });
    }
  });
});

describe('a fresh administrator in the shell panel', () => {
  it('is told where commands are allowed and can allow the refused one from there', async () => {
    const admin = cabinet.server.admin;
    expect((await cabinet.server.ctx.store.users.byId(admin.user.id))?.commands).toEqual([]);
    const ops = await cabinet.open('work/');
    const shell = new ShellPanel(ops.page);
    await shell.open();

    // The empty panel says none is allowed yet, and where that is set.
    await shell.output.getByText('You may not run any command yet.', { exact: false }).waitFor();
    const link = shell.output.getByRole('link', { name: 'Open my user settings' });
    expect(await link.getAttribute('href')).toBe(`/settings/users/${admin.user.id}`);

    await shell.run('ls');
    await shell.waitForLine('"ls" is not one of the commands you may run.');
    const allow = shell.output.getByRole('button', { name: 'Allow “ls” for me' });
    await allow.waitFor();
    await shell.output.getByText(/in the user's Commands field/).waitFor();

    // The server asks for the admin's own password; an empty field is "required".
    await allow.click();
    await shell.output.getByText('Enter your password to confirm.').waitFor();
    await shell.output.getByLabel('Your password').fill(admin.password);
    await allow.click();
    await shell.waitForLine('“ls” is now one of your commands. Press Enter to run it again.');
    expect((await cabinet.server.ctx.store.users.byId(admin.user.id))?.commands).toEqual(['ls']);
    await expect.poll(() => shell.input.inputValue()).toBe('ls');
    expect(await allow.count()).toBe(0);

    await shell.input.press('Enter');
    await shell.waitForLine('b.txt');
  });

  it('tells a user without commands to ask an administrator, with nothing to press', async () => {
    const user = await cabinet.server.createUser({ commands: [], perm: { execute: true } });
    const ops = await cabinet.open('', { token: user.token });
    const shell = new ShellPanel(ops.page);
    await shell.open();
    await shell.output.getByText(/Ask an administrator to add the commands you need/).waitFor();
    await shell.run('ls');
    await shell.waitForLine('"ls" is not one of the commands you may run.');
    await shell.output.getByText(/in the user's Commands field/).waitFor();
    expect(await shell.output.getByRole('button').count()).toBe(0);
    expect(await shell.output.getByRole('link').count()).toBe(0);
  });
});
