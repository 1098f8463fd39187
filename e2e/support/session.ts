import type { Page } from 'playwright-core';
import { LoginPage } from '../pages/login-page.ts';

/** Logs in through the form and waits until the app has left the login page. */
export async function loginThroughForm(
  page: Page,
  serverUrl: string,
  username: string,
  password: string,
): Promise<void> {
  const login = new LoginPage(page);
  await login.goto(serverUrl);
  await login.login(username, password);
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

/** The token the app keeps between visits (localStorage "jwt"), or null. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => localStorage.getItem('jwt'));
}

/** The path (with query) of the page's URL below the server's URL. */
export function routeOf(page: Page, serverUrl: string): string {
  const url = page.url();
  return url.startsWith(serverUrl) ? url.slice(serverUrl.length) : url;
}
