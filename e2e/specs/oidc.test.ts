import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startOidcProvider } from '@cabinet/server/testing';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { ARTIFACTS } from '../support/paths.ts';
import { withCabinet } from '../support/cabinet.ts';
import { storedToken } from '../support/session.ts';

// Single sign-on through a real OpenID provider (oidc-provider, its own login and consent pages)
// on a loopback port; Cabinet's client is registered at it once Cabinet's URL is known.
const provider = await startOidcProvider();
afterAll(() => provider.close());

/** The button's name: the provider's name sits in Unicode isolates, as user-given names do. */
const SIGN_IN = /^Sign in with \u2068Test ID\u2069$/;

const cabinet = withCabinet({
  files: { 'docs/': '', 'notes.txt': 'n' },
  server: {
    config: {
      oidcIssuer: provider.issuer,
      oidcClientId: provider.clientId,
      oidcClientSecret: provider.clientSecret,
      oidcButtonLabel: 'Test ID',
    },
  },
  setup: async (server) => {
    provider.register(server.url);
    await mkdir(ARTIFACTS, { recursive: true });
  },
});

describe('single sign-on', () => {
  it('signs in through the provider’s login and consent pages, and logs out there', async () => {
    const { page } = await cabinet.newPage();
    const url = cabinet.server.url;
    await page.goto(`${url}/files/docs/`);
    await page.waitForURL(/\/login\?redirect=/);
    // Keyboard: the button is a link reached by Tab and followed with Enter.
    const button = page.getByRole('link', { name: SIGN_IN });
    await button.focus();
    await page.keyboard.press('Enter');

    await page.waitForURL((at) => at.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('alice');
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back at Cabinet, signed in, on the page that asked for the sign-in.
    await page.waitForURL(`${url}/files/docs/`);
    await new AppShell(page).logoutButton.waitFor();
    expect(new URL(page.url()).hash).toBe('');
    const token = await storedToken(page);
    expect(token).toBeTruthy();
    expect(await cabinet.server.ctx.store.users.byUsername('alice')).toBeDefined();

    // Logout ends Cabinet's session, then the provider's (it asks first), which sends the
    // browser back to Cabinet's login page.
    await new AppShell(page).logout();
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL(`${url}/login`);
    expect(await storedToken(page)).toBeNull();
    const renewed = await cabinet.server.fetch('/api/renew', { method: 'POST', token: token! });
    expect(renewed.status).toBe(401);

    // The provider's session is over: the next sign-in asks for the login again.
    await page.getByRole('link', { name: SIGN_IN }).click();
    await page.locator('input[name="login"]').waitFor();
  });

  it('says why a sign-in failed, in words, with the password form still there', async () => {
    const { page } = await cabinet.newPage();
    await page.goto(`${cabinet.server.url}/login?sso_error=no-account`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe(
        'The sign-in with \u2068Test ID\u2069 failed: there is no account for you here. Ask an administrator to create one.',
      );
    await page.locator('input[name="username"]').waitFor();
  });

  it('leaves the password sign-in working beside it', async () => {
    const { page } = await cabinet.loginPage();
    await new FilesPage(page).entry('notes.txt').waitFor();
  });

  it.each([
    ['light', 1280],
    ['light', 390],
    ['dark', 1280],
    ['dark', 390],
    ['light', 320],
  ] as const)('shows the button in the %s theme at %i px', async (theme, width) => {
    const settings = await cabinet.server.ctx.settings.get();
    const branding = (value: string) => ({ branding: { ...settings.branding, theme: value } });
    await cabinet.server.updateSettings(branding(theme === 'dark' ? 'dark' : ''));
    try {
      const { page } = await cabinet.newPage({ width, height: 800 });
      await page.goto(`${cabinet.server.url}/login?sso_error=denied`);
      await page.getByRole('link', { name: SIGN_IN }).waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scroll).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(ARTIFACTS, `sso-login-${theme}-${width}.png`) });
    } finally {
      await cabinet.server.updateSettings(branding(''));
    }
  });
});
