import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { TestServer } from '@cabinet/server/testing';
import { LoginPage } from '../pages/login-page.ts';
import { launchBrowser, newPage } from '../support/browser.ts';
import { startFakeRecaptcha, type FakeRecaptcha } from '../support/fake-recaptcha.ts';
import { startAppServer } from '../support/servers.ts';

let browser: Browser;
let server: TestServer;
let recaptcha: FakeRecaptcha;

beforeAll(async () => {
  browser = await launchBrowser();
  recaptcha = await startFakeRecaptcha('site-key-1', 'secret-1');
  server = await startAppServer({
    config: {
      recaptchaHost: recaptcha.url,
      recaptchaKey: 'site-key-1',
      recaptchaSecret: 'secret-1',
    },
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await recaptcha?.close();
});

describe('bot-check on the login form', () => {
  it('refuses an unsolved check without asking the server, then logs in once solved', async () => {
    const { context, page } = await newPage(browser);
    const logins: string[] = [];
    page.on('request', (r) => r.url().endsWith('/api/login') && logins.push(r.postData() ?? ''));
    try {
      const login = new LoginPage(page);
      await login.goto(server.url);
      const widget = page.getByRole('checkbox', { name: "I'm not a robot" });
      await widget.waitFor();

      await login.login('admin', server.admin.password);
      await login.error.waitFor();
      expect(await login.error.textContent()).toBe('Wrong credentials');
      expect(logins).toEqual([]);

      await widget.check();
      await login.loginButton.click();
      await page.waitForURL(`${server.url}/files/`);
      expect(JSON.parse(logins[0]!)).toMatchObject({
        username: 'admin',
        recaptcha: 'solved-site-key-1',
      });
      expect(recaptcha.verified).toEqual(['solved-site-key-1']);
    } finally {
      await context.close();
    }
  });
});
