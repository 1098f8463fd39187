import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();

/** The button's background once its transitions have run, so a passing colour is not mistaken. */
async function settledBackground(button: Locator): Promise<string> {
  return button.evaluate(async (element) => {
    await Promise.all(element.getAnimations().map((animation) => animation.finished));
    return getComputedStyle(element).backgroundColor;
  });
}

/** What `var(--danger)` resolves to in the current theme, read from a probe element. */
async function dangerColour(button: Locator): Promise<string> {
  return button.evaluate((element) => {
    const probe = document.createElement('span');
    probe.style.backgroundColor = 'var(--danger)';
    element.ownerDocument.body.append(probe);
    const colour = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return colour;
  });
}

describe('delete', () => {
  it('asks "Delete this item?" and deletes the entry with Enter', async () => {
    await cabinet.seed({ 'd1/keep.txt': 'k', 'd1/gone.txt': 'g' });
    const ops = await cabinet.open('d1/');
    await ops.select('gone.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.getByText('Delete this item?').waitFor();
    await ops.page.keyboard.press('Enter');
    await ops.files.entry('gone.txt').waitFor({ state: 'detached' });
    expect(await ops.files.entryNames()).toEqual(['keep.txt']);
    expect(existsSync(path.join(cabinet.server.root, 'd1/gone.txt'))).toBe(false);
  });

  it('deletes several selected entries, folders included', async () => {
    await cabinet.seed({
      'd2/a.txt': 'a',
      'd2/b.txt': 'b',
      'd2/sub/inner.txt': 'i',
      'd2/c.txt': 'c',
    });
    const ops = await cabinet.open('d2/');
    await ops.select('sub', 'a.txt', 'b.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.getByText('Delete these 3 items?').waitFor();
    await ops.button(ops.deleteDialog, 'Delete').click();
    await ops.deleteDialog.waitFor({ state: 'detached' });
    await expect.poll(() => ops.files.entryNames()).toEqual(['c.txt']);
    expect(existsSync(path.join(cabinet.server.root, 'd2/sub'))).toBe(false);
  });

  it('keeps everything when the dialog is cancelled with Esc', async () => {
    await cabinet.seed({ 'd3/stay.txt': 's' });
    const ops = await cabinet.open('d3/');
    await ops.select('stay.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.waitFor();
    await ops.page.keyboard.press('Escape');
    await ops.deleteDialog.waitFor({ state: 'detached' });
    expect(await ops.files.entryNames()).toEqual(['stay.txt']);
    expect(existsSync(path.join(cabinet.server.root, 'd3/stay.txt'))).toBe(true);
  });

  it('shows the error and reloads when the entry vanished meanwhile', async () => {
    await cabinet.seed({ 'd4/vanishing.txt': 'v', 'd4/other.txt': 'o' });
    const ops = await cabinet.open('d4/');
    await ops.select('vanishing.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.waitFor();
    // Gone once the dialog is open: before, the folder on screen may already have dropped it
    // (it follows the disk) and there would be nothing left to delete.
    await rm(path.join(cabinet.server.root, 'd4/vanishing.txt'));
    await ops.button(ops.deleteDialog, 'Delete').click();
    await ops.notifications.getByRole('alert').waitFor();
    expect(await ops.errorMessages()).toEqual(["This location can't be reached."]);
    await expect.poll(() => ops.files.entryNames()).toEqual(['other.txt']);
  });

  it('surfaces the server refusing a folder that holds a file the user may not touch', async () => {
    await cabinet.seed({ 'd5/locked/secret.txt': 's', 'd5/locked/open.txt': 'o' });
    const user = await cabinet.server.createUser({
      perm: { delete: true },
      rules: [{ regex: false, allow: false, path: '/d5/locked/secret.txt' }],
    });
    const ops = await cabinet.open('d5/', { token: user.token });
    await ops.select('locked');
    await ops.page.keyboard.press('Delete');
    await ops.button(ops.deleteDialog, 'Delete').click();
    await ops.notifications.getByRole('alert').waitFor();
    expect(await ops.errorMessages()).toEqual(["You don't have permissions to access this."]);
    expect(existsSync(path.join(cabinet.server.root, 'd5/locked/open.txt'))).toBe(true);
    expect(await ops.files.entryNames()).toEqual(['locked']);
  });

  it('keeps the Delete button red when hovered, focused or pressed, in both themes', async () => {
    await cabinet.seed({ 'd6/red.txt': 'r' });
    const ops = await cabinet.open('d6/');
    await ops.select('red.txt');
    await ops.page.keyboard.press('Delete');
    const remove = ops.button(ops.deleteDialog, 'Delete');
    await remove.waitFor();
    for (const theme of ['light', 'dark']) {
      await ops.page.evaluate((name) => (document.documentElement.dataset.theme = name), theme);
      const danger = await dangerColour(remove);
      // Leave the button, then check each state against the token, not against a blue hover.
      await ops.page.mouse.move(0, 0);
      expect(await settledBackground(remove)).toBe(danger);
      await remove.hover();
      expect(await settledBackground(remove)).toBe(danger);
      await remove.focus();
      expect(await settledBackground(remove)).toBe(danger);
      await ops.page.mouse.down();
      expect(await settledBackground(remove)).toBe(danger);
      // Released away from the button, so the press does not delete.
      await ops.page.mouse.move(0, 0);
      await ops.page.mouse.up();
    }
    expect(existsSync(path.join(cabinet.server.root, 'd6/red.txt'))).toBe(true);
  });
});
