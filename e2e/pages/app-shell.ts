import type { Locator, Page } from 'playwright-core';

/** Header, sidebar and footer around every logged-in screen. */
export class AppShell {
  readonly sidebar: Locator;
  readonly myFiles: Locator;
  readonly newFolder: Locator;
  readonly newFile: Locator;
  readonly settings: Locator;
  readonly logoutButton: Locator;
  readonly loginLink: Locator;
  readonly signupLink: Locator;
  readonly sidebarToggle: Locator;
  readonly helpButton: Locator;
  readonly notifications: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole('navigation', { name: 'Main' });
    this.myFiles = this.sidebar.getByRole('link', { name: 'My files' });
    this.newFolder = this.sidebar.getByRole('button', { name: 'New folder' });
    this.newFile = this.sidebar.getByRole('button', { name: 'New file' });
    this.settings = this.sidebar.getByRole('link', { name: 'Settings' });
    this.logoutButton = this.sidebar.getByRole('button', { name: 'Logout' });
    this.loginLink = this.sidebar.getByRole('link', { name: 'Login' });
    this.signupLink = this.sidebar.getByRole('link', { name: 'Signup' });
    this.sidebarToggle = page.getByRole('button', { name: 'Toggle sidebar' });
    this.helpButton = page.getByRole('button', { name: 'Help' });
    this.notifications = page.getByRole('region', { name: 'Notifications' });
  }

  /** The path of the current URL below the server's URL (base URL removed). */
  routeOf(serverUrl: string): string {
    const url = this.page.url();
    return url.startsWith(serverUrl) ? url.slice(serverUrl.length) : url;
  }

  /** Logs out through the sidebar. */
  async logout(): Promise<void> {
    await this.logoutButton.click();
  }

  /** The main heading of an error page (403/404/500). */
  errorHeading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }
}
