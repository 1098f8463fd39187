import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARTIFACTS } from '../support/paths.ts';
import { withCabinet } from '../support/cabinet.ts';

const MALLORY_PASSWORD = 'mallory-has-a-long-password';

const cabinet = withCabinet({
  setup: async (server) => {
    await server.createUser({ username: 'mallory', password: MALLORY_PASSWORD });
    await server.createUser({ username: 'trent', password: 'trent-has-a-long-password' });
    const attempt = (username: string, password: string) =>
      server.fetch('/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
    // A failed and a good sign-in of mallory, a failed one of trent: the filters must tell them apart.
    expect((await attempt('mallory', 'not-her-password')).status).toBe(403);
    expect((await attempt('mallory', MALLORY_PASSWORD)).status).toBe(200);
    expect((await attempt('trent', 'not-his-password')).status).toBe(403);
  },
});

describe('audit log', () => {
  it('filters by user and action, shows the failed login, and exports those rows as CSV', async () => {
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/settings/audit`);
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const rows = page.getByTestId('audit-entry');
    await rows.first().waitFor();

    await page.getByLabel('User', { exact: true }).fill('mallory');
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Signed in' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    const texts = await rows.allTextContents();
    expect(texts.every((text) => text.includes('mallory'))).toBe(true);
    // The refused attempt is not "Signed in".
    expect(await rows.filter({ hasText: 'Signed in' }).count()).toBe(1);
    const failed = rows.filter({ hasText: 'Sign-in refused' });
    await expect.poll(() => failed.count()).toBe(1);
    expect(await failed.textContent()).toContain('Wrong password');
    expect(await rows.filter({ hasText: 'Succeeded' }).count()).toBe(1);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('audit.csv');
    const saved = path.join(await mkdtemp(path.join(os.tmpdir(), 'cabinet-audit-')), 'audit.csv');
    await download.saveAs(saved);
    const lines = (await readFile(saved, 'utf8')).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      'time,user_id,username,action,target,address,outcome,details,target_name',
    );
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((line) => line.includes(',mallory,login,'))).toBe(true);
    expect(lines.filter((line) => line.includes(',refused,'))).toHaveLength(1);
  });

  it('is for administrators only', async () => {
    const user = await cabinet.server.createUser({});
    const { page } = await cabinet.tokenPage({ token: user.token });
    await page.goto(`${cabinet.server.url}/settings/profile`);
    await page.getByRole('heading', { name: 'Profile settings', level: 2 }).waitFor();
    expect(await page.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await page.goto(`${cabinet.server.url}/settings/audit`);
    await page.waitForURL(/\/403$/);
  });

  it('fits phones without sideways scrolling, in both themes', async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    for (const colorScheme of ['light', 'dark'] as const) {
      // The branding theme decides the page's theme ('' follows the browser's, which is light).
      const settings = await cabinet.server.ctx.settings.get();
      await cabinet.server.updateSettings({
        branding: { ...settings.branding, theme: colorScheme === 'dark' ? 'dark' : '' },
      });
      for (const width of [1280, 390, 320]) {
        const { page } = await cabinet.tokenPage({ width, height: 900, colorScheme });
        await page.goto(`${cabinet.server.url}/settings/audit`);
        await page.getByTestId('audit-entry').first().waitFor();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${colorScheme} ${width}px`).toBeLessThanOrEqual(0);
        if (width !== 320) {
          await page.screenshot({
            path: path.join(ARTIFACTS, `audit-${colorScheme}-${width}.png`),
            fullPage: true,
          });
        }
        await page.close();
      }
    }
  });
});
