import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';
import { seedFiles } from '../support/servers.ts';

const cabinet = withCabinet();

/** A user whose scope is a fresh folder holding `entries`, logged in on the list view. */
async function login(
  entries: Record<string, string>,
  perm: Record<string, boolean> = {},
): Promise<{ page: Page; files: FilesPage }> {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  await seedFiles(`${cabinet.server.root}${scope}`, entries);
  const user = await cabinet.server.createUser({ viewMode: 'list', scope, perm });
  const { page } = await cabinet.newPage();
  await loginThroughForm(page, cabinet.server.url, user.user.username, user.password);
  const files = new FilesPage(page);
  await files.listing.waitFor();
  return { page, files };
}

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });

describe('shortcuts that open dialogs', () => {
  it('Delete, F2, F1 and Ctrl+S open their dialogs', async () => {
    const { page, files } = await login({ 'one.txt': '1', 'two.txt': '2' });
    await files.entry('one.txt').click();

    await page.keyboard.press('Delete');
    await dialog(page, 'Delete').waitFor();
    await page.keyboard.press('Escape');
    await dialog(page, 'Delete').waitFor({ state: 'detached' });

    await page.keyboard.press('F2');
    await dialog(page, 'Rename').waitFor();
    await page.keyboard.press('Escape');
    await dialog(page, 'Rename').waitFor({ state: 'detached' });
    // The dialog closing with Esc does not also clear the selection.
    expect(await files.selectedNames()).toEqual(['one.txt']);

    await page.keyboard.press('F1');
    await dialog(page, 'Help').waitFor();
    await page.keyboard.press('Escape');
    await dialog(page, 'Help').waitFor({ state: 'detached' });

    // With nothing selected, Ctrl+S downloads the folder: the dialog asks for the format.
    await page.keyboard.press('Escape');
    expect(await files.selectedNames()).toEqual([]);
    await page.keyboard.press('Control+s');
    await dialog(page, 'Download').waitFor();
    await page.keyboard.press('Escape');
    await dialog(page, 'Download').waitFor({ state: 'detached' });

    // F2 renames exactly one entry: with two selected it does nothing.
    await files.entry('one.txt').click();
    await files.entry('two.txt').click({ modifiers: ['Control'] });
    await page.keyboard.press('F2');
    await page.keyboard.press('Delete');
    await dialog(page, 'Delete').waitFor();
    expect(await dialog(page, 'Rename').count()).toBe(0);
  });

  it('are off while typing in a field', async () => {
    const { page, files } = await login({ 'one.txt': '1' });
    await files.entry('one.txt').click();
    await page.getByRole('button', { name: 'New file' }).first().click();
    const newFile = dialog(page, 'New file');
    await newFile.getByRole('textbox').fill('abc');
    await newFile.getByRole('textbox').press('Delete');
    await newFile.getByRole('textbox').press('Control+a');
    expect(await dialog(page, 'Delete').count()).toBe(0);
    expect(await files.selectedNames()).toEqual(['one.txt']);
  });

  it('follow the permissions: no delete or rename dialog without them', async () => {
    const { page, files } = await login({ 'one.txt': '1' }, { delete: false, rename: false });
    await files.entry('one.txt').click();
    await page.keyboard.press('Delete');
    await page.keyboard.press('F2');
    await page.keyboard.press('F1');
    await dialog(page, 'Help').waitFor();
    expect(await dialog(page, 'Delete').count()).toBe(0);
    expect(await dialog(page, 'Rename').count()).toBe(0);
  });
});

describe('clipboard', () => {
  it('Ctrl+C and Ctrl+V copy an entry into another folder', async () => {
    const { page, files } = await login({ 'note.txt': 'hello', 'box/': '' });
    await files.entry('note.txt').click();
    await page.keyboard.press('Control+c');
    await files.open('box');
    await files.emptyMessage.waitFor();
    await page.keyboard.press('Control+v');
    await files.entry('note.txt').waitFor();
    await files.home.click();
    await files.entry('note.txt').waitFor();
  });

  it('Ctrl+X and Ctrl+V move an entry', async () => {
    const { page, files } = await login({ 'move-me.txt': 'x', 'target/': '' });
    await files.entry('move-me.txt').click();
    await page.keyboard.press('Control+x');
    await files.open('target');
    await files.emptyMessage.waitFor();
    await page.keyboard.press('Control+v');
    await files.entry('move-me.txt').waitFor();
    await files.home.click();
    await files.entry('target').waitFor();
    await expect.poll(() => files.entry('move-me.txt').count()).toBe(0);
  });
});

describe('toolbar', () => {
  it('opens each dialog by name from the header', async () => {
    const { page, files } = await login({ 'one.txt': '1' });
    await files.action('Info').click();
    await dialog(page, 'Info').waitFor();
    await page.keyboard.press('Escape');
    await files.entry('one.txt').click();
    for (const name of ['Rename', 'Copy', 'Move', 'Delete']) {
      await files.action(name).click();
      await dialog(page, name).waitFor();
      await page.keyboard.press('Escape');
      await dialog(page, name).waitFor({ state: 'detached' });
    }
    // The folder (nothing selected) downloads as an archive: the format is asked for.
    await page.keyboard.press('Escape');
    await files.action('Download').click();
    await dialog(page, 'Download').waitFor();
  });
});
