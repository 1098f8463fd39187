import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer, TestServerOptions } from '@cabinet/server/testing';
import { OperationDialogs } from '../pages/dialogs.ts';
import { launchBrowser, type PageOptions } from './browser.ts';
import { seedFiles, startAppServer } from './servers.ts';
import { pageWithToken } from './token-session.ts';

/** One server and one Chromium per spec file, a fresh signed-in page per test. */
export interface OperationsFixture {
  readonly server: TestServer;
  /** Opens /files/<encodedPath> as the admin (or the user of `token`) and waits for the listing. */
  open(encodedPath?: string, options?: PageOptions & { token?: string }): Promise<OperationDialogs>;
  /** Writes more files into the root (keys are scope paths; a trailing slash makes a folder). */
  seed(entries: Record<string, string>): Promise<void>;
}

/** Sets up the spec file's server (seeded with `entries`) and browser, and closes them after. */
export function useOperationsFixture(
  entries: Record<string, string> = {},
  serverOptions: TestServerOptions = {},
): OperationsFixture {
  let browser: Browser;
  let server: TestServer;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startAppServer(serverOptions);
    await seedFiles(server.root, entries);
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    get server() {
      return server;
    },
    async open(encodedPath = '', options = {}) {
      const opened = await pageWithToken(browser, options.token ?? server.admin.token, options);
      context = opened.context;
      const page: Page = opened.page;
      await page.goto(`${server.url}/files/${encodedPath}`);
      const dialogs = new OperationDialogs(page);
      await dialogs.files.listing.waitFor();
      return dialogs;
    },
    seed: (more) => seedFiles(server.root, more),
  };
}
