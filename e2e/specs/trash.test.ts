import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();

/** A user-provided name inside a sentence, isolated as the interface isolates it (RTL safety). */
const isolated = (name: string) => `\u2068${name}\u2069`;

/** Deletes through the wire API, as any client would. */
async function deleteByApi(scopePath: string): Promise<void> {
  const { server } = cabinet;
  const response = await server.fetch(`/api/resources/${scopePath}`, {
    method: 'DELETE',
    token: server.admin.token,
  });
  expect(response.status).toBe(204);
}

describe('trash', () => {
  it('deletes a file into the trash, restores it from the Trash screen, and finds it back', async () => {
    await cabinet.seed({ 't1/keep.txt': 'k', 't1/report.txt': 'quarterly' });
    const ops = await cabinet.open('t1/');
    await ops.select('report.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.getByText('Delete this item?').waitFor();
    await ops.page.keyboard.press('Enter');
    await ops.files.entry('report.txt').waitFor({ state: 'detached' });
    await ops.page.getByText('Moved to the trash.', { exact: false }).first().waitFor();

    await ops.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Trash' })
      .click();
    await ops.page.getByRole('heading', { name: 'Trash', exact: true }).waitFor();
    const item = ops.page.getByTestId('trash-item').filter({ hasText: 'report.txt' });
    await item.waitFor();
    await expect.poll(() => item.textContent()).toContain('/t1');
    await item.getByRole('button', { name: `Restore ${isolated('report.txt')}` }).click();
    await item.waitFor({ state: 'detached' });

    await ops.page.goto(`${cabinet.server.url}/files/t1/`);
    await ops.files.entry('report.txt').waitFor();
    expect(readFileSync(path.join(cabinet.server.root, 't1/report.txt'), 'utf8')).toBe('quarterly');
  });

  it('asks on a clash and keeps both', async () => {
    await cabinet.seed({ 't2/clash.txt': 'old' });
    await deleteByApi('t2/clash.txt');
    await cabinet.seed({ 't2/clash.txt': 'new' });
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/trash`);
    await page.getByRole('button', { name: `Restore ${isolated('clash.txt')}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Name already taken' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Keep both' }).click();
    await page
      .getByTestId('trash-item')
      .filter({ hasText: 'clash.txt' })
      .waitFor({ state: 'detached' });
    expect(readFileSync(path.join(cabinet.server.root, 't2/clash(1).txt'), 'utf8')).toBe('old');
    expect(readFileSync(path.join(cabinet.server.root, 't2/clash.txt'), 'utf8')).toBe('new');
  });

  it('deletes an item for good after confirmation', async () => {
    await cabinet.seed({ 't3/doomed.txt': 'd' });
    await deleteByApi('t3/doomed.txt');
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/trash`);
    await page.getByRole('button', { name: `Delete ${isolated('doomed.txt')} for good` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete for good' });
    await dialog.getByText('Delete this item for good?', { exact: false }).waitFor();
    await page.keyboard.press('Enter');
    await page
      .getByTestId('trash-item')
      .filter({ hasText: 'doomed.txt' })
      .waitFor({ state: 'detached' });
    expect(existsSync(path.join(cabinet.server.root, 't3/doomed.txt'))).toBe(false);
    const listed = await cabinet.server.fetch('/api/trash', { token: cabinet.server.admin.token });
    expect(JSON.stringify(await listed.json())).not.toContain('doomed.txt');
  });

  it('works at 390 px without sideways scrolling, in the dark theme too', async () => {
    await cabinet.seed({ 't4/a-file-with-a-rather-long-name-for-a-phone-screen.txt': 'p' });
    await deleteByApi('t4/a-file-with-a-rather-long-name-for-a-phone-screen.txt');
    const { page } = await cabinet.tokenPage({ width: 390, height: 800, colorScheme: 'dark' });
    await page.goto(`${cabinet.server.url}/trash`);
    const restore = page.getByRole('button', {
      name: `Restore ${isolated('a-file-with-a-rather-long-name-for-a-phone-screen.txt')}`,
    });
    await restore.waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const box = (await restore.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await restore.focus();
    await page.keyboard.press('Enter');
    await restore.waitFor({ state: 'detached' });
    expect(
      existsSync(
        path.join(cabinet.server.root, 't4/a-file-with-a-rather-long-name-for-a-phone-screen.txt'),
      ),
    ).toBe(true);
  });
});
