import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Dialog } from 'playwright-core';
import { withCabinet } from '../support/cabinet.ts';
import {
  desktopFolder,
  onFiles,
  randomDesktopFile,
  throttle,
  type UploadSession,
} from '../support/upload-fixtures.ts';
import { waitForNotice } from '../support/notices.ts';

const MiB = 1024 * 1024;

const cabinet = withCabinet();
let desktop: string;
let big: { file: string; content: Buffer };

beforeAll(async () => {
  desktop = await desktopFolder({ 'small-a.txt': 'aaa', 'small-b.txt': 'bbbb' });
  big = await randomDesktopFile(desktop, 'big.bin', 64 * MiB);
});

async function signIn(): Promise<UploadSession & { root: string }> {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const root = path.join(cabinet.server.root, scope);
  await mkdir(root, { recursive: true });
  const user = await cabinet.server.createUser({ viewMode: 'list', scope });
  const session = await onFiles(await cabinet.loginPage({ user }));
  return { ...session, root };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

// Throttled transfers and server restarts, each wait bounded above: a budget for a busy machine.
describe('upload progress', { timeout: 180_000 }, () => {
  it('shows total and per-file progress with speed and time left for a big file', async () => {
    const { page, files, uploads, root } = await signIn();
    await throttle(page, 24 * MiB);
    await uploads.uploadFiles([big.file]);

    await expect.poll(() => uploads.percent(uploads.total), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await uploads.percent(uploads.total)).toBeLessThan(100);
    const row = uploads.row('big.bin');
    await row.filter({ hasText: / of 64\.0 MiB · .+\/s · .+ left$/ }).waitFor();
    expect(await uploads.percent(uploads.progress('big.bin'))).toBeLessThan(100);

    await waitForNotice(page, 'Upload complete', { timeout: 50_000 });
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

    await waitForNotice(page, 'Upload complete');
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
