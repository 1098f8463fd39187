import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';

let page: Page;

const cabinet = withCabinet({
  files: {
    'b-notes.txt': 'notes',
    'a-report.pdf': '%PDF-1.4',
    'zeta/': '',
    'alpha/': '',
    'empty/': '',
    'with space & ü/inner.txt': 'x',
    'one/two/three/four/five/deep.txt': 'deep',
  },
  setup: async (server) => {
    // These checks read the list view's columns; the views themselves are tested in listing-*.
    const update = await server.fetch(`/api/users/${server.admin.user.id}`, {
      method: 'PUT',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        what: 'user',
        which: ['viewMode'],
        data: { id: server.admin.user.id, viewMode: 'list' },
      }),
    });
    expect(update.status).toBe(200);
  },
});

async function adminPage(): Promise<Page> {
  ({ page } = await cabinet.newPage());
  await loginThroughForm(page, cabinet.server.url, 'admin', cabinet.server.admin.password);
  return page;
}

describe('folder listing', () => {
  it('lists folders first, then files, with sizes and dates', async () => {
    const page = await adminPage();
    const files = new FilesPage(page);
    await files.listing.waitFor();
    const names = await files.entryNames();
    const folders = ['alpha', 'empty', 'one', 'with space & ü', 'zeta'];
    expect(names.slice(0, folders.length).sort()).toEqual(folders);
    expect(names.slice(folders.length).sort()).toEqual(['a-report.pdf', 'b-notes.txt']);
    const notesRow = files.listing.getByRole('row').filter({ hasText: 'b-notes.txt' });
    expect(await notesRow.getByRole('cell').nth(1).textContent()).toBe('5 B');
    expect(await notesRow.locator('time').getAttribute('datetime')).toBeTruthy();
  });

  it('opens a folder on double-click, encodes its name in the URL and titles the page with it', async () => {
    const page = await adminPage();
    const files = new FilesPage(page);
    await files.open('with space & ü');
    await page.waitForURL(`${cabinet.server.url}/files/with%20space%20%26%20%C3%BC/`);
    await files.entry('inner.txt').waitFor();
    await expect.poll(() => page.title()).toBe('with space & ü - Cabinet');
    expect(await files.crumbNames()).toEqual(['with space & ü']);
    await files.home.click();
    await page.waitForURL(`${cabinet.server.url}/files/`);
    await files.entry('zeta').waitFor();
  });

  it('keeps only the last three breadcrumb segments behind an ellipsis', async () => {
    const page = await adminPage();
    const files = new FilesPage(page);
    await files.goto(cabinet.server.url, 'one/two/three/four/five/');
    await files.entry('deep.txt').waitFor();
    expect(await files.crumbNames()).toEqual(['three', 'four', 'five']);
    expect(await files.breadcrumbs.getByText('…').isVisible()).toBe(true);
    await files.breadcrumbs.getByRole('link', { name: 'four' }).click();
    await page.waitForURL(`${cabinet.server.url}/files/one/two/three/four/`);
    await files.entry('five').waitFor();
  });

  it('says "Nothing here yet" in an empty folder and offers to fill it', async () => {
    const page = await adminPage();
    const files = new FilesPage(page);
    await files.goto(cabinet.server.url, 'empty/');
    await files.emptyMessage.waitFor();
    expect(await page.getByRole('button', { name: 'New folder' }).count()).toBe(2);
  });

  it('adds the trailing slash to a folder URL', async () => {
    const page = await adminPage();
    await new FilesPage(page).goto(cabinet.server.url, 'alpha');
    await page.waitForURL(`${cabinet.server.url}/files/alpha/`);
  });

  it('shows the not-found page for a path that does not exist', async () => {
    const page = await adminPage();
    await new FilesPage(page).goto(cabinet.server.url, 'no-such-folder/');
    expect(await new AppShell(page).errorHeading().textContent()).toBe(
      "This location can't be reached.",
    );
  });

  it('shows a file with its size and a download link', async () => {
    const page = await adminPage();
    const files = new FilesPage(page);
    await files.open('b-notes.txt');
    await page.waitForURL(`${cabinet.server.url}/files/b-notes.txt`);
    await page.getByRole('heading', { name: 'b-notes.txt' }).waitFor();
    const download = page.getByRole('link', { name: 'Download' });
    expect(await download.getAttribute('href')).toBe('/api/raw/b-notes.txt');
    await expect.poll(() => page.title()).toBe('b-notes.txt - Cabinet');
  });

  it('creates a folder from the sidebar and opens it', async () => {
    const page = await adminPage();
    const shell = new AppShell(page);
    await new FilesPage(page).entry('alpha').waitFor();
    await shell.newFolder.click();
    const dialog = page.getByRole('dialog', { name: 'New folder' });
    await dialog.getByRole('textbox').fill('  fresh  ');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`${cabinet.server.url}/files/fresh/`);
    await new FilesPage(page).emptyMessage.waitFor();

    await shell.myFiles.click();
    await shell.newFolder.click();
    await dialog.getByRole('textbox').fill('fresh');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).toBe(
      'An item with this name already exists here.',
    );
    await page.keyboard.press('Escape');
    expect(await dialog.count()).toBe(0);
  });
});

describe('scope', () => {
  it('a user sees only their own scope', async () => {
    await cabinet.seed({ 'users/pat/mine.txt': 'pat' });
    const pat = await cabinet.server.createUser({ username: 'pat', scope: '/users/pat' });
    ({ page } = await cabinet.newPage());
    await loginThroughForm(page, cabinet.server.url, 'pat', pat.password);
    const files = new FilesPage(page);
    await files.entry('mine.txt').waitFor();
    expect(await files.entryNames()).toEqual(['mine.txt']);
  });
});
