import { describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { LoginPage } from '../pages/login-page.ts';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();

async function api(path: string, token: string, init: { method?: string; json?: unknown } = {}) {
  return cabinet.server.fetch(`/api${path}`, {
    method: init.method ?? 'GET',
    token,
    ...(init.json === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.json) }),
  });
}

async function policyNow(): Promise<string> {
  const res = await api('/two-factor/policy', cabinet.server.admin.token);
  return ((await res.json()) as { require: string }).require;
}

async function enabledFor(userId: number): Promise<boolean> {
  const res = await api(`/users/${userId}/two-factor`, cabinet.server.admin.token);
  return ((await res.json()) as { enabled: boolean }).enabled;
}

describe('two-factor sign-in, administrators', { timeout: 180_000 }, () => {
  it('sets the policy to everyone in global settings; a user signing in is sent to enrol', async () => {
    const admin = await cabinet.tokenPage();
    await admin.page.goto(`${cabinet.server.url}/settings/global`);
    const card = admin.page.getByRole('form', { name: 'Two-factor sign-in' });
    const everyone = card.getByRole('radio', { name: 'Everyone' });
    await card.getByRole('radio', { name: 'Nobody (each user chooses)' }).waitFor();
    expect(await card.getByRole('radio', { name: 'Nobody (each user chooses)' }).isChecked()).toBe(
      true,
    );
    await everyone.check();
    await card.getByRole('button', { name: 'Update' }).click();
    try {
      await expect.poll(policyNow).toBe('everyone');
      // The card shows what the server now holds after a reload.
      await admin.page.reload();
      await expect.poll(() => everyone.isChecked()).toBe(true);

      const user = await cabinet.server.createUser();
      const fresh = await cabinet.newPage();
      const login = new LoginPage(fresh.page);
      await login.goto(cabinet.server.url);
      await login.login(user.user.username, user.password);
      await fresh.page.waitForURL(`${cabinet.server.url}/two-factor`);
      await fresh.page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    } finally {
      await api('/two-factor/policy', cabinet.server.admin.token, {
        method: 'PUT',
        json: { require: 'off' },
      });
    }
  });

  it('shows an enrolled user as such in the user editor and resets them after a confirmation', async () => {
    const user = await cabinet.server.createUser();
    const setup = await api('/two-factor/setup', user.token, { method: 'POST' });
    expect(setup.status).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    const enable = await api('/two-factor/enable', user.token, {
      method: 'POST',
      json: { code: await generate({ secret }) },
    });
    expect(enable.status).toBe(200);
    expect(await enabledFor(user.user.id)).toBe(true);

    const admin = await cabinet.tokenPage();
    await admin.page.goto(`${cabinet.server.url}/settings/users/${user.user.id}`);
    const card = admin.page.getByRole('region', { name: 'Two-factor sign-in' });
    await card.getByText('This user signs in with a code.').waitFor();

    // Cancel leaves the enrolment alone.
    await card.getByRole('button', { name: 'Reset two-factor' }).click();
    const dialog = admin.page.getByRole('dialog', { name: 'Reset two-factor sign-in?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await enabledFor(user.user.id)).toBe(true);

    await card.getByRole('button', { name: 'Reset two-factor' }).click();
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await card.getByText('This user signs in without a code.').waitFor();
    expect(await enabledFor(user.user.id)).toBe(false);
    expect(await card.getByRole('button', { name: 'Reset two-factor' }).count()).toBe(0);
  });

  it('shows a user without two-factor sign-in as such, with no reset button', async () => {
    const user = await cabinet.server.createUser();
    const admin = await cabinet.tokenPage();
    await admin.page.goto(`${cabinet.server.url}/settings/users/${user.user.id}`);
    const card = admin.page.getByRole('region', { name: 'Two-factor sign-in' });
    await card.getByText('This user signs in without a code.').waitFor();
    expect(await card.getByRole('button', { name: 'Reset two-factor' }).count()).toBe(0);
  });
});
