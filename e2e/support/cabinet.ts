import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer, TestServerOptions, TestUser } from '@cabinet/server/testing';
import { OperationDialogs } from '../pages/dialogs.ts';
import { launchBrowser, newPage, type PageOptions } from './browser.ts';
import { seedFiles, startAppServer } from './servers.ts';
import { startRestartableServer, type RestartableServer } from './restartable-server.ts';
import { loginThroughForm } from './session.ts';
import { pageWithToken } from './token-session.ts';

export interface CabinetOptions {
  /** Files written into the root before the first test: keys are scope paths, "x/" a folder. */
  files?: Record<string, string>;
  /** Server options: configuration (base URL, auth method, …), a search gate. */
  server?: TestServerOptions;
  /** Runs once after the server is up and seeded: binary files, settings, users. */
  setup?: (server: TestServer) => Promise<void>;
  /** A server on a fixed port that tests stop and start again (`cabinet.restartable`). */
  restartable?: boolean;
}

/** A page of this test: its own context (cookies, storage), closed when the test ends. */
export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors, for asserts. */
  consoleErrors: string[];
  /**
   * What the app pages' CSP refused in this page; the test fails after it unless the test, having
   * checked that a refusal was the point (hostile content), empties the list.
   */
  cspViolations: string[];
}

/** One spec file's Cabinet: a real server over seeded files, one Chromium, fresh pages per test. */
export interface Cabinet {
  readonly server: TestServer;
  readonly browser: Browser;
  /** A fresh page, signed in to nothing. */
  newPage(options?: PageOptions): Promise<OpenedPage>;
  /** A fresh page signed in through the login form, as the admin unless `user` is given. */
  loginPage(options?: PageOptions & { user?: TestUser }): Promise<OpenedPage>;
  /**
   * A fresh page holding a token the server issued (the admin's unless `token` is given): skips
   * the login form and its password hashing for tests about something else.
   */
  tokenPage(options?: PageOptions & { token?: string }): Promise<OpenedPage>;
  /** Opens /files/<encodedPath> on a token page and waits for the listing. */
  open(encodedPath?: string, options?: PageOptions & { token?: string }): Promise<OperationDialogs>;
  /** Writes more files into the root (keys are scope paths; a trailing slash makes a folder). */
  seed(entries: Record<string, string>): Promise<void>;
  /** With `restartable: true`: stops, starts or restarts the server on the same port and data. */
  readonly restartable: RestartableServer;
}

/**
 * Sets up a spec file's Cabinet in its hooks: the server (127.0.0.1, an ephemeral port, a temp
 * root with `files`, a real SQLite file) and one Chromium start before the first test and stop
 * after the last; every page a test opens lives in its own context, closed after that test, so
 * tests stay independent while sharing the costly parts.
 */
export function withCabinet(options: CabinetOptions = {}): Cabinet {
  let browser: Browser | undefined;
  let server: TestServer | undefined;
  let restartable: RestartableServer | undefined;
  const contexts: BrowserContext[] = [];
  /** Refusals by the app pages' CSP in the contexts of the current test (fail it after). */
  const cspViolations: string[] = [];

  beforeAll(async () => {
    const starting = options.restartable
      ? startRestartableServer(options.server).then((r) => (restartable = r).instance())
      : startAppServer(options.server);
    [browser, server] = await Promise.all([launchBrowser(), starting]);
    await seedFiles(server.root, options.files ?? {});
    await options.setup?.(server);
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    const refused = cspViolations.splice(0);
    if (refused.length > 0) {
      throw new Error(`the page's Content-Security-Policy refused:\n${refused.join('\n')}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await (restartable ?? server)?.close();
  });

  const running = () => {
    if (!browser || !server) throw new Error('withCabinet: use the cabinet inside a test');
    return { browser, server: restartable?.instance() ?? server };
  };
  const track = (opened: OpenedPage) => {
    contexts.push(opened.context);
    opened.context.on('close', () => cspViolations.push(...opened.cspViolations));
    return opened;
  };

  const cabinet: Cabinet = {
    get server() {
      return running().server;
    },
    get browser() {
      return running().browser;
    },
    async newPage(pageOptions = {}) {
      return track(await newPage(running().browser, pageOptions));
    },
    async loginPage({ user, ...pageOptions } = {}) {
      const { server } = running();
      const opened = await cabinet.newPage(pageOptions);
      const who = user ?? server.admin;
      await loginThroughForm(opened.page, server.url, who.user.username, who.password);
      return opened;
    },
    async tokenPage({ token, ...pageOptions } = {}) {
      const { browser, server } = running();
      return track(await pageWithToken(browser, token ?? server.admin.token, pageOptions));
    },
    async open(encodedPath = '', pageOptions = {}) {
      const { page } = await cabinet.tokenPage(pageOptions);
      await page.goto(`${running().server.url}/files/${encodedPath}`);
      const dialogs = new OperationDialogs(page);
      await dialogs.files.listing.waitFor();
      return dialogs;
    },
    seed: (entries) => seedFiles(running().server.root, entries),
    get restartable() {
      if (!restartable) throw new Error('withCabinet: ask for `restartable: true`');
      return restartable;
    },
  };
  return cabinet;
}
