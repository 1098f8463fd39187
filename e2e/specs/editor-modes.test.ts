import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '@cabinet/server/testing';
import { AppShell } from '../pages/app-shell.ts';
import { PreviewPage } from '../pages/preview.ts';
import { launchBrowser, newPage } from '../support/browser.ts';
import { loginThroughForm } from '../support/session.ts';
import { seedFiles, startAppServer } from '../support/servers.ts';

let browser: Browser;
let server: TestServer;
let context: BrowserContext;
let page: Page;

const HOSTILE_HTML =
  '<!doctype html><title>page</title><script>window.top.__htmlRan = true</script><p>hi</p>\n';

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startAppServer();
  await seedFiles(server.root, {
    'notes/readme.md': '# Title\n\nBody text\n',
    'notes/plain.txt': 'read me only\n',
    'notes/page.html': HOSTILE_HTML,
  });
  // Above the server's 10 MiB text limit: no content, so no editor.
  await writeFile(path.join(server.root, 'notes/huge.log'), 'log line\n'.repeat(1_300_000));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

async function login(user = { username: 'admin', password: server.admin.password }) {
  ({ context, page } = await newPage(browser));
  await loginThroughForm(page, server.url, user.username, user.password);
  return new PreviewPage(page);
}

describe('editor modes', () => {
  it('opens a file read-only for a user without the modify permission', async () => {
    const reader = await server.createUser({ perm: { modify: false } });
    const preview = await login({ username: reader.user.username, password: reader.password });
    await preview.goto(server.url, 'notes/plain.txt');
    await preview.editor.waitFor();
    await preview.readOnlyMarker.waitFor();
    expect(await preview.save.count()).toBe(0);
    expect(await preview.editor.getAttribute('aria-readonly')).toBe('true');
    await page.locator('.cm-content').click();
    await page.keyboard.type('typed');
    expect(await preview.editorText()).toBe('read me only\n');
    expect(await preview.unsavedMarker.count()).toBe(0);
  });

  it('offers a download for a text file above the editor limit', async () => {
    const preview = await login();
    await preview.goto(server.url, 'notes/huge.log');
    await preview.waitFor('huge.log');
    await preview.downloadCard.getByRole('link', { name: 'Download huge.log' }).waitFor();
    expect(await preview.downloadCard.textContent()).toContain('11.2 MiB');
    expect(await preview.editor.count()).toBe(0);
  });

  it('renders Markdown and switches to the editor with Edit', async () => {
    const preview = await login();
    await preview.goto(server.url, 'notes/readme.md');
    await preview.markdown.getByRole('heading', { name: 'Title' }).waitFor();
    await preview.edit.click();
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe('# Title\n\nBody text\n');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('More');
    await page.keyboard.press('Control+s');
    await new AppShell(page).notifications.getByText('Saved').waitFor();
  });

  it('shows an HTML file as source and never runs it, in the page or opened directly', async () => {
    const preview = await login();
    await preview.goto(server.url, 'notes/page.html');
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe(HOSTILE_HTML);
    const reply = await page.request.get(`${server.url}/api/raw/notes/page.html?inline=true`);
    expect(reply.headers()['content-type']).toMatch(/^text\/plain/);
    await page.goto(`${server.url}/api/raw/notes/page.html?inline=true`);
    expect(await page.locator('body').textContent()).toContain('<script>');
    expect(
      await page.evaluate(() => (window as unknown as Record<string, unknown>).__htmlRan),
    ).toBeUndefined();
  });

  it('follows the dark theme', async () => {
    await server.updateSettings({
      branding: { ...(await server.ctx.settings.get()).branding, theme: 'dark' },
    });
    try {
      const preview = await login();
      await preview.goto(server.url, 'notes/plain.txt');
      await preview.editor.waitFor();
      const colours = await page.locator('.cm-editor').evaluate((editor) => {
        const style = getComputedStyle(editor);
        return [style.backgroundColor, style.color];
      });
      expect(colours).toEqual(['rgb(27, 30, 36)', 'rgb(231, 233, 237)']);
    } finally {
      await server.updateSettings({
        branding: { ...(await server.ctx.settings.get()).branding, theme: '' },
      });
    }
  });
});
