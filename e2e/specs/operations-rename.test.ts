import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();

/** The rename field's value and selected range. */
function fieldState(ops: { renameDialog: import('playwright-core').Locator }) {
  return ops.renameDialog.getByRole('textbox').evaluate((input: HTMLInputElement) => ({
    value: input.value,
    selected: input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
    focused: document.activeElement === input,
  }));
}

describe('rename', () => {
  it('pre-fills the name with the part before the extension selected, and renames on Enter', async () => {
    await cabinet.seed({ 'r1/report.draft.txt': 'r' });
    const ops = await cabinet.open('r1/');
    await ops.select('report.draft.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.waitFor();
    expect(await fieldState(ops)).toEqual({
      value: 'report.draft.txt',
      selected: 'report.draft',
      focused: true,
    });
    await ops.page.keyboard.type('final');
    await ops.page.keyboard.press('Enter');
    await ops.files.entry('final.txt').waitFor();
    expect(await ops.files.entryNames()).toEqual(['final.txt']);
    expect(await readFile(path.join(cabinet.server.root, 'r1/final.txt'), 'utf8')).toBe('r');
  });

  it('trims the name and refuses an empty one or one with a slash', async () => {
    await cabinet.seed({ 'r2/folder/': '' });
    const ops = await cabinet.open('r2/');
    await ops.select('folder');
    await ops.page.keyboard.press('F2');
    const field = ops.renameDialog.getByRole('textbox');
    await field.fill('   ');
    await ops.page.keyboard.press('Enter');
    expect(await ops.renameDialog.getByRole('alert').textContent()).toBe('Please enter a name.');
    await field.fill('a/b');
    await ops.button(ops.renameDialog, 'Rename').click();
    expect(await ops.renameDialog.getByRole('alert').textContent()).toBe(
      'A name cannot be "." or ".." or contain slashes.',
    );
    await field.fill('  renamed folder  ');
    await ops.page.keyboard.press('Enter');
    await ops.files.entry('renamed folder').waitFor();
    expect(await ops.files.entryNames()).toEqual(['renamed folder']);
  });

  it('on a clash, Replace overwrites the other entry', async () => {
    await cabinet.seed({ 'r3/new.txt': 'new content', 'r3/old.txt': 'old content' });
    const ops = await cabinet.open('r3/');
    await ops.select('new.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.getByRole('textbox').fill('old.txt');
    await ops.page.keyboard.press('Enter');
    await ops.replaceRename
      .getByText('"old.txt" already exists there.', { exact: false })
      .waitFor();
    await ops.button(ops.replaceRename, 'Replace').click();
    await expect.poll(() => ops.files.entryNames()).toEqual(['old.txt']);
    expect(await readFile(path.join(cabinet.server.root, 'r3/old.txt'), 'utf8')).toBe(
      'new content',
    );
  });

  it('on a clash, Rename (Enter) keeps both under a free name', async () => {
    await cabinet.seed({ 'r4/new.txt': 'new', 'r4/old.txt': 'old' });
    const ops = await cabinet.open('r4/');
    await ops.select('new.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.getByRole('textbox').fill('old.txt');
    await ops.page.keyboard.press('Enter');
    await ops.replaceRename.waitFor();
    await ops.page.keyboard.press('Enter');
    await expect.poll(() => ops.files.entryNames()).toEqual(['old(1).txt', 'old.txt']);
    expect(await readFile(path.join(cabinet.server.root, 'r4/old(1).txt'), 'utf8')).toBe('new');
  });

  it('on a clash, Cancel leaves both entries as they were', async () => {
    await cabinet.seed({ 'r5/new.txt': 'new', 'r5/old.txt': 'old' });
    const ops = await cabinet.open('r5/');
    await ops.select('new.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.getByRole('textbox').fill('old.txt');
    await ops.page.keyboard.press('Enter');
    await ops.button(ops.replaceRename, 'Cancel').click();
    await ops.replaceRename.waitFor({ state: 'detached' });
    expect(await ops.files.entryNames()).toEqual(['new.txt', 'old.txt']);
  });

  it('surfaces the refusal of Replace for a user who may not modify files', async () => {
    await cabinet.seed({ 'r6/new.txt': 'new', 'r6/old.txt': 'old' });
    const user = await cabinet.server.createUser({ perm: { rename: true, modify: false } });
    const ops = await cabinet.open('r6/', { token: user.token });
    await ops.select('new.txt');
    await ops.page.keyboard.press('F2');
    await ops.renameDialog.getByRole('textbox').fill('old.txt');
    await ops.page.keyboard.press('Enter');
    await ops.button(ops.replaceRename, 'Replace').click();
    await ops.notifications.getByRole('alert').waitFor();
    expect(await ops.errorMessages()).toEqual(["You don't have permissions to access this."]);
    expect(await readFile(path.join(cabinet.server.root, 'r6/old.txt'), 'utf8')).toBe('old');
  });
});
