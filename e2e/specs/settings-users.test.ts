import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { loginThroughForm, routeOf } from '../support/session.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { FilesPage } from '../pages/files-page.ts';
import { AppShell } from '../pages/app-shell.ts';

const STRONG = 'a-long-enough-unusual-passphrase';

const cabinet = withCabinet({
  files: {
    'team/notes.txt': 'notes',
    'team/secret/plan.txt': 'plan',
    'team/public/readme.txt': 'hello',
  },
});

describe('user management', { timeout: 180_000 }, () => {
  it('creates a restricted user who then sees only the allowed buttons, edits and deletes it', async () => {
    const admin = await cabinet.loginPage();
    const other = await cabinet.newPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, 'users');
    await admin.page.getByRole('link', { name: 'New user' }).click();
    await admin.page.getByRole('heading', { name: 'New User' }).waitFor();
    await ui.username.fill('restricted');
    await ui.password.fill(STRONG);
    await ui.scope.fill('/team');
    for (const label of ['Create files and directories', 'Delete files and directories']) {
      await ui.perm(label).uncheck();
    }
    for (const label of ['Download', 'Share files', 'Edit files']) await ui.perm(label).uncheck();
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.save.click();
    await ui.message('User created!').waitFor();
    await admin.page.getByRole('heading', { name: 'User restricted' }).waitFor();
    const created = await cabinet.server.ctx.store.users.byUsername('restricted');
    expect(routeOf(admin.page, cabinet.server.url)).toBe(`/settings/users/${created!.id}`);
    expect(created!.perm).toMatchObject({ create: false, delete: false, rename: true });

    // The user sees what they may do, and nothing else.
    await loginThroughForm(other.page, cabinet.server.url, 'restricted', STRONG);
    const files = new FilesPage(other.page);
    await files.entry('notes.txt').waitFor();
    await expect.poll(() => other.page.getByRole('button', { name: 'Upload' }).count()).toBe(0);
    expect(await other.page.getByRole('button', { name: 'Download' }).count()).toBe(0);
    expect(await other.page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
    await files.entry('notes.txt').click();
    await other.page.getByRole('button', { name: 'Rename' }).waitFor();
    expect(await other.page.getByRole('button', { name: 'Delete' }).count()).toBe(0);
    expect(await other.page.getByRole('button', { name: 'Copy' }).count()).toBe(0);

    // Edit: grant delete; blank password keeps the old one.
    await expect
      .poll(() => ui.password.getAttribute('placeholder'))
      .toBe('(leave blank to avoid changes)');
    await ui.perm('Delete files and directories').check();
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.save.click();
    await ui.message('User updated!').waitFor();
    await expect
      .poll(
        async () => (await cabinet.server.ctx.store.users.byUsername('restricted'))?.perm.delete,
      )
      .toBe(true);
    await other.page.reload();
    await files.entry('notes.txt').click();
    await other.page.getByRole('button', { name: 'Delete' }).waitFor();

    // Delete, with the confirmation.
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.deleteUser.click();
    const dialog = admin.page.getByRole('dialog', { name: 'Delete user' });
    await dialog.getByText('Are you sure you want to delete this user?').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await cabinet.server.ctx.store.users.byUsername('restricted')).toBeDefined();
    await ui.deleteUser.click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await ui.message('User deleted!').waitFor();
    await admin.page.waitForURL((url) => url.pathname.endsWith('/settings/users'));
    expect(await cabinet.server.ctx.store.users.byUsername('restricted')).toBeUndefined();
  });

  it('asks for the admin’s password in the delete confirmation: empty is required, wrong is incorrect', async () => {
    const target = await cabinet.server.createUser({ username: 'to-be-deleted' });
    const admin = await cabinet.loginPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, `users/${target.user.id}`);
    await ui.deleteUser.click();
    const dialog = admin.page.getByRole('dialog', { name: 'Delete user' });
    const password = dialog.getByLabel('Your password', { exact: true });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByText('Enter your password to confirm.').waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect(await admin.page.getByText('The current password is incorrect.').count()).toBe(0);
    await password.fill('not my password at all');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByText('This is not your current password.').waitFor();
    expect(await cabinet.server.ctx.store.users.byId(target.user.id)).toBeDefined();
    await password.fill(cabinet.server.admin.password);
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await ui.message('User deleted!').waitFor();
    expect(await cabinet.server.ctx.store.users.byId(target.user.id)).toBeUndefined();
  });

  it('shows the server’s refusals on the fields they concern', async () => {
    const taken = await cabinet.server.createUser({ username: 'taken-name' });
    const admin = await cabinet.loginPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, 'users/new');
    await ui.username.fill('taken-name');
    await ui.password.fill(STRONG);
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.save.click();
    await expect.poll(() => ui.username.getAttribute('aria-invalid')).toBe('true');
    await ui.message('Username already taken').waitFor();

    await ui.username.fill('fresh-name');
    await ui.password.fill('short');
    await ui.save.click();
    await ui.message(/This password is too short: use at least 12 characters/).waitFor();
    expect(await ui.password.getAttribute('aria-invalid')).toBe('true');

    await ui.password.fill(STRONG);
    await ui.yourPassword.fill('not my password at all');
    await ui.save.click();
    await ui.message('This is not your current password.').waitFor();
    expect(await ui.yourPassword.getAttribute('aria-invalid')).toBe('true');
    // Each refusal was said on its field only, with no notification besides.
    expect(await new AppShell(admin.page).notifications.getByRole('alert').count()).toBe(0);
    expect(await cabinet.server.ctx.store.users.byUsername('fresh-name')).toBeUndefined();

    // The last administrator keeps the Administrator permission.
    await ui.goto(cabinet.server.url, `users/${cabinet.server.admin.user.id}`);
    await ui.perm('Administrator').uncheck();
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.save.click();
    await ui
      .message('This is the last administrator: it must keep the Administrator permission.')
      .waitFor();
    expect(
      (await cabinet.server.ctx.store.users.byId(cabinet.server.admin.user.id))?.perm.admin,
    ).toBe(true);
    expect(taken.user.id).toBeGreaterThan(0);
  });

  it('Administrator turns on and locks every permission and lock-password', async () => {
    const admin = await cabinet.loginPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, 'users/new');
    await ui.perm('Share files').uncheck();
    await ui.lockPassword.check();
    await ui.perm('Administrator').check();
    for (const label of ['Create files and directories', 'Share files', 'Download']) {
      expect(await ui.perm(label).isChecked()).toBe(true);
      expect(await ui.perm(label).isDisabled()).toBe(true);
    }
    expect(await ui.lockPassword.isChecked()).toBe(false);
    expect(await ui.lockPassword.isDisabled()).toBe(true);
    // No execute box while the cabinet.server does not run commands.
    expect(await ui.perm('Execute commands').count()).toBe(0);
    await ui.perm('Administrator').uncheck();
    expect(await ui.perm('Share files').isDisabled()).toBe(false);
    expect(await ui.perm('Share files').isChecked()).toBe(true);
  });

  it('rules from the editor hide a folder from the user’s listing and make it unreachable by URL', async () => {
    const user = await cabinet.server.createUser({ username: 'ruled', scope: '/team' });
    const admin = await cabinet.loginPage();
    const other = await cabinet.newPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, `users/${user.user.id}`);
    await admin.page.getByRole('button', { name: 'New', exact: true }).click();
    await ui.rule(1).path.fill('/secret');
    await ui.rule(1).path.press('Enter'); // suppressed: nothing is submitted
    await ui.rule(1).allow.uncheck();
    // An invalid pattern is marked on its row before saving.
    await admin.page.getByRole('button', { name: 'New', exact: true }).click();
    await ui.rule(2).regex.check();
    await ui.rule(2).pattern.fill('(unclosed');
    await ui.message(/not a valid regular expression/).waitFor();
    expect(await ui.rule(2).pattern.getAttribute('aria-invalid')).toBe('true');
    await ui.rule(2).remove.click();
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.save.click();
    await ui.message('User updated!').waitFor();
    expect((await cabinet.server.ctx.store.users.byId(user.user.id))?.rules).toEqual([
      { allow: false, regex: false, path: '/secret', regexp: { raw: '' } },
    ]);

    await loginThroughForm(other.page, cabinet.server.url, user.user.username, user.password);
    const files = new FilesPage(other.page);
    await files.entry('public').waitFor();
    expect(await files.entry('secret').count()).toBe(0);
    await files.goto(cabinet.server.url, 'secret/');
    await other.page.getByText('403 · Forbidden').waitFor();
  });

  it('keeps the admin tabs from non-admins and sends them to 403 on admin screens', async () => {
    // Someone who may share gets the tabs of their own screens (Profile, Shares) and no others;
    // someone who may not has no tab bar at all.
    const sharer = await cabinet.server.createUser();
    const { page: sharerPage } = await cabinet.loginPage({ user: sharer });
    const sharerUi = new SettingsPages(sharerPage);
    await sharerUi.goto(cabinet.server.url, 'profile');
    await sharerPage.getByRole('heading', { name: 'Change password' }).waitFor();
    const tabs = (await sharerUi.tabs.allTextContents()).join(' ');
    expect(tabs).toMatch(/Profile settings/);
    expect(tabs).toMatch(/Shares/);
    expect(tabs).not.toMatch(/Global settings|User management/);
    const user = await cabinet.server.createUser({ perm: { share: false } });
    const { page } = await cabinet.loginPage({ user });
    const ui = new SettingsPages(page);
    await ui.goto(cabinet.server.url, 'profile');
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    expect(await ui.tabs.count()).toBe(0);
    for (const route of ['global', 'users', 'users/1']) {
      await ui.goto(cabinet.server.url, route);
      await page.waitForURL((url) => url.pathname.endsWith('/403'));
      await page.getByText('403 · Forbidden').waitFor();
    }
  });

  it('lists 10,000 users, filters them as one types and grows as one scrolls', async () => {
    // Created straight in the store, as copies of one ordinary user.
    const template = await cabinet.server.createUser();
    const { profile, password_hash } = await cabinet.server.ctx.store.db
      .selectFrom('users')
      .select(['profile', 'password_hash'])
      .where('id', '=', template.user.id)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      username: `bulk-${String(i).padStart(5, '0')}`,
      password_hash,
      profile,
      updated_at: now,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await cabinet.server.ctx.store.db
        .insertInto('users')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    const admin = await cabinet.loginPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, 'users');
    const bodyRows = ui.usersTable.locator('tbody tr');
    await admin.page.getByRole('cell', { name: 'bulk-00000', exact: true }).waitFor();
    const first = await bodyRows.count();
    expect(first).toBeLessThan(1000);
    await admin.page.getByRole('cell', { name: 'bulk-00000', exact: true }).waitFor();
    await bodyRows.last().scrollIntoViewIfNeeded();
    await expect.poll(() => bodyRows.count()).toBeGreaterThan(first);

    await ui.usersFilter.fill('bulk-0424');
    await expect.poll(() => bodyRows.count()).toBe(10);
    await admin.page.getByRole('cell', { name: 'bulk-04249', exact: true }).waitFor();
    await admin.page.getByRole('link', { name: 'Edit bulk-04249' }).click();
    await admin.page.getByRole('heading', { name: 'User bulk-04249' }).waitFor();
  });
});
