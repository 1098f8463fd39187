import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { SettingsPages } from '../pages/settings-pages.ts';
import { seedFiles } from '../support/servers.ts';
import { desktopFolder, onFiles, randomDesktopFile } from '../support/upload-fixtures.ts';

const cabinet = withCabinet();

describe('storage quotas in the browser', { timeout: 180_000 }, () => {
  it('the admin sets 10 KB; the user sees the bar, and an upload past it is refused with the reason', async () => {
    const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
    const root = path.join(cabinet.server.root, scope);
    await mkdir(root, { recursive: true });
    await seedFiles(root, { 'notes.txt': 'x'.repeat(3 * 1024) });
    const user = await cabinet.server.createUser({ viewMode: 'list', scope });

    // The admin types the quota as people write it.
    const admin = await cabinet.loginPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, `users/${user.user.id}`);
    const quota = admin.page.getByRole('textbox', { name: 'Storage quota' });
    await quota.fill('10 KB');
    await ui.yourPassword.fill(cabinet.server.admin.password);
    await ui.save.click();
    await ui.message('User updated!').waitFor();
    await expect
      .poll(async () => (await cabinet.server.ctx.store.users.byId(user.user.id))?.quota)
      .toBe(10 * 1024);

    // The user's sidebar shows the usage against it.
    const { page, uploads } = await onFiles(await cabinet.loginPage({ user }));
    await page.getByText('3.0 KiB of 10.0 KiB', { exact: true }).waitFor();
    await page.getByRole('progressbar', { name: 'Storage used' }).waitFor();

    // 8 KiB more would make 11 KiB: refused, with the sentence naming usage and quota.
    const desktop = await desktopFolder({});
    const big = await randomDesktopFile(desktop, 'big.bin', 8 * 1024);
    await uploads.uploadFiles([big.file]);
    await page
      .getByText(/This would exceed your (storage )?quota/)
      .first()
      .waitFor();
    expect(existsSync(path.join(root, 'big.bin'))).toBe(false);
  });
});
