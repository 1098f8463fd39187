import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServerOptions } from '@cabinet/server/testing';
import { LoginPage } from '../pages/login-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { startFakeRecaptcha, type FakeRecaptcha } from '../support/fake-recaptcha.ts';

let recaptcha: FakeRecaptcha;
const config: TestServerOptions['config'] = {
  recaptchaKey: 'site-key-1',
  recaptchaSecret: 'secret-1',
};

// The server needs the fake's URL: these hooks come before withCabinet()'s, and Vitest runs
// beforeAll hooks in order and afterAll hooks in reverse, so the fake outlives the server.
beforeAll(async () => {
  recaptcha = await startFakeRecaptcha('site-key-1', 'secret-1');
  config.recaptchaHost = recaptcha.url;
});

afterAll(async () => {
  await recaptcha?.close();
});

const cabinet = withCabinet({ server: { config } });

describe('bot-check on the login form', () => {
  it('refuses an unsolved check without asking the server, then logs in once solved', async () => {
    const { page } = await cabinet.newPage();
    const logins: string[] = [];
    page.on('request', (r) => r.url().endsWith('/api/login') && logins.push(r.postData() ?? ''));
    const login = new LoginPage(page);
    await login.goto(cabinet.server.url);
    const widget = page.getByRole('checkbox', { name: "I'm not a robot" });
    await widget.waitFor();

    await login.login('admin', cabinet.server.admin.password);
    await login.error.waitFor();
    expect(await login.error.textContent()).toBe('Wrong credentials');
    expect(logins).toEqual([]);

    await widget.check();
    await login.loginButton.click();
    await page.waitForURL(`${cabinet.server.url}/files/`);
    expect(JSON.parse(logins[0]!)).toMatchObject({
      username: 'admin',
      recaptcha: 'solved-site-key-1',
    });
    expect(recaptcha.verified).toEqual(['solved-site-key-1']);
  });
});
