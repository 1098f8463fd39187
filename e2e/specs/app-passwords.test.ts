import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet();

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

describe('app passwords', { timeout: 180_000 }, () => {
  it('creates one in the profile, shows it once, uses it over WebDAV and revokes it', async () => {
    const user = await cabinet.server.createUser();
    const { page } = await cabinet.loginPage({ user });
    await new SettingsPages(page).goto(cabinet.server.url, 'profile');
    const card = page.getByRole('region', { name: 'App passwords' });
    await card.getByText('No app passwords yet.').waitFor();
    await card.getByLabel('Name').fill('Laptop');
    await card.getByRole('button', { name: 'Create app password' }).click();
    const value = card.getByTestId('app-password-value');
    await value.waitFor();
    const password = (await value.textContent()) ?? '';
    expect(password).toMatch(/^cab_[0-9a-f]{16}_/);
    await card.getByText(`${cabinet.server.url}/dav/`).waitFor();

    const propfind = () =>
      fetch(`${cabinet.server.url}/dav/`, {
        method: 'PROPFIND',
        headers: { depth: '0', authorization: basic(user.user.username, password) },
      });
    expect((await propfind()).status).toBe(207);

    // Shown once: gone after "I have copied it" and after a reload.
    await card.getByRole('button', { name: 'I have copied it' }).click();
    await expect.poll(() => value.count()).toBe(0);
    await page.reload();
    await card.getByText('Laptop').waitFor();
    expect(await page.content()).not.toContain(password);

    await card.getByRole('button', { name: /Revoke the app password .*Laptop/ }).click();
    await card.getByText(/Revoke .*Laptop.*\?/).waitFor();
    await card.getByRole('button', { name: 'Revoke', exact: true }).click();
    await waitForNotice(page, 'App password revoked');
    await card.getByText('No app passwords yet.').waitFor();
    expect((await propfind()).status).toBe(401);
  });
});
