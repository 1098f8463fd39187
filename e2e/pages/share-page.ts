import type { Locator, Page } from 'playwright-core';

/** The public page of a link, `/share/{hash}`, as a visitor without an account sees it. */
export class PublicSharePage {
  readonly heading: Locator;
  readonly contents: Locator;
  readonly download: Locator;
  readonly format: Locator;
  readonly password: Locator;
  readonly open: Locator;
  readonly qrCode: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('main').getByRole('heading', { level: 1 });
    this.contents = page.getByRole('list', { name: 'Contents' });
    this.download = page.getByRole('link', { name: 'Download' });
    this.format = page.getByRole('combobox', { name: 'Download as' });
    this.password = page.getByLabel('Password', { exact: true });
    this.open = page.getByRole('button', { name: 'Open', exact: true });
    this.qrCode = page.getByRole('img', { name: 'QR code of the link' });
  }

  /** An entry of a shared folder, by name. */
  entry(name: string): Locator {
    return this.contents.getByRole('link', { name: new RegExp(`^${escape(name)}\\b`) });
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
