import { describe, expect, it } from 'vitest';
import { AppShell } from '../pages/app-shell.ts';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();
const LONG_NAME = `${'n'.repeat(300)}.txt`;

/** Whether two boxes share any area. */
function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

describe('messages people can read (issue 18)', () => {
  it('explains a refused name at the field, in words and without a status line', async () => {
    await cabinet.seed({ 'm1/keep.txt': 'k' });
    const ops = await cabinet.open('m1/');
    await new AppShell(ops.page).newFile.click();
    const dialog = ops.page.getByRole('dialog', { name: 'New file' });
    await dialog.getByRole('textbox', { name: 'Name of the new file' }).fill(LONG_NAME);
    await ops.button(dialog, 'Create').click();
    const problem = dialog.getByRole('alert');
    await problem.waitFor();
    expect(await problem.textContent()).toBe('This name is too long.');
    expect(await ops.notifications.getByRole('alert').count()).toBe(0);
  });

  it('a refusal of what the user typed offers no "Report issue"', async () => {
    await cabinet.seed({ 'm2/short.txt': 's' });
    const ops = await cabinet.open('m2/');
    await ops.select('short.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.getByRole('textbox').fill(LONG_NAME);
    await ops.page.keyboard.press('Enter');
    const error = ops.notifications.getByRole('alert');
    await error.waitFor();
    expect(await ops.errorMessages()).toEqual(['This name is too long.']);
    expect(await error.getByRole('link', { name: 'Report issue' }).count()).toBe(0);
    await error.getByRole('button', { name: 'Close' }).click();
    await error.waitFor({ state: 'detached' });
  });

  it('an unexpected server failure offers "Report issue", but never as the main button', async () => {
    await cabinet.seed({ 'm3/file.txt': 'f' });
    const ops = await cabinet.open('m3/');
    // The server falls over on this one call, as a full disk or a bug would make it.
    await ops.page.route(
      (url) => url.pathname === '/api/resources/m3/file.txt',
      (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 500, body: '500 Internal Server Error\n' })
          : route.continue(),
    );
    await ops.select('file.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.getByRole('textbox').fill('renamed.txt');
    await ops.page.keyboard.press('Enter');
    const error = ops.notifications.getByRole('alert');
    await error.waitFor();
    expect(await ops.errorMessages()).toEqual(['Something really went wrong.']);
    const report = error.getByRole('link', { name: 'Report issue' });
    expect(await report.getAttribute('href')).toMatch(/^https:\/\/.+\/issues/);
    // A quiet link beside Close: no filled accent background.
    expect(await report.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgba(0, 0, 0, 0)',
    );
    await error.getByRole('button', { name: 'Close' }).waitFor();
  });

  it('a notification does not cover the button that caused it, on a phone', async () => {
    const ops = await cabinet.open('', { width: 390, height: 640 });
    await ops.page.goto(`${cabinet.server.url}/settings/profile`);
    const update = ops.page.getByRole('button', { name: 'Update' }).first();
    await update.waitFor();
    await ops.page.route(
      (url) => url.pathname.startsWith('/api/users/'),
      (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 500, body: '500 Internal Server Error\n' })
          : route.continue(),
    );
    // The button sits at the bottom of the screen, where notifications usually appear.
    await update.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await update.click();
    const error = ops.notifications.getByRole('alert');
    await error.waitFor();
    const [toast, button] = await Promise.all([error.boundingBox(), update.boundingBox()]);
    expect(toast && button && overlaps(toast, button)).toBe(false);
    expect(await update.isVisible()).toBe(true);
  });
});
