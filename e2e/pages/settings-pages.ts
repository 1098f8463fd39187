import type { Locator, Page } from 'playwright-core';

/** The settings area: tab bar, cards and the user form, found by role and accessible name. */
export class SettingsPages {
  readonly tabs: Locator;
  readonly usersFilter: Locator;
  readonly usersTable: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly scope: Locator;
  readonly yourPassword: Locator;
  readonly lockPassword: Locator;
  readonly save: Locator;
  readonly deleteUser: Locator;

  constructor(readonly page: Page) {
    this.tabs = page.getByRole('navigation', { name: 'Settings' });
    this.usersFilter = page.getByRole('searchbox', { name: 'Filter by username' });
    this.usersTable = page.getByRole('table');
    this.username = page.getByRole('textbox', { name: 'Username' });
    this.password = page.getByLabel('Password', { exact: true });
    this.scope = page.getByRole('textbox', { name: 'Scope' });
    this.yourPassword = page.getByLabel('Your password', { exact: true });
    this.lockPassword = page.getByRole('checkbox', {
      name: 'Prevent the user from changing the password',
    });
    this.save = page.getByRole('button', { name: 'Save', exact: true });
    this.deleteUser = page.getByRole('button', { name: 'Delete', exact: true });
  }

  async goto(serverUrl: string, route: string): Promise<void> {
    await this.page.goto(`${serverUrl}/settings/${route}`);
  }

  /** A permission checkbox by its label, e.g. "Administrator" or "Share files". */
  perm(label: string): Locator {
    return this.page.getByRole('checkbox', { name: label, exact: true });
  }

  /** The n-th rule row's controls (1-based, as their labels count). */
  rule(n: number) {
    return {
      regex: this.page.getByRole('checkbox', { name: `Rule ${n}: regular expression` }),
      allow: this.page.getByRole('checkbox', { name: `Rule ${n}: allow` }),
      path: this.page.getByRole('textbox', { name: `Rule ${n}: path` }),
      pattern: this.page.getByRole('textbox', { name: `Rule ${n}: pattern` }),
      remove: this.page.getByRole('button', { name: `Remove rule ${n}` }),
    };
  }

  /** A success toast or error message with this text. */
  message(text: string | RegExp): Locator {
    return this.page.getByText(text);
  }
}
