import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { SettingsPages } from '../pages/settings-pages.ts';

const cabinet = withCabinet();

/** The focused element, named as a user would know it, or where focus is when not in the dialog. */
function focused(dialog: Locator): Promise<string> {
  return dialog.evaluate((element) => {
    const active = document.activeElement;
    if (!active || !element.contains(active)) return `outside the dialog: ${active?.tagName}`;
    if (active instanceof HTMLInputElement) return `field ${active.labels?.[0]?.textContent}`;
    return active.textContent?.trim() || active.getAttribute('aria-label') || active.tagName;
  });
}

/** Presses `key` once per expected stop and checks each stop, so no press may land outside. */
async function expectCycle(page: Page, dialog: Locator, key: string, stops: string[]) {
  const seen: string[] = [];
  for (let press = 0; press < stops.length; press++) {
    await page.keyboard.press(key);
    seen.push(await focused(dialog));
  }
  expect(seen).toEqual(stops);
}

/** Whether a page element behind the dialog can take focus (it must not: the page is inert). */
function takesFocus(element: Locator): Promise<boolean> {
  return element.evaluate((target) => {
    (target as HTMLElement).focus();
    return document.activeElement === target;
  });
}

describe('focus in dialogs', () => {
  it('Tab and Shift+Tab cycle inside the delete dialog without passing through the page', async () => {
    await cabinet.seed({ 'trap/a.txt': 'a', 'trap/b.txt': 'b' });
    const ops = await cabinet.open('trap/');
    await ops.select('a.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.getByText('Delete this item?').waitFor();
    await expect.poll(() => focused(ops.deleteDialog)).toBe('Delete');

    await expectCycle(ops.page, ops.deleteDialog, 'Tab', ['Cancel', 'Delete', 'Cancel', 'Delete']);
    await expectCycle(ops.page, ops.deleteDialog, 'Shift+Tab', [
      'Cancel',
      'Delete',
      'Cancel',
      'Delete',
    ]);
    expect(await takesFocus(ops.files.entry('b.txt'))).toBe(false);

    // The trap ends with the dialog: focus goes back to the listing.
    await ops.page.keyboard.press('Escape');
    await ops.deleteDialog.waitFor({ state: 'detached' });
    expect(await takesFocus(ops.files.entry('b.txt'))).toBe(true);
  });

  it('Tab and Shift+Tab cycle inside the settings’ delete-user dialog, its field included', async () => {
    const target = await cabinet.server.createUser({ username: 'trapped' });
    const admin = await cabinet.loginPage();
    const ui = new SettingsPages(admin.page);
    await ui.goto(cabinet.server.url, `users/${target.user.id}`);
    await ui.deleteUser.click();
    const dialog = admin.page.getByRole('dialog', { name: 'Delete user' });
    await dialog.getByText('Are you sure you want to delete this user?').waitFor();
    await expect.poll(() => focused(dialog)).toBe('field Your password');

    const forward = ['Cancel', 'Delete', 'field Your password'];
    await expectCycle(admin.page, dialog, 'Tab', [...forward, ...forward]);
    const backward = ['Delete', 'Cancel', 'field Your password'];
    await expectCycle(admin.page, dialog, 'Shift+Tab', [...backward, ...backward]);
    expect(await takesFocus(ui.save)).toBe(false);
  });
});
