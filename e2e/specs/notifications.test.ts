import { describe, expect, it } from 'vitest';
import { AppShell } from '../pages/app-shell.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet();

describe('notifications', () => {
  it('a success notice hides by itself; an error stays until closed', async () => {
    const user = await cabinet.server.createUser({ username: 'toaster' });
    const { page } = await cabinet.loginPage({ user });
    await page.goto(`${cabinet.server.url}/settings/profile`);
    const shell = new AppShell(page);

    await page.getByRole('checkbox', { name: 'Hide dotfiles' }).check();
    await page.getByRole('button', { name: 'Update' }).first().click();
    const success = shell.notifications
      .getByRole('status')
      .filter({ hasText: 'Settings updated!' });
    await waitForNotice(page, 'Settings updated!');
    await success.waitFor({ state: 'detached' });
    expect((await cabinet.server.ctx.store.users.byUsername('toaster'))?.hideDotfiles).toBe(true);

    await page.getByLabel('Your new password', { exact: true }).fill('another-long-password-9');
    await page.getByLabel('Confirm your new password').fill('another-long-password-9');
    await page.getByLabel('Your current password').fill('not-my-password');
    await page.getByRole('button', { name: 'Update' }).nth(1).click();
    const error = shell.notifications.getByRole('alert');
    await error.waitFor();
    expect(await error.getByRole('paragraph').textContent()).toBe(
      'The current password is incorrect.',
    );
    // The user's own input was refused: nothing to report (issue 18).
    expect(await error.getByRole('link', { name: 'Report issue' }).count()).toBe(0);
    // A success notice shown after it comes and goes; the error is still there.
    await page.getByRole('button', { name: 'Update' }).first().click();
    await waitForNotice(page, 'Settings updated!');
    await success.waitFor({ state: 'detached' });
    expect(await error.isVisible()).toBe(true);
    await error.getByRole('button', { name: 'Close' }).click();
    await error.waitFor({ state: 'detached' });
  });

  it('changes the password when both fields match and the current one is right', async () => {
    const user = await cabinet.server.createUser({ username: 'rotator' });
    const { page } = await cabinet.loginPage({ user });
    await page.goto(`${cabinet.server.url}/settings/profile`);
    await page.getByLabel('Your new password', { exact: true }).fill('brand-new-password-77');
    await page.getByLabel('Confirm your new password').fill('brand-new-password-77');
    await page.getByLabel('Your current password').fill(user.password);
    await page.getByRole('button', { name: 'Update' }).nth(1).click();
    await waitForNotice(page, 'Password updated!');
    const login = await cabinet.server.fetch('/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'rotator', password: 'brand-new-password-77' }),
    });
    expect(login.status).toBe(200);
  });
});
