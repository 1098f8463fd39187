import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { seedFiles } from '../support/servers.ts';
import {
  desktopFolder,
  dropFromDesktop,
  onFiles,
  type UploadSession,
} from '../support/upload-fixtures.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet();

/** A user (list view) whose scope is a fresh folder holding `entries`. */
async function signIn(entries: Record<string, string>): Promise<UploadSession & { root: string }> {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const root = path.join(cabinet.server.root, scope);
  await mkdir(root, { recursive: true });
  await seedFiles(root, entries);
  const user = await cabinet.server.createUser({ viewMode: 'list', scope });
  const session = await onFiles(await cabinet.loginPage({ user }));
  return { ...session, root };
}

const ALBUM = {
  'album/cover.txt': 'cover',
  'album/empty.txt': '',
  'album/2024/summer/beach.txt': 'sand',
  'album/nothing/': '',
};

describe('uploading folders', () => {
  it('uploads a folder chosen with Upload folder, nested files and an empty file included', async () => {
    const { page, files, uploads, root } = await signIn({ 'other.txt': 'x' });
    const desktop = await desktopFolder(ALBUM);
    await uploads.uploadFolder(path.join(desktop, 'album'));

    await waitForNotice(page, 'Upload complete');
    await files.entry('album').waitFor();
    expect(await readFile(path.join(root, 'album/2024/summer/beach.txt'), 'utf8')).toBe('sand');
    expect(await readFile(path.join(root, 'album/cover.txt'), 'utf8')).toBe('cover');
    expect((await stat(path.join(root, 'album/empty.txt'))).size).toBe(0);
    await files.open('album');
    await files.entry('2024').waitFor();
    expect((await files.entryNames()).sort()).toEqual(['2024', 'cover.txt', 'empty.txt']);
  });

  it('uploads a folder dropped from the desktop, empty sub-folders included', async () => {
    const { page, files, root } = await signIn({ 'other.txt': 'x' });
    const desktop = await desktopFolder({ ...ALBUM, 'loose.txt': 'loose' });
    await dropFromDesktop(page, files.listing, [
      path.join(desktop, 'album'),
      path.join(desktop, 'loose.txt'),
    ]);

    await waitForNotice(page, 'Upload complete');
    await files.entry('album').waitFor();
    expect((await readdir(path.join(root, 'album'))).sort()).toEqual([
      '2024',
      'cover.txt',
      'empty.txt',
      'nothing',
    ]);
    expect(await readdir(path.join(root, 'album/nothing'))).toEqual([]);
    expect(await readFile(path.join(root, 'loose.txt'), 'utf8')).toBe('loose');
    expect(await readFile(path.join(root, 'album/2024/summer/beach.txt'), 'utf8')).toBe('sand');
  });

  it('checks only the top-level folder name against the target', async () => {
    const { page, files, uploads, root } = await signIn({
      'cover.txt': 'not in the way',
      'album/cover.txt': 'old cover',
    });
    const desktop = await desktopFolder(ALBUM);
    const replace = page.getByRole('dialog', { name: 'Replace?' });

    await uploads.uploadFolder(path.join(desktop, 'album'));
    await replace.getByRole('button', { name: 'Cancel' }).click();
    expect(await readFile(path.join(root, 'album/cover.txt'), 'utf8')).toBe('old cover');
    expect(await uploads.panel.count()).toBe(0);

    await uploads.uploadFolder(path.join(desktop, 'album'));
    await replace.getByRole('button', { name: 'Replace' }).click();
    await waitForNotice(page, 'Upload complete');
    expect(await readFile(path.join(root, 'album/cover.txt'), 'utf8')).toBe('cover');
    expect(await readFile(path.join(root, 'cover.txt'), 'utf8')).toBe('not in the way');
    await files.entry('album').waitFor();
  });
});

describe('dropping desktop files', () => {
  it('uploads files dropped on the listing into the folder on screen', async () => {
    const { page, files, root } = await signIn({ 'first.txt': '1' });
    // A drop as a page script sees it: a DataTransfer holding File objects.
    await files.listing.evaluate((listing) => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }));
      data.items.add(new File([''], 'blank.txt'));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        listing.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
      }
    });
    await waitForNotice(page, 'Upload complete');
    await files.entry('dropped.txt').waitFor();
    expect(await readFile(path.join(root, 'dropped.txt'), 'utf8')).toBe('dropped bytes');
    expect((await stat(path.join(root, 'blank.txt'))).size).toBe(0);
  });

  it('uploads into the folder the files are dropped on', async () => {
    const { page, files, root } = await signIn({ 'inbox/': '', 'top.txt': 't' });
    const desktop = await desktopFolder({ 'letter.txt': 'dear' });
    await dropFromDesktop(page, files.item('inbox'), [path.join(desktop, 'letter.txt')]);
    await waitForNotice(page, 'Upload complete');
    expect(await readFile(path.join(root, 'inbox/letter.txt'), 'utf8')).toBe('dear');
    expect((await files.entryNames()).sort()).toEqual(['inbox', 'top.txt']);
  });
});
