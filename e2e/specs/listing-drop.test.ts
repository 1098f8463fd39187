import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { withCabinet } from '../support/cabinet.ts';
import { seedFiles } from '../support/servers.ts';

const cabinet = withCabinet();

/** A user whose scope is a fresh folder holding `entries`; returns the scope on disk too. */
async function login(
  entries: Record<string, string>,
): Promise<{ page: Page; files: FilesPage; root: string }> {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const root = `${cabinet.server.root}${scope}`;
  await seedFiles(root, entries);
  const user = await cabinet.server.createUser({ viewMode: 'list', scope });
  const { page } = await cabinet.loginPage({ user });
  const files = new FilesPage(page);
  await files.listing.waitFor();
  return { page, files, root };
}

/**
 * Drops a file "from the desktop" on an element: the drag events a browser fires, carrying a
 * DataTransfer with a real File (Playwright cannot drag from outside the page).
 */
async function dropDesktopFile(target: Locator, fileName: string, content: string) {
  const accepted = await target.evaluate(
    (element, [fileName, content]) => {
      const data = new DataTransfer();
      data.items.add(new File([content!], fileName!, { type: 'text/plain' }));
      const fire = (type: string) =>
        element.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      fire('dragenter');
      // A drop target cancels dragover; otherwise the browser would refuse the drop.
      const isAccepted = !fire('dragover');
      fire('drop');
      return isAccepted;
    },
    [fileName, content],
  );
  expect(accepted).toBe(true);
}

describe('drag and drop', () => {
  it('moves entries dragged onto a folder, the whole selection when a selected one is dragged', async () => {
    const { files, root } = await login({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c', 'box/': '' });
    await files.entry('a.txt').dragTo(files.entry('box'));
    await expect.poll(() => files.entry('a.txt').count()).toBe(0);
    expect(await readFile(`${root}/box/a.txt`, 'utf8')).toBe('a');

    await files.entry('b.txt').click();
    await files.entry('c.txt').click({ modifiers: ['Control'] });
    await files.entry('c.txt').dragTo(files.entry('box'));
    await expect.poll(() => files.entryNames()).toEqual(['box']);
    await files.open('box');
    await expect.poll(() => files.entryNames()).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('highlights where a desktop file would land and uploads it there', async () => {
    const { files, root } = await login({ 'inbox/': '', 'old.txt': 'old' });
    await dropDesktopFile(files.listing, 'dropped.txt', 'from the desktop');
    await files.entry('dropped.txt').waitFor();
    expect(await readFile(`${root}/dropped.txt`, 'utf8')).toBe('from the desktop');

    await dropDesktopFile(files.item('inbox'), 'into-folder.txt', 'into the folder');
    await expect
      .poll(() => readFile(`${root}/inbox/into-folder.txt`, 'utf8').catch(() => ''))
      .toBe('into the folder');
    expect(await files.entry('into-folder.txt').count()).toBe(0);
  });

  it('shows the drop highlight on the folder under the pointer only', async () => {
    const { files } = await login({ 'inbox/': '', 'note.txt': 'n' });
    const highlighted = await files.item('inbox').evaluate((row) => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'x.txt'));
      row.dispatchEvent(
        new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
      );
      return [...document.querySelectorAll('[data-drop-active="true"]')].map((el) =>
        el.textContent?.includes('inbox') ? 'inbox' : el.className,
      );
    });
    expect(highlighted).toEqual(['inbox']);
    const overFile = await files.item('note.txt').evaluate((row) => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'x.txt'));
      row.dispatchEvent(
        new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }),
      );
      return [...document.querySelectorAll('[data-drop-active="true"]')].map((el) => el.className);
    });
    // Over a file the whole listing (the folder on screen) is the target.
    expect(overFile).toEqual(['folder-listing']);
  });
});
