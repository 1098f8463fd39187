import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { seedFiles } from '../support/servers.ts';
import {
  desktopFolder,
  onFiles,
  randomDesktopFile,
  type UploadSession,
} from '../support/upload-fixtures.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet();

/** A user (list view) whose scope is a fresh folder holding `entries`. */
async function signIn(
  entries: Record<string, string>,
  perm: Record<string, boolean> = {},
  rules: { regex: boolean; allow: boolean; path: string }[] = [],
): Promise<UploadSession & { root: string }> {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const root = path.join(cabinet.server.root, scope);
  await mkdir(root, { recursive: true });
  await seedFiles(root, entries);
  const user = await cabinet.server.createUser({ viewMode: 'list', scope, perm, rules });
  const session = await onFiles(await cabinet.loginPage({ user }));
  return { ...session, root };
}

describe('uploading files with the Upload button', () => {
  it('uploads several files, lists them with their sizes and stores their bytes', async () => {
    const { files, uploads, root, page } = await signIn({ 'old.txt': 'old' });
    const desktop = await desktopFolder({ 'notes.txt': 'hello upload', 'empty.txt': '' });
    const photo = await randomDesktopFile(desktop, 'photo.bin', 3 * 1024 * 1024 + 17);
    await uploads.uploadFiles([
      path.join(desktop, 'notes.txt'),
      path.join(desktop, 'empty.txt'),
      photo.file,
    ]);

    await waitForNotice(page, 'Upload complete');
    await files.entry('photo.bin').waitFor();
    expect((await files.entryNames()).sort()).toEqual([
      'empty.txt',
      'notes.txt',
      'old.txt',
      'photo.bin',
    ]);
    expect(await files.item('photo.bin').getByRole('cell').nth(1).textContent()).toBe('3.0 MiB');
    expect(await files.item('notes.txt').getByRole('cell').nth(1).textContent()).toBe('12 B');
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('hello upload');
    expect(await readFile(path.join(root, 'empty.txt'), 'utf8')).toBe('');
    expect((await readFile(path.join(root, 'photo.bin'))).equals(photo.content)).toBe(true);
    // The run is over: the panel leaves with its progress.
    await uploads.panel.waitFor({ state: 'hidden' });
  });

  it('offers files and folder in a menu operable from the keyboard', async () => {
    const { page, uploads } = await signIn({});
    await uploads.uploadButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Upload' });
    await menu.waitFor();
    expect(await uploads.uploadButton.getAttribute('aria-expanded')).toBe('true');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Upload files');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Upload folder');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Upload');
  });

  it('asks before replacing: Cancel keeps the original, Replace overwrites it', async () => {
    const { page, files, uploads, root } = await signIn({ 'report.txt': 'original' });
    const desktop = await desktopFolder({ 'report.txt': 'the new version' });
    const replace = page.getByRole('dialog', { name: 'Replace?' });

    await uploads.uploadFiles([path.join(desktop, 'report.txt')]);
    // The prompt names the file, isolated (FSI … PDI) so a right-to-left name keeps its order.
    await replace
      .getByText('"\u2068report.txt\u2069" already exists here. Replace it?', { exact: true })
      .waitFor();
    await replace.getByRole('button', { name: 'Cancel' }).click();
    await replace.waitFor({ state: 'hidden' });
    expect(await uploads.panel.count()).toBe(0);
    expect(await readFile(path.join(root, 'report.txt'), 'utf8')).toBe('original');

    await uploads.uploadFiles([path.join(desktop, 'report.txt')]);
    await replace.getByRole('button', { name: 'Replace' }).click();
    await waitForNotice(page, 'Upload complete');
    expect(await readFile(path.join(root, 'report.txt'), 'utf8')).toBe('the new version');
    await expect
      .poll(() => files.item('report.txt').getByRole('cell').nth(1).textContent())
      .toBe('15 B');
  });

  it('offers only Cancel on a clash to a user who may not replace, and keeps the original', async () => {
    const { page, uploads, root } = await signIn({ 'kept.txt': 'keep me' }, { modify: false });
    const desktop = await desktopFolder({ 'kept.txt': 'overwrite' });
    await uploads.uploadFiles([path.join(desktop, 'kept.txt')]);
    const prompt = page.getByRole('dialog', { name: 'Name already taken' });
    await prompt
      .getByText(
        '"\u2068kept.txt\u2069" already exists here, and you are not allowed to replace it.',
        {
          exact: true,
        },
      )
      .waitFor();
    expect(await prompt.getByRole('button').allTextContents()).toEqual(['Cancel']);
    await page.keyboard.press('Enter');
    await prompt.waitFor({ state: 'detached' });
    expect(await uploads.panel.count()).toBe(0);
    expect(await readFile(path.join(root, 'kept.txt'), 'utf8')).toBe('keep me');
  });

  it('shows a failed file in the panel and an error notice while the others go on', async () => {
    // A rule hides locked.txt from the user: the server refuses its upload (403).
    const { page, uploads, root } = await signIn({}, {}, [
      { regex: false, allow: false, path: '/locked.txt' },
    ]);
    const desktop = await desktopFolder({ 'locked.txt': 'overwrite', 'fresh.txt': 'fresh' });
    await uploads.uploadFiles([path.join(desktop, 'locked.txt'), path.join(desktop, 'fresh.txt')]);

    await page.getByRole('alert').filter({ hasText: 'locked.txt was not uploaded' }).waitFor();
    await uploads
      .row('locked.txt')
      .filter({ hasText: /403|permission/i })
      .waitFor();
    // The panel sits above the notification, never over it.
    const toasts = page.getByRole('region', { name: 'Notifications' });
    await expect
      .poll(async () => {
        const panel = (await uploads.panel.boundingBox())!;
        return (await toasts.boundingBox())!.y - (panel.y + panel.height);
      })
      .toBeGreaterThanOrEqual(0);
    await expect.poll(() => readFile(path.join(root, 'fresh.txt'), 'utf8')).toBe('fresh');
    expect(existsSync(path.join(root, 'locked.txt'))).toBe(false);
    await uploads.dismiss('locked.txt').click();
    await uploads.panel.waitFor({ state: 'hidden' });
  });

  it('has no Upload button for a user without the create permission', async () => {
    const { files, uploads } = await signIn({ 'a.txt': 'a' }, { create: false });
    await files.entry('a.txt').waitFor();
    expect(await uploads.uploadButton.count()).toBe(0);
  });
});
