import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { PreviewPage } from '../pages/preview.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';
import { openPreview, type Credentials } from '../support/open-preview.ts';
import { waitForNotice } from '../support/notices.ts';

let page: Page;

const cabinet = withCabinet({
  files: {
    'code/app.js': 'const answer = 42;\n',
    'code/guard.txt': 'guarded\n',
    'code/refused.txt': 'original\n',
  },
});

async function open(encodedPath: string, name: string, user?: Credentials): Promise<PreviewPage> {
  let preview: PreviewPage;
  ({ page, preview } = await openPreview(cabinet, encodedPath, name, { user }));
  await preview.editor.waitFor();
  return preview;
}

const onDisk = (name: string) => readFile(path.join(cabinet.server.root, name), 'utf8');

describe('editing a text file', () => {
  it('highlights by extension, saves with Ctrl+S and shows the new text after a reload', async () => {
    const preview = await open('code/app.js', 'app.js');
    expect(await preview.editorText()).toBe('const answer = 42;\n');
    // The JavaScript grammar arrived: keywords and numbers are styled spans.
    await expect.poll(() => page.locator('.cm-content span').count()).toBeGreaterThan(1);
    expect(await page.locator('.cm-gutters .cm-lineNumbers').isVisible()).toBe(true);

    await page.keyboard.press('Control+End');
    await page.keyboard.type('console.log(answer);');
    await preview.unsavedMarker.waitFor();
    await expect.poll(() => page.title()).toMatch(/^● app\.js/);

    await page.keyboard.press('Control+s');
    await waitForNotice(page, 'app.js saved');
    await preview.unsavedMarker.waitFor({ state: 'detached' });
    await expect.poll(() => page.title()).toBe('app.js - Cabinet');
    expect(await onDisk('code/app.js')).toBe('const answer = 42;\nconsole.log(answer);');

    await page.reload();
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe('const answer = 42;\nconsole.log(answer);');
  });

  it('searches and replaces through the search panel', async () => {
    const preview = await open('code/app.js', 'app.js');
    await preview.search.click();
    const find = page.getByRole('textbox', { name: 'Find' });
    await find.fill('answer');
    await page.getByRole('textbox', { name: 'Replace' }).fill('reply');
    await page.getByRole('button', { name: 'replace all' }).click();
    await expect.poll(() => preview.editorText()).toContain('const reply');
    expect(await preview.editorText()).not.toContain('answer');
    await preview.unsavedMarker.waitFor();
  });

  it('asks before leaving with unsaved changes, and stays or leaves as told', async () => {
    const preview = await open('code/guard.txt', 'guard.txt');
    await page.locator('.cm-content').click();
    await page.keyboard.type('more ');
    await preview.unsavedMarker.waitFor();

    await preview.close.click();
    await preview.unsavedDialog.waitFor();
    await preview.unsavedDialog.getByRole('button', { name: 'Stay' }).click();
    await preview.unsavedDialog.waitFor({ state: 'detached' });
    expect(page.url()).toBe(`${cabinet.server.url}/files/code/guard.txt`);
    expect(await preview.editorText()).toContain('more ');

    // Esc in the editor does not close it (the editor keeps Esc for its own panels).
    await page.locator('.cm-content').click();
    await page.keyboard.press('Escape');
    expect(await preview.unsavedDialog.count()).toBe(0);
    expect(page.url()).toBe(`${cabinet.server.url}/files/code/guard.txt`);
    // Outside the text, Esc closes, and the guard asks again.
    await preview.save.focus();
    await page.keyboard.press('Escape');
    await preview.unsavedDialog.waitFor();
    await preview.unsavedDialog.getByRole('button', { name: 'Stay' }).click();
    await preview.unsavedDialog.waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'code' }).click();
    await preview.unsavedDialog.waitFor();
    await preview.unsavedDialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(`${cabinet.server.url}/files/code/`);
    expect(await onDisk('code/guard.txt')).toBe('guarded\n');
  });

  it('asks before going Back with unsaved changes, and stays or goes back as told', async () => {
    ({ page } = await cabinet.newPage());
    await loginThroughForm(page, cabinet.server.url, 'admin', cabinet.server.admin.password);
    const files = new FilesPage(page);
    await files.goto(cabinet.server.url, 'code/');
    await files.open('guard.txt');
    const preview = new PreviewPage(page);
    await preview.editor.waitFor();
    await page.locator('.cm-content').click();
    await page.keyboard.type('more ');
    await preview.unsavedMarker.waitFor();

    // Back has already happened in the browser: the guard undoes it while it asks.
    await page.goBack();
    await preview.unsavedDialog.waitFor();
    await preview.unsavedDialog.getByRole('button', { name: 'Stay' }).click();
    await preview.unsavedDialog.waitFor({ state: 'detached' });
    await page.waitForURL(`${cabinet.server.url}/files/code/guard.txt`);
    expect(await preview.editorText()).toContain('more ');

    await page.goBack();
    await preview.unsavedDialog.waitFor();
    await preview.unsavedDialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(`${cabinet.server.url}/files/code/`);
    await files.entry('guard.txt').waitFor();
    expect(await onDisk('code/guard.txt')).toBe('guarded\n');
  });

  it('keeps the text and says why when the server refuses the save', async () => {
    const editor = await cabinet.server.createUser({ perm: { modify: true } });
    const preview = await open('code/refused.txt', 'refused.txt', {
      username: editor.user.username,
      password: editor.password,
    });
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('precious work');

    // An administrator takes the modify permission away while the file is open.
    const record = (await cabinet.server.ctx.store.users.byId(editor.user.id))!;
    await cabinet.server.ctx.store.users.update({
      ...record,
      perm: { ...record.perm, modify: false },
    });

    await page.keyboard.press('Control+s');
    const error = new AppShell(page).notifications.getByText(/refused\.txt was not saved/);
    await error.waitFor();
    expect(await error.textContent()).toContain('Your changes are still in the editor.');
    expect(await preview.editorText()).toBe('original\nprecious work');
    await preview.unsavedMarker.waitFor();
    expect(await onDisk('code/refused.txt')).toBe('original\n');

    // The permission comes back: the next save succeeds and takes the outdated error away.
    await cabinet.server.ctx.store.users.update({ ...record, perm: { ...record.perm } });
    await page.keyboard.press('Control+s');
    await waitForNotice(page, 'refused.txt saved');
    await error.waitFor({ state: 'detached' });
    expect(await onDisk('code/refused.txt')).toBe('original\nprecious work');
  });
});
