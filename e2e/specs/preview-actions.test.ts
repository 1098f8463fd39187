import { access, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { png } from '../fixtures/preview-fixtures.ts';
import { OperationDialogs } from '../pages/dialogs.ts';
import { FilesPage } from '../pages/files-page.ts';
import { PreviewPage } from '../pages/preview.ts';
import { withCabinet } from '../support/cabinet.ts';
import { openPreview } from '../support/open-preview.ts';

let page: Page;

const cabinet = withCabinet({
  files: {
    'trip/': '',
    'lonely/only.bin': 'x',
    'named/old name.bin': 'rename me',
    'keys/': '',
  },
  setup: async (server) => {
    for (const name of ['trip/1.png', 'trip/2.png', 'trip/3.png', 'keys/a.png', 'keys/b.png']) {
      await writeFile(path.join(server.root, name), await png());
    }
  },
});

async function open(encodedPath: string, name: string): Promise<PreviewPage> {
  let preview: PreviewPage;
  ({ page, preview } = await openPreview(cabinet, encodedPath, name));
  return preview;
}

const exists = (name: string) =>
  access(path.join(cabinet.server.root, name)).then(
    () => true,
    () => false,
  );

async function deleteFromPreview(preview: PreviewPage): Promise<void> {
  const dialogs = new OperationDialogs(page);
  await preview.delete.click();
  await dialogs.deleteDialog.getByRole('button', { name: 'Delete' }).click();
  await dialogs.deleteDialog.waitFor({ state: 'detached' });
}

describe('actions in the preview', () => {
  it('deleting moves to the next item, then the previous, then back to the folder', async () => {
    const preview = await open('trip/2.png', '2.png');
    await preview.next.waitFor();
    await deleteFromPreview(preview);
    await preview.waitFor('3.png');
    expect(await exists('trip/2.png')).toBe(false);
    expect(page.url()).toBe(`${cabinet.server.url}/files/trip/3.png`);
    await preview.previous.waitFor();

    await deleteFromPreview(preview);
    await preview.waitFor('1.png');
    await deleteFromPreview(preview);
    await page.waitForURL(`${cabinet.server.url}/files/trip/`);
    await new FilesPage(page).emptyMessage.waitFor();
  });

  it('renaming goes to the new name', async () => {
    const preview = await open('named/old%20name.bin', 'old name.bin');
    const dialogs = new OperationDialogs(page);
    await preview.rename.click();
    const field = dialogs.renameDialog.getByRole('textbox');
    await field.fill('new name.bin');
    await dialogs.renameDialog.getByRole('button', { name: 'Rename' }).click();
    await preview.waitFor('new name.bin');
    expect(page.url()).toBe(`${cabinet.server.url}/files/named/new%20name.bin`);
    expect(await exists('named/new name.bin')).toBe(true);
    expect(await exists('named/old name.bin')).toBe(false);
  });

  it('shows the file in the info dialog, and preview keys wait while a dialog is open', async () => {
    const preview = await open('keys/a.png', 'a.png');
    await preview.next.waitFor();
    const dialogs = new OperationDialogs(page);
    await preview.info.click();
    await dialogs.infoDialog.waitFor();
    expect(await dialogs.infoDialog.textContent()).toContain('a.png');

    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Escape');
    await dialogs.infoDialog.waitFor({ state: 'detached' });
    // Esc closed the dialog only; Right did not move while it was open.
    expect(page.url()).toBe(`${cabinet.server.url}/files/keys/a.png`);
    await page.keyboard.press('ArrowRight');
    await preview.waitFor('b.png');
  });

  it('downloads the file through the download button', async () => {
    const preview = await open('lonely/only.bin', 'only.bin');
    const [download] = await Promise.all([page.waitForEvent('download'), preview.download.click()]);
    expect(download.suggestedFilename()).toBe('only.bin');
    expect(await download.failure()).toBeNull();
  });
});
