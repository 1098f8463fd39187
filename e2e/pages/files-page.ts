import type { Locator, Page } from 'playwright-core';

/** The files view: breadcrumbs, the listing table, the empty state. */
export class FilesPage {
  readonly breadcrumbs: Locator;
  readonly home: Locator;
  readonly listing: Locator;
  readonly emptyMessage: Locator;

  constructor(readonly page: Page) {
    this.breadcrumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    this.home = this.breadcrumbs.getByRole('link', { name: 'Home' });
    this.listing = page.getByRole('table', { name: /^Contents of/ });
    this.emptyMessage = page.getByText('Nothing here yet');
  }

  /** Opens /files/<path> (path already URL-encoded, folder paths ending with "/"). */
  async goto(serverUrl: string, encodedPath = ''): Promise<void> {
    await this.page.goto(`${serverUrl}/files/${encodedPath}`);
  }

  /** The link that opens an entry of the listing. */
  entry(name: string): Locator {
    return this.listing.getByRole('link', { name, exact: true });
  }

  /** Names of the listing's entries, top to bottom. */
  async entryNames(): Promise<string[]> {
    return this.listing.getByRole('row').getByRole('link').allTextContents();
  }

  /** The breadcrumb links after Home, in order. */
  async crumbNames(): Promise<string[]> {
    return (await this.breadcrumbs.getByRole('link').allTextContents()).filter(Boolean);
  }
}
