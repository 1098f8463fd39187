import type { Locator, Page } from 'playwright-core';
import { FilesPage } from './files-page.ts';

/**
 * The file operation dialogs (info, delete, rename, move, copy, download, the clash prompts) and
 * the listing gestures that open them: selecting entries, the header's buttons, the shortcuts.
 */
export class OperationDialogs {
  readonly files: FilesPage;
  readonly deleteDialog: Locator;
  readonly renameDialog: Locator;
  readonly moveDialog: Locator;
  readonly copyDialog: Locator;
  readonly infoDialog: Locator;
  readonly downloadDialog: Locator;
  /** Replace / Rename / Cancel after a rename, move, copy or paste clash. */
  readonly replaceRename: Locator;
  /** Replace / Cancel (uploads). */
  readonly replace: Locator;
  readonly notifications: Locator;

  constructor(readonly page: Page) {
    this.files = new FilesPage(page);
    this.deleteDialog = page.getByRole('dialog', { name: 'Delete' });
    this.renameDialog = page.getByRole('dialog', { name: 'Rename' });
    this.moveDialog = page.getByRole('dialog', { name: 'Move' });
    this.copyDialog = page.getByRole('dialog', { name: 'Copy' });
    this.infoDialog = page.getByRole('dialog', { name: 'Info' });
    this.downloadDialog = page.getByRole('dialog', { name: 'Download' });
    this.replaceRename = page.getByRole('dialog', { name: 'Name already taken' });
    this.replace = page.getByRole('dialog', { name: 'Replace?' });
    this.notifications = page.getByRole('region', { name: 'Notifications' });
  }

  /** Any open dialog. */
  anyDialog(): Locator {
    return this.page.getByRole('dialog');
  }

  /** Selects entries of the listing: a click on the first, ctrl+click on the others. */
  async select(...names: string[]): Promise<void> {
    const [first, ...rest] = names;
    await this.files.entry(first!).click();
    for (const name of rest) await this.files.entry(name).click({ modifiers: ['ControlOrMeta'] });
  }

  /**
   * Opens a sibling of the folder on screen inside the app (breadcrumb up, then double-click),
   * as a user would; a page load would start the app afresh and lose its clipboard.
   */
  async goToSibling(name: string): Promise<void> {
    const crumbs = this.files.breadcrumbs.getByRole('link');
    const count = await crumbs.count();
    await crumbs.nth(count - 2).click();
    await this.files.entry(name).dblclick();
  }

  /** A button of the header's selection actions, by its accessible name. */
  action(name: string): Locator {
    return this.page.getByRole('banner').getByRole('button', { name, exact: true });
  }

  /** A button of a dialog, by its exact name. */
  button(dialog: Locator, name: string): Locator {
    return dialog.getByRole('button', { name, exact: true });
  }

  /** The folder picker's list of folders in a move or copy dialog. */
  folderList(dialog: Locator): Locator {
    return dialog.getByRole('listbox');
  }

  /** A folder of the picker. */
  folderOption(dialog: Locator, name: string): Locator {
    return dialog.getByRole('option', { name, exact: true });
  }

  /** The picker's "up" button. */
  goUp(dialog: Locator): Locator {
    return dialog.getByRole('button', { name: 'Go to the parent folder' });
  }

  /** The messages of the error notifications on screen. */
  async errorMessages(): Promise<string[]> {
    return this.notifications.getByRole('alert').getByRole('paragraph').allTextContents();
  }
}
