import type { Browser } from 'playwright-core';
import { newPage, type PageOptions } from './browser.ts';

/**
 * A page already signed in with a token the test server issued: the token is put where the app
 * keeps it (localStorage "jwt") before the app starts, and the app renews it at start-up as it
 * does after any visit. Skips the login form (and its password hashing) for tests about
 * something else.
 */
export async function pageWithToken(
  browser: Browser,
  token: string,
  options: PageOptions = {},
): ReturnType<typeof newPage> {
  const opened = await newPage(browser, options);
  await opened.context.addInitScript((jwt) => {
    if (!localStorage.getItem('jwt')) localStorage.setItem('jwt', jwt);
  }, token);
  return opened;
}
