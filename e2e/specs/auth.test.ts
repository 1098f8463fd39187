import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { TestUser } from '@cabinet/server/testing';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { routeOf, storedToken } from '../support/session.ts';
import { spawnCabinet } from '../support/servers.ts';

const cabinet = withCabinet();
let context: BrowserContext;
let page: Page;

function decodeUser(token: string | null): { hideDotfiles: boolean; username: string } {
  return JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()).user;
}

/** A fresh page, signed in to nothing; `context` is its context. */
async function freshPage(): Promise<Page> {
  ({ context, page } = await cabinet.newPage());
  return page;
}

/** A fresh page signed in through the login form (as the admin unless `user` is given). */
/** The `iat` claim (seconds) of a token. */
function tokenIssuedAt(token: string): number {
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { iat: number })
    .iat;
}

async function signedInPage(user?: TestUser): Promise<Page> {
  ({ context, page } = await cabinet.loginPage({ user }));
  return page;
}

describe('first start', () => {
  it('logs in as admin with the password the command line printed', async () => {
    const cli = await spawnCabinet();
    try {
      expect(cli.adminPassword.length).toBeGreaterThanOrEqual(12);
      const page = await freshPage();
      const login = new LoginPage(page);
      await page.goto(`${cli.url}/`);
      await page.waitForURL(/\/login\?redirect=/);
      await login.login('admin', cli.adminPassword);
      await page.waitForURL(`${cli.url}/files/`);
      const shell = new AppShell(page);
      await shell.logoutButton.waitFor();
      expect(await shell.settings.isVisible()).toBe(true);
    } finally {
      await cli.stop();
    }
  });
});

describe('without a login page', () => {
  it('logs in by itself with the noauth method and offers no logout', async () => {
    const cli = await spawnCabinet({ args: ['--auth-method', 'noauth'] });
    try {
      const page = await freshPage();
      await page.goto(`${cli.url}/settings/profile`);
      await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();
      expect(routeOf(page, cli.url)).toBe('/settings/profile');
      const shell = new AppShell(page);
      expect(await shell.myFiles.isVisible()).toBe(true);
      expect(await shell.logoutButton.count()).toBe(0);
    } finally {
      await cli.stop();
    }
  });
});

describe('login', () => {
  it('sends a logged-out visitor of a deep link to /login with the redirect, and back after login', async () => {
    const page = await freshPage();
    await page.goto(`${cabinet.server.url}/settings/profile?tab=1`);
    await page.waitForURL(/\/login\?/);
    expect(routeOf(page, cabinet.server.url)).toBe(
      `/login?redirect=${encodeURIComponent('/settings/profile?tab=1')}`,
    );
    await expect.poll(() => page.title()).toBe('Login - Cabinet');
    await new LoginPage(page).login('admin', cabinet.server.admin.password);
    await page.waitForURL(`${cabinet.server.url}/settings/profile?tab=1`);
    await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();
  });

  it('shows "Wrong credentials" for a wrong password and stays on the login page', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.goto(cabinet.server.url);
    await login.login('admin', 'not-the-password');
    await login.error.waitFor();
    expect(await login.error.textContent()).toBe('Wrong credentials');
    expect(routeOf(page, cabinet.server.url)).toBe('/login');
    expect(await storedToken(page)).toBeNull();
  });

  it('shows "Wrong credentials" for an unknown user', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.goto(cabinet.server.url);
    await login.login('nobody-here', 'whatever-password');
    await login.error.waitFor();
    expect(await login.error.textContent()).toBe('Wrong credentials');
  });

  it('ignores a redirect query that points to another site', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.goto(cabinet.server.url, `?redirect=${encodeURIComponent('//evil.example/x')}`);
    await login.login('admin', cabinet.server.admin.password);
    await page.waitForURL(`${cabinet.server.url}/files/`);
  });

  it('sends a logged-in user who opens /login to /files/', async () => {
    const page = await signedInPage();
    await page.goto(`${cabinet.server.url}/login`);
    await page.waitForURL(`${cabinet.server.url}/files/`);
  });

  it('keeps the session across a reload (the stored token is renewed at start-up)', async () => {
    const page = await signedInPage();
    const renewal = page.waitForRequest((r) => r.url().endsWith('/api/renew'));
    await page.reload();
    expect((await renewal).headers()['x-auth']).toBeTruthy();
    await new AppShell(page).logoutButton.waitFor();
    const after = await storedToken(page);
    expect(after).not.toBeNull();
    const renewed = await cabinet.server.fetch('/api/renew', { method: 'POST', token: after! });
    expect(renewed.status).toBe(200);
  });

  it('treats a malformed stored token as logged out', async () => {
    const page = await freshPage();
    await context.addInitScript(() => localStorage.setItem('jwt', 'not-a-token'));
    await page.goto(`${cabinet.server.url}/files/`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(await storedToken(page)).toBeNull();
  });

  it('treats a stored token the server refuses as logged out', async () => {
    const page = await freshPage();
    // Well-formed and decodable, but signed with another key.
    const forged = cabinet.server.admin.token.replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    await context.addInitScript((token) => localStorage.setItem('jwt', token), forged);
    await page.goto(`${cabinet.server.url}/files/`);
    await page.waitForURL(/\/login\?redirect=/);
    expect(await storedToken(page)).toBeNull();
  });
});

describe('renewal', () => {
  it('renews the token when the server says X-Renew-Token, picking up the changed user', async () => {
    await cabinet.seed({ 'renewer-folder/': '' });
    const user = await cabinet.server.createUser({ username: 'renewer', locale: 'en' });
    const page = await signedInPage(user);
    const files = new FilesPage(page);
    await files.entry('renewer-folder').waitFor();
    // Tokens carry their issue time in whole seconds, and a change in that same second is not
    // "after" the token (docs/api.md): change the user once the token's second has passed.
    const issuedAt = tokenIssuedAt((await storedToken(page))!);
    await expect.poll(() => Math.floor(Date.now() / 1000)).toBeGreaterThan(issuedAt);
    const update = await cabinet.server.fetch(`/api/users/${user.user.id}`, {
      method: 'PUT',
      token: cabinet.server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        what: 'user',
        which: ['hideDotfiles'],
        data: { id: user.user.id, hideDotfiles: true },
        current_password: cabinet.server.admin.password,
      }),
    });
    expect(update.status).toBe(200);
    const renewal = page.waitForRequest((r) => r.url().endsWith('/api/renew'));
    await files.open('renewer-folder');
    await renewal;
    await expect.poll(async () => decodeUser(await storedToken(page)).hideDotfiles).toBe(true);
  });
});

describe('logout', () => {
  it('revokes the session, forgets the token and goes to /login', async () => {
    const page = await signedInPage();
    const token = await storedToken(page);
    const shell = new AppShell(page);
    await shell.logout();
    await page.waitForURL(`${cabinet.server.url}/login`);
    expect(await storedToken(page)).toBeNull();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'auth')).toBeUndefined();
    const renewed = await cabinet.server.fetch('/api/renew', { method: 'POST', token: token! });
    expect(renewed.status).toBe(401);
    await page.goto(`${cabinet.server.url}/files/`);
    await page.waitForURL(/\/login\?redirect=/);
  });
});

describe('signup', () => {
  it('is not offered while signup is disabled', async () => {
    const page = await freshPage();
    const login = new LoginPage(page);
    await login.goto(cabinet.server.url);
    expect(await login.signupToggle.count()).toBe(0);
  });

  describe('when enabled', () => {
    beforeAll(async () => {
      await cabinet.server.updateSettings({ signup: true });
    });
    afterAll(async () => {
      await cabinet.server.updateSettings({ signup: false });
    });

    it('creates the account, logs in and lands on the files', async () => {
      const page = await freshPage();
      const login = new LoginPage(page);
      await login.goto(cabinet.server.url);
      await login.signup('newcomer', 'a-long-enough-password-1');
      await page.waitForURL(`${cabinet.server.url}/files/`);
      const shell = new AppShell(page);
      await shell.logoutButton.waitFor();
      const token = await storedToken(page);
      const claims = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString());
      expect(claims.user.username).toBe('newcomer');
      expect(claims.user.perm.admin).toBe(false);
    });

    it('says "Passwords don\'t match" without creating anything', async () => {
      const page = await freshPage();
      const login = new LoginPage(page);
      await login.goto(cabinet.server.url);
      await login.signup('mismatch-user', 'a-long-enough-password-1', 'a-long-enough-password-2');
      await login.error.waitFor();
      expect(await login.error.textContent()).toBe("Passwords don't match");
      expect(await cabinet.server.ctx.store.users.byUsername('mismatch-user')).toBeFalsy();
    });

    it('says "Username already taken" for a name in use', async () => {
      const page = await freshPage();
      const login = new LoginPage(page);
      await login.goto(cabinet.server.url);
      await login.signup('admin', 'a-long-enough-password-1');
      await login.error.waitFor();
      expect(await login.error.textContent()).toBe('Username already taken');
    });

    it('offers Signup in the sidebar of logged-out pages', async () => {
      const page = await freshPage();
      await page.goto(`${cabinet.server.url}/403`);
      const shell = new AppShell(page);
      await shell.signupLink.click();
      await new LoginPage(page).passwordConfirmation.waitFor();
    });
  });
});
