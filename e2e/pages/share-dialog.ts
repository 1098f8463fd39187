import type { Locator, Page } from 'playwright-core';

/** The share dialog of the files view: the item's links and the new-link form. */
export class ShareDialog {
  readonly dialog: Locator;
  readonly links: Locator;
  readonly duration: Locator;
  readonly unit: Locator;
  readonly password: Locator;
  readonly downloadLimit: Locator;
  readonly create: Locator;
  readonly permanent: Locator;

  constructor(readonly page: Page) {
    this.dialog = page.getByRole('dialog', { name: 'Share' });
    this.links = this.dialog
      .getByRole('list', { name: 'Links to this item' })
      .getByRole('listitem');
    this.duration = this.dialog.getByRole('spinbutton', { name: 'Valid for' });
    this.unit = this.dialog.getByRole('combobox', { name: 'Unit' });
    this.password = this.dialog.getByLabel('Password (optional)');
    this.downloadLimit = this.dialog.getByRole('spinbutton', { name: 'Download limit (optional)' });
    this.create = this.dialog.getByRole('button', { name: 'Create link', exact: true });
    this.permanent = this.dialog.getByRole('button', { name: 'Permanent link', exact: true });
  }

  /** The addresses of the listed links, in the order shown. */
  async urls(): Promise<string[]> {
    return this.links.getByRole('link').allTextContents();
  }
}
