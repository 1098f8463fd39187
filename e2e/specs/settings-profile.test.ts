import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { loginThroughForm } from '../support/session.ts';
import { AppShell } from '../pages/app-shell.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet();

describe('profile settings', { timeout: 180_000 }, () => {
  it('switches the language to each offered locale by its own name and back', async () => {
    const user = await cabinet.server.createUser({ locale: '' });
    const { page } = await cabinet.loginPage({ user });
    const ui = new SettingsPages(page);
    await ui.goto(cabinet.server.url, 'profile');
    const language = page.getByRole('combobox', { name: 'Language' });
    await language.waitFor();
    const names = await language.locator('option').allTextContents();
    expect(names).toHaveLength(19);
    expect(names).toEqual(expect.arrayContaining(['Browser language', 'Deutsch', '日本語']));
    await language.selectOption({ label: 'Deutsch' });
    await page.getByRole('button', { name: 'Update' }).first().click();
    // The interface switches at once, so the notice may already be in German.
    await waitForNotice(page, /^(Settings updated!|Einstellungen aktualisiert!)$/);
    await expect
      .poll(async () => (await cabinet.server.ctx.store.users.byId(user.user.id))?.locale)
      .toBe('de');
    // The interface is in German after the reload, and says so in lang.
    await page.reload();
    const sprache = page.getByRole('combobox', { name: 'Sprache' });
    await expect.poll(() => sprache.inputValue()).toBe('de');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByRole('heading', { name: 'Passwort ändern' }).waitFor();

    await sprache.selectOption({ label: 'Browsersprache' });
    await page.getByRole('button', { name: 'Aktualisieren' }).first().click();
    await expect
      .poll(async () => (await cabinet.server.ctx.store.users.byId(user.user.id))?.locale)
      .toBe('');
    // Back to the cabinet.browser's language (English here) after the next load.
    await page.reload();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('changes the password with green, red and neutral states, then logs in with it', async () => {
    const user = await cabinet.server.createUser();
    const { page } = await cabinet.loginPage({ user });
    const next = await cabinet.newPage();
    await new SettingsPages(page).goto(cabinet.server.url, 'profile');
    const fresh = page.getByLabel('Your new password', { exact: true });
    const confirm = page.getByLabel('Confirm your new password', { exact: true });
    const current = page.getByLabel('Your current password');
    const update = page
      .getByRole('form', { name: 'Change password' })
      .getByRole('button', { name: 'Update' });
    expect(await fresh.getAttribute('data-state')).toBeNull();
    await fresh.fill('new-passphrase-for-cabinet');
    await confirm.fill('new-passphrase-for-cabinEt');
    await page.getByText("Passwords don't match").waitFor();
    expect(await confirm.getAttribute('data-state')).toBe('mismatch');
    expect(await update.isDisabled()).toBe(true);
    await confirm.fill('new-passphrase-for-cabinet');
    await expect.poll(() => fresh.getAttribute('data-state')).toBe('match');

    await current.fill('wrong current password');
    await update.click();
    await page.getByText('This is not your current password.').waitFor();
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    // The failure is also an error notification, which stays until closed…
    const alert = new AppShell(page).notifications
      .getByRole('alert')
      .filter({ hasText: 'The current password is incorrect.' });
    await alert.waitFor();

    await current.fill(user.password);
    await update.click();
    await waitForNotice(page, 'Password updated!');
    // …or until the password change succeeds, which makes it no longer true.
    await alert.waitFor({ state: 'detached' });
    await expect.poll(() => fresh.inputValue()).toBe('');

    await loginThroughForm(
      next.page,
      cabinet.server.url,
      user.user.username,
      'new-passphrase-for-cabinet',
    );
    await next.page.waitForURL((url) => url.pathname.includes('/files'));
  });

  it('hides the password card when the password is locked', async () => {
    const user = await cabinet.server.createUser({ lockPassword: true });
    const { page } = await cabinet.loginPage({ user });
    await new SettingsPages(page).goto(cabinet.server.url, 'profile');
    await page.getByRole('heading', { name: 'Sessions' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Change password' }).count()).toBe(0);
  });

  it('ends another session: that browser is logged out on its next request', async () => {
    const user = await cabinet.server.createUser();
    const other = await cabinet.loginPage({ user });
    const mine = await cabinet.loginPage({ user });
    await new SettingsPages(mine.page).goto(cabinet.server.url, 'profile');
    const sessions = mine.page.getByRole('region', { name: 'Sessions' });
    await sessions.getByText('This session').waitFor();
    // The user's sessions: this browser, the other one, and the test set-up's token.
    const ends = sessions.getByRole('button', { name: /^End the session of Chromium/ });
    await expect.poll(() => ends.count()).toBe(1);
    await ends.click();
    await waitForNotice(mine.page, 'Session ended!');
    await expect.poll(() => ends.count()).toBe(0);

    await other.page.reload();
    await other.page.waitForURL((url) => url.pathname.endsWith('/login'));
    await mine.page.reload();
    await sessions.getByText('This session').waitFor();
    expect(mine.page.url()).toContain('/settings/profile');
  });
});
