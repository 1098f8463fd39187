import type { Locator, Page } from 'playwright-core';

/**
 * The files view: breadcrumbs, the listing (a grid with column headings in list view, a grid of
 * cards in mosaic view), the
 * selection banner, the header toolbar (buttons on wide screens, a more-menu on phones) and the
 * empty state.
 */
export class FilesPage {
  readonly breadcrumbs: Locator;
  readonly home: Locator;
  /** The listing in either view. */
  readonly listing: Locator;
  /** The list view's grid (the one with column headings). */
  readonly table: Locator;
  /** The mosaic view's grid (sort buttons above it, no column headings). */
  readonly mosaic: Locator;
  readonly emptyMessage: Locator;
  /** "N selected" with its clear button. */
  readonly selectionBanner: Locator;
  readonly clearSelection: Locator;
  readonly header: Locator;
  readonly moreActions: Locator;
  readonly moreMenu: Locator;

  constructor(readonly page: Page) {
    this.breadcrumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
    this.home = this.breadcrumbs.getByRole('link', { name: 'Home' });
    const grids = page.getByRole('grid', { name: /^Contents of/ });
    this.table = grids.filter({ has: page.getByRole('columnheader') });
    this.mosaic = grids.filter({ hasNot: page.getByRole('columnheader') });
    this.listing = this.table.or(this.mosaic);
    this.emptyMessage = page.getByText('Nothing here yet');
    this.selectionBanner = page.getByRole('status').filter({ hasText: /selected$/ });
    this.clearSelection = page.getByRole('button', { name: 'Clear selection' });
    this.header = page.getByRole('banner');
    this.moreActions = this.header.getByRole('button', { name: 'More actions' });
    this.moreMenu = page.getByRole('menu', { name: 'More actions' });
  }

  /** Opens /files/<path> (path already URL-encoded, folder paths ending with "/"). */
  async goto(serverUrl: string, encodedPath = ''): Promise<void> {
    await this.page.goto(`${serverUrl}/files/${encodedPath}`);
  }

  /** The link that names an entry of the listing. */
  entry(name: string): Locator {
    return this.listing.getByRole('link', { name, exact: true });
  }

  /** The row (list view) or card (mosaic view) of an entry; it carries aria-selected. */
  item(name: string): Locator {
    return this.listing
      .locator('[aria-selected]')
      .filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }

  /** Opens an entry the way a mouse user does: double-click. */
  async open(name: string): Promise<void> {
    await this.entry(name).dblclick();
  }

  /** Names of the listing's rendered entries, top to bottom. */
  async entryNames(): Promise<string[]> {
    return this.listing.getByRole('link').allTextContents();
  }

  /** Names of the selected entries, in listing order. */
  async selectedNames(): Promise<string[]> {
    return this.listing.locator('[aria-selected="true"]').getByRole('link').allTextContents();
  }

  /** The breadcrumb links after Home, in order. */
  async crumbNames(): Promise<string[]> {
    return (await this.breadcrumbs.getByRole('link').allTextContents()).filter(Boolean);
  }

  /** A toolbar button of the header (wide screens). */
  action(name: string): Locator {
    return this.header.getByRole('button', { name, exact: true });
  }

  /** A column heading of the list view (carries aria-sort) and its sort button. */
  column(name: string): Locator {
    return this.table.getByRole('columnheader', { name });
  }

  sortButton(name: string): Locator {
    return this.table.getByRole('columnheader', { name }).getByRole('button');
  }

  /** An item of the phone more-menu (open it first with moreActions). */
  menuItem(name: string): Locator {
    return this.moreMenu.getByRole('menuitem', { name, exact: true });
  }
}
