import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet({ files: { 'one.txt': '1', 'two.txt': '2', 'folder/': '' } });

async function login(
  perm: Record<string, boolean> = {},
  width = 1280,
): Promise<{ page: Page; files: FilesPage }> {
  const user = await cabinet.server.createUser({ viewMode: 'list', perm });
  const { page } = await cabinet.newPage({ width, height: width > 736 ? 800 : 844 });
  await loginThroughForm(page, cabinet.server.url, user.user.username, user.password);
  const files = new FilesPage(page);
  await files.entry('one.txt').waitFor();
  return { page, files };
}

const SELECTION_ACTIONS = ['Rename', 'Copy', 'Move', 'Delete'];
const GENERAL_ACTIONS = ['Info', 'Download', 'Switch to mosaic view', 'Select multiple'];

/** Names of the header's toolbar buttons that are shown. */
async function shownActions(files: FilesPage): Promise<string[]> {
  const names = [...SELECTION_ACTIONS, ...GENERAL_ACTIONS];
  const shown: string[] = [];
  for (const name of names) if ((await files.action(name).count()) > 0) shown.push(name);
  if ((await files.header.getByRole('button', { name: /upload/i }).count()) > 0) {
    shown.push('Upload');
  }
  return shown;
}

describe('toolbar gating', () => {
  it('offers selection actions by count: rename needs exactly one', async () => {
    const { files } = await login();
    expect(await shownActions(files)).toEqual([...GENERAL_ACTIONS, 'Upload']);
    await files.entry('one.txt').click();
    expect(await shownActions(files)).toEqual([...SELECTION_ACTIONS, ...GENERAL_ACTIONS, 'Upload']);
    await files.entry('two.txt').click({ modifiers: ['Control'] });
    expect(await shownActions(files)).toEqual([
      'Copy',
      'Move',
      'Delete',
      ...GENERAL_ACTIONS,
      'Upload',
    ]);
  });

  it('shows only what a restricted user may do', async () => {
    const { page, files } = await login({
      create: false,
      rename: false,
      delete: false,
      download: false,
    });
    await files.entry('one.txt').click();
    expect(await shownActions(files)).toEqual(['Info', 'Switch to mosaic view', 'Select multiple']);
    // Dragging an entry onto a folder is a move, which needs rename: the folder refuses it.
    await files.entry('one.txt').dragTo(files.entry('folder'));
    await files.open('folder');
    await files.emptyMessage.waitFor();
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(0);
  });

  it.each<[Record<string, boolean>, string[]]>([
    [{ create: false, delete: false }, ['Rename', 'Move']],
    [{ rename: false, delete: false }, ['Copy']],
    [{ create: false, rename: false }, ['Delete']],
  ])('with %j a selected entry offers %j', async (perm, actions) => {
    const { files } = await login(perm);
    await files.entry('one.txt').click();
    const shown = await shownActions(files);
    expect(shown.filter((name) => SELECTION_ACTIONS.includes(name))).toEqual(actions);
    expect(shown.includes('Upload')).toBe(perm.create !== false);
  });
});

describe('more-menu on phones', () => {
  it('holds the actions at 390 px, works from the keyboard and closes with Esc', async () => {
    const { page, files } = await login({}, 390);
    expect(await files.action('Info').count()).toBe(0);
    await files.entry('one.txt').click();

    await files.moreActions.click();
    await files.moreMenu.waitFor();
    expect(await files.moreActions.getAttribute('aria-expanded')).toBe('true');
    const items = await files.moreMenu
      .locator('[role="menuitem"], [role="menuitemcheckbox"]')
      .allTextContents();
    // One entry selected by a user who may share: Share joins the selection actions.
    expect(items).toEqual(['Rename', 'Copy', 'Move', 'Share', 'Delete', ...GENERAL_ACTIONS]);
    const focused = () => page.evaluate(() => document.activeElement?.textContent);
    expect(await focused()).toBe('Rename');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Copy');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Select multiple');
    await page.keyboard.press('Escape');
    await files.moreMenu.waitFor({ state: 'detached' });
    expect(await files.moreActions.evaluate((el) => el === document.activeElement)).toBe(true);
    // Esc closed the menu only: the selection stays.
    expect(await files.selectedNames()).toEqual(['one.txt']);

    await page.keyboard.press('Enter');
    await files.menuItem('Info').click();
    await page.getByRole('dialog', { name: 'Info' }).waitFor();
    await page.keyboard.press('Escape');

    await files.moreActions.click();
    await files.moreMenu.getByRole('menuitemcheckbox', { name: 'Select multiple' }).click();
    await files.moreActions.click();
    expect(
      await files.moreMenu
        .getByRole('menuitemcheckbox', { name: 'Select multiple' })
        .getAttribute('aria-checked'),
    ).toBe('true');
    // A tap elsewhere closes the menu.
    await page.mouse.click(200, 600);
    await files.moreMenu.waitFor({ state: 'detached' });
  });

  it('gates the menu like the toolbar', async () => {
    const { files } = await login(
      { create: false, rename: false, delete: false, share: false },
      390,
    );
    await files.entry('one.txt').click();
    await files.moreActions.click();
    const items = await files.moreMenu
      .locator('[role="menuitem"], [role="menuitemcheckbox"]')
      .allTextContents();
    expect(items).toEqual(GENERAL_ACTIONS);
    expect(await files.header.getByRole('button', { name: /upload/i }).count()).toBe(0);
  });
});
