import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PreviewPage } from '../pages/preview.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

let page: Page;

const HOSTILE_HTML =
  '<!doctype html><title>page</title><script>window.top.__htmlRan = true</script><p>hi</p>\n';

const cabinet = withCabinet({
  files: {
    'notes/readme.md': '# Title\n\nBody text\n',
    'notes/plain.txt': 'read me only\n',
    'notes/page.html': HOSTILE_HTML,
  },
  setup: async (server) => {
    // Above the server's 10 MiB text limit: no content, so no editor.
    await writeFile(path.join(server.root, 'notes/huge.log'), 'log line\n'.repeat(1_300_000));
  },
});

async function login(user = { username: 'admin', password: cabinet.server.admin.password }) {
  ({ page } = await cabinet.newPage());
  await loginThroughForm(page, cabinet.server.url, user.username, user.password);
  return new PreviewPage(page);
}

describe('editor modes', () => {
  it('opens a file read-only for a user without the modify permission', async () => {
    const reader = await cabinet.server.createUser({ perm: { modify: false } });
    const preview = await login({ username: reader.user.username, password: reader.password });
    await preview.goto(cabinet.server.url, 'notes/plain.txt');
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
    await preview.goto(cabinet.server.url, 'notes/huge.log');
    await preview.waitFor('huge.log');
    await preview.downloadCard.getByRole('link', { name: 'Download huge.log' }).waitFor();
    expect(await preview.downloadCard.textContent()).toContain('11.2 MiB');
    expect(await preview.editor.count()).toBe(0);
  });

  it('renders Markdown and switches to the editor with Edit', async () => {
    const preview = await login();
    await preview.goto(cabinet.server.url, 'notes/readme.md');
    await preview.markdown.getByRole('heading', { name: 'Title' }).waitFor();
    await preview.edit.click();
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe('# Title\n\nBody text\n');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('More');
    await page.keyboard.press('Control+s');
    await waitForNotice(page, 'readme.md saved');
  });

  it('shows an HTML file as source and never runs it, in the page or opened directly', async () => {
    const preview = await login();
    await preview.goto(cabinet.server.url, 'notes/page.html');
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe(HOSTILE_HTML);
    const reply = await page.request.get(
      `${cabinet.server.url}/api/raw/notes/page.html?inline=true`,
    );
    expect(reply.headers()['content-type']).toMatch(/^text\/plain/);
    await page.goto(`${cabinet.server.url}/api/raw/notes/page.html?inline=true`);
    expect(await page.locator('body').textContent()).toContain('<script>');
    expect(
      await page.evaluate(() => (window as unknown as Record<string, unknown>).__htmlRan),
    ).toBeUndefined();
  });

  it('follows the dark theme', async () => {
    await cabinet.server.updateSettings({
      branding: { ...(await cabinet.server.ctx.settings.get()).branding, theme: 'dark' },
    });
    try {
      const preview = await login();
      await preview.goto(cabinet.server.url, 'notes/plain.txt');
      await preview.editor.waitFor();
      const colours = await page.locator('.cm-editor').evaluate((editor) => {
        const style = getComputedStyle(editor);
        return [style.backgroundColor, style.color];
      });
      expect(colours).toEqual(['rgb(27, 30, 36)', 'rgb(231, 233, 237)']);
    } finally {
      await cabinet.server.updateSettings({
        branding: { ...(await cabinet.server.ctx.settings.get()).branding, theme: '' },
      });
    }
  });
});
