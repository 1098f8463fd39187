import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();
const onDisk = (scopePath: string) => path.join(cabinet.server.root, scopePath);

/** Uploads a file through the listing's file chooser (a hidden input, as browsers need). */
async function upload(page: Page, name: string, content: string): Promise<void> {
  await page
    .locator('input[type="file"]:not([webkitdirectory])')
    .first()
    .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(content) });
}

describe('replace prompt (uploads)', () => {
  it('offers only Replace and Cancel, and Enter replaces the existing file', async () => {
    await cabinet.seed({ 'u1/same.txt': 'old' });
    const ops = await cabinet.open('u1/');
    await upload(ops.page, 'same.txt', 'new');
    await ops.replace.waitFor();
    expect(await ops.replace.getByRole('button').allTextContents()).toEqual(['Cancel', 'Replace']);
    expect(
      await ops.button(ops.replace, 'Replace').evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await ops.page.keyboard.press('Enter');
    await ops.replace.waitFor({ state: 'detached' });
    await expect.poll(() => readFile(onDisk('u1/same.txt'), 'utf8')).toBe('new');
  });

  it('keeps the existing file when the prompt is dismissed with Esc', async () => {
    await cabinet.seed({ 'u2/same.txt': 'old' });
    const ops = await cabinet.open('u2/');
    await upload(ops.page, 'same.txt', 'new');
    await ops.replace.waitFor();
    await ops.page.keyboard.press('Escape');
    await ops.replace.waitFor({ state: 'detached' });
    expect(await ops.files.entryNames()).toEqual(['same.txt']);
    expect(await readFile(onDisk('u2/same.txt'), 'utf8')).toBe('old');
  });
});
