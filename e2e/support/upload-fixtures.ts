import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { UploadPanel } from '../pages/upload-panel.ts';
import { seedFiles } from './servers.ts';

/** A folder on "the user's computer" holding the given entries (keys as for seedFiles). */
export async function desktopFolder(entries: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'cabinet-e2e-desktop-'));
  await seedFiles(folder, entries);
  return folder;
}

/** Writes `size` random bytes into a file of a desktop folder and returns its path and bytes. */
export async function randomDesktopFile(
  folder: string,
  name: string,
  size: number,
): Promise<{ file: string; content: Buffer }> {
  const content = randomBytes(size);
  const file = path.join(folder, name);
  await writeFile(file, content);
  return { file, content };
}

/** A signed-in page on the files view, with its page objects. */
export interface UploadSession {
  context: BrowserContext;
  page: Page;
  files: FilesPage;
  uploads: UploadPanel;
}

/** The files view of a page that has just signed in, once its listing (or empty folder) shows. */
export async function onFiles(opened: {
  context: BrowserContext;
  page: Page;
}): Promise<UploadSession> {
  const { context, page } = opened;
  const files = new FilesPage(page);
  await files.listing.or(files.emptyMessage).waitFor();
  return { context, page, files, uploads: new UploadPanel(page) };
}

/** Slows the page's network so that progress can be watched (bytes per second each way). */
export async function throttle(page: Page, bytesPerSecond: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/**
 * Drops files and folders of the local disk on an element, as a drag from the desktop would:
 * Chromium's input layer builds the DataTransfer from the real paths, folders included (with
 * their entries), which a DataTransfer made in the page cannot hold.
 */
export async function dropFromDesktop(page: Page, target: Locator, paths: string[]): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the drop target is not visible');
  const x = box.x + Math.min(20, box.width / 2);
  const y = box.y + box.height / 2;
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  const cdp = await page.context().newCDPSession(page);
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
    await cdp.send('Input.dispatchDragEvent', { type, x, y, data });
  }
  await cdp.detach();
}
