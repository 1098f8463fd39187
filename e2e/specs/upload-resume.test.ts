import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../support/browser.ts';
import { startRestartableServer, type RestartableServer } from '../support/restartable-server.ts';
import {
  desktopFolder,
  openFilesAs,
  randomDesktopFile,
  throttle,
} from '../support/upload-fixtures.ts';

const MiB = 1024 * 1024;

let browser: Browser;
let server: RestartableServer;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startRestartableServer();
  // Small chunks make a short upload span several requests; enough retries to outlast a restart.
  await server.updateSettings({ tus: { chunkSize: MiB, retryCount: 8 } });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('resumable uploads', () => {
  it('resumes from the server offset after the server restarts mid-upload', async () => {
    const desktop = await desktopFolder({});
    const movie = await randomDesktopFile(desktop, 'movie.bin', 8 * MiB);
    const session = await openFilesAs(browser, server.url, 'admin', server.adminPassword);
    ({ context } = session);
    const { page, files, uploads } = session;
    // Upload-Offset of every chunk the browser sends.
    const offsets: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/api/tus/')) {
        offsets.push(Number(request.headers()['upload-offset']));
      }
    });
    await throttle(page, 2 * MiB);
    await uploads.uploadFiles([movie.file]);
    await expect
      .poll(() => Math.max(0, ...offsets), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2 * MiB);

    await server.restart();
    const sentBeforeRestart = offsets.length;

    await page
      .getByRole('status')
      .filter({ hasText: 'Upload complete' })
      .waitFor({ timeout: 60_000 });
    await files.entry('movie.bin').waitFor();
    expect(sha256(await readFile(path.join(server.root, 'movie.bin')))).toBe(sha256(movie.content));
    // After the restart the client asked where to go on and continued there, not from zero.
    const resumed = offsets.slice(sentBeforeRestart);
    expect(resumed.length).toBeGreaterThan(0);
    expect(Math.min(...resumed)).toBeGreaterThanOrEqual(2 * MiB);
  });
});
