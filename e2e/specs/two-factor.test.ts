import { afterEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { LoginPage } from '../pages/login-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { routeOf } from '../support/session.ts';

const cabinet = withCabinet();
let opened: Page | undefined;

afterEach(async () => {
  await opened?.context().close();
  opened = undefined;
});

/** The code of the time step `steps` after now (each step is accepted once). */
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** A six-digit code that is none of the codes the server would accept now. */
async function wrongCode(secret: string): Promise<string> {
  const valid = new Set(await Promise.all([-1, 0, 1].map((s) => codeAt(secret, s))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** Enrols on the page's profile screen; returns the secret the screen showed. */
async function enrolOnScreen(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Set up' }).click();
  const secret = (await page.locator('.two-factor__secret').textContent())!.trim();
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  await page.getByRole('textbox', { name: 'Code' }).fill(await codeAt(secret, 0));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await codes.first().waitFor();
  expect(await codes.count()).toBe(10);
  await page.getByRole('button', { name: 'Done' }).click();
  return secret;
}

async function setPolicy(policy: string) {
  const res = await cabinet.server.fetch('/api/two-factor/policy', {
    method: 'PUT',
    token: cabinet.server.admin.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ require: policy }),
  });
  expect(res.status).toBe(200);
}

describe('two-factor sign-in', () => {
  it('enrols from the profile, then asks for the code after the password', async () => {
    const user = await cabinet.server.createUser();
    const { page } = await cabinet.loginPage({ user });
    opened = page;
    await page.goto(`${cabinet.server.url}/settings/profile`);
    const secret = await enrolOnScreen(page);
    await page.getByText('Two-factor sign-in is on.', { exact: false }).first().waitFor();

    const fresh = await cabinet.newPage();
    opened = fresh.page;
    await page.context().close();
    const login = new LoginPage(fresh.page);
    await login.goto(cabinet.server.url);
    await login.login(user.user.username, user.password);
    const code = fresh.page.getByRole('textbox', { name: 'Code or recovery code' });
    await code.waitFor();
    expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
    await code.fill(await wrongCode(secret));
    await login.loginButton.click();
    await login.error.getByText('Wrong code, or a code that was already used.').waitFor();
    await code.fill(await codeAt(secret, 1));
    await login.loginButton.click();
    await fresh.page.waitForURL(`${cabinet.server.url}/files/`);
    // Two sign-ins with password hashing and an enrolment: more than the default minute on a busy
    // machine.
  }, 180_000);

  it('sends a user the administrator requires to enrol to the enrolment screen first', async () => {
    await setPolicy('everyone');
    try {
      const user = await cabinet.server.createUser();
      const fresh = await cabinet.newPage();
      opened = fresh.page;
      const login = new LoginPage(fresh.page);
      await login.goto(cabinet.server.url);
      await login.login(user.user.username, user.password);
      await fresh.page.waitForURL(`${cabinet.server.url}/two-factor`);
      await fresh.page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
      await enrolOnScreen(fresh.page);
      await fresh.page.waitForURL(`${cabinet.server.url}/files/`);
      expect(routeOf(fresh.page, cabinet.server.url)).toBe('/files/');
    } finally {
      await setPolicy('off');
    }
  });
});
