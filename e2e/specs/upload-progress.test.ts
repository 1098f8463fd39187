import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Dialog } from 'playwright-core';
import type { TestServer } from '@cabinet/server/testing';
import { launchBrowser } from '../support/browser.ts';
import { startAppServer } from '../support/servers.ts';
import {
  desktopFolder,
  openFilesAs,
  randomDesktopFile,
  throttle,
  type UploadSession,
} from '../support/upload-fixtures.ts';

const MiB = 1024 * 1024;

let browser: Browser;
let server: TestServer;
let context: BrowserContext | undefined;
let desktop: string;
let big: { file: string; content: Buffer };

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startAppServer();
  desktop = await desktopFolder({ 'small-a.txt': 'aaa', 'small-b.txt': 'bbbb' });
  big = await randomDesktopFile(desktop, 'big.bin', 64 * MiB);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

async function signIn(): Promise<UploadSession & { root: string }> {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const root = path.join(server.root, scope);
  await mkdir(root, { recursive: true });
  const user = await server.createUser({ viewMode: 'list', scope });
  const session = await openFilesAs(browser, server.url, user.user.username, user.password);
  context = session.context;
  return { ...session, root };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('upload progress', () => {
  it('shows total and per-file progress with speed and time left for a big file', async () => {
    const { page, files, uploads, root } = await signIn();
    await throttle(page, 24 * MiB);
    await uploads.uploadFiles([big.file]);

    await expect.poll(() => uploads.percent(uploads.total), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await uploads.percent(uploads.total)).toBeLessThan(100);
    const row = uploads.row('big.bin');
    await row.filter({ hasText: / of 64\.0 MiB · .+\/s · .+ left$/ }).waitFor();
    expect(await uploads.percent(uploads.progress('big.bin'))).toBeLessThan(100);

    await page
      .getByRole('status')
      .filter({ hasText: 'Upload complete' })
      .waitFor({ timeout: 50_000 });
    await files.entry('big.bin').waitFor();
    expect(await files.item('big.bin').getByRole('cell').nth(1).textContent()).toBe('64.0 MiB');
    expect(sha256(await readFile(path.join(root, 'big.bin')))).toBe(sha256(big.content));
  });

  it('cancels one upload: nothing of it stays on the server, the others complete', async () => {
    const { page, files, uploads, root } = await signIn();
    await throttle(page, 4 * MiB);
    await uploads.uploadFiles([
      big.file,
      path.join(desktop, 'small-a.txt'),
      path.join(desktop, 'small-b.txt'),
    ]);
    await expect.poll(() => uploads.percent(uploads.progress('big.bin'))).toBeGreaterThan(0);
    await uploads.cancel('big.bin').click();
    await uploads.row('big.bin').waitFor({ state: 'detached' });

    await page.getByRole('status').filter({ hasText: 'Upload complete' }).waitFor();
    await files.entry('small-b.txt').waitFor();
    expect((await files.entryNames()).sort()).toEqual(['small-a.txt', 'small-b.txt']);
    // The server dropped the partial upload (DELETE): no file and no hidden staging file.
    await expect
      .poll(() => readdir(root).then((names) => names.sort()))
      .toEqual(['small-a.txt', 'small-b.txt']);
  });

  it('warns before leaving the page while uploading, and not once the run is over', async () => {
    const { page, uploads } = await signIn();
    await throttle(page, 2 * MiB);
    const dialogs: string[] = [];
    page.on('dialog', (dialog: Dialog) => {
      dialogs.push(dialog.type());
      void dialog.dismiss();
    });
    await uploads.uploadFiles([big.file]);
    await expect.poll(() => uploads.percent(uploads.total)).toBeGreaterThan(0);

    await page.close({ runBeforeUnload: true });
    await expect.poll(() => dialogs).toEqual(['beforeunload']);
    expect(page.isClosed()).toBe(false);

    await uploads.cancelAll.click();
    await uploads.panel.waitFor({ state: 'hidden' });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => page.isClosed()).toBe(true);
    expect(dialogs).toEqual(['beforeunload']);
  });
});
