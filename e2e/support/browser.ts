import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { recordNoticesIn } from './notices.ts';

/** Debian's Chromium; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep a headless Chromium quiet, offline from Google services, and runnable as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Launches Debian's Chromium through playwright-core. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface PageOptions {
  /** Viewport width in CSS pixels (default 1280). */
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
  reducedMotion?: 'reduce' | 'no-preference';
  /** The browser's language (default en-US). */
  locale?: string;
}

/**
 * A fresh context (own cookies and storage) and page; console errors are collected for asserts
 * and notifications recorded for `waitForNotice`.
 */
export async function newPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  cspViolations: string[];
}> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: options.reducedMotion ?? 'reduce',
    locale: options.locale ?? 'en-US',
  });
  await recordNoticesIn(context);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  // What the app's own pages' policy blocked (docs/security.md): a script, style, image or
  // connection the app needs must never be refused. Files opened directly (/api/raw…) run under
  // the download sandbox, whose refusals are the point.
  const cspViolations: string[] = [];
  context.on('console', (message) => {
    const where = message.location().url;
    if (message.text().includes('Content Security Policy') && !where.includes('/api/')) {
      cspViolations.push(`${where}: ${message.text()}`);
    }
  });
  return { context, page, consoleErrors, cspViolations };
}
