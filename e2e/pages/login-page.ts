import type { Locator, Page } from 'playwright-core';

/** The sign-in screen, found by role and accessible name. */
export class LoginPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly passwordConfirmation: Locator;
  readonly loginButton: Locator;
  readonly signupButton: Locator;
  readonly signupToggle: Locator;
  /** The form's error message (role alert). */
  readonly error: Locator;

  constructor(readonly page: Page) {
    this.username = page.getByRole('textbox', { name: 'Username' });
    this.password = page.getByLabel('Password', { exact: true });
    this.passwordConfirmation = page.getByLabel('Password confirmation');
    this.loginButton = page.getByRole('button', { name: 'Login', exact: true });
    this.signupButton = page.getByRole('button', { name: 'Signup', exact: true });
    this.signupToggle = page.getByRole('button', { name: "Don't have an account?" });
    this.error = page.locator('.login').getByRole('alert');
  }

  /** Opens /login under the server's URL (which includes the base URL). */
  async goto(serverUrl: string, query = ''): Promise<void> {
    await this.page.goto(`${serverUrl}/login${query}`);
    await this.username.waitFor();
  }

  /** Fills the form and presses Login. */
  async login(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.loginButton.click();
  }

  /** Switches to signup mode, fills the form and presses Signup. */
  async signup(username: string, password: string, confirmation = password): Promise<void> {
    if (!(await this.signupButton.isVisible())) await this.signupToggle.click();
    await this.username.fill(username);
    await this.password.fill(password);
    await this.passwordConfirmation.fill(confirmation);
    await this.signupButton.click();
  }
}
