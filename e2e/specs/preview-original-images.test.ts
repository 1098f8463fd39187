import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestServer } from '@cabinet/server/testing';
import { rotatedJpeg } from '../fixtures/preview-fixtures.ts';
import { PreviewPage } from '../pages/preview.ts';
import { launchBrowser, newPage } from '../support/browser.ts';
import { loginThroughForm } from '../support/session.ts';
import { startAppServer } from '../support/servers.ts';

let browser: Browser;
let server: TestServer;
let context: BrowserContext;
let page: Page;

// A server started with --no-resize-preview: there are no big previews to toggle from.
beforeAll(async () => {
  browser = await launchBrowser();
  server = await startAppServer({ config: { resizePreview: false } });
  await writeFile(path.join(server.root, 'photo.jpg'), await rotatedJpeg());
  await writeFile(path.join(server.root, 'broken.jpg'), 'these bytes are not an image');
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

afterEach(async () => {
  await context?.close();
});

async function open(encodedPath: string, name: string): Promise<PreviewPage> {
  ({ context, page } = await newPage(browser));
  await loginThroughForm(page, server.url, 'admin', server.admin.password);
  const preview = new PreviewPage(page);
  await preview.goto(server.url, encodedPath);
  await preview.waitFor(name);
  return preview;
}

describe('images without resized previews', () => {
  it('shows the original, upright, with no full-size toggle', async () => {
    const preview = await open('photo.jpg', 'photo.jpg');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.naturalHeight))
      .toBe(80);
    expect(await preview.image.getAttribute('src')).toContain('/api/raw/photo.jpg?inline=true');
    expect(await preview.fullSize.count()).toBe(0);
  });

  it('offers an image the browser cannot show for download instead', async () => {
    const preview = await open('broken.jpg', 'broken.jpg');
    await preview.downloadCard.getByText('This image cannot be shown.').waitFor();
    expect(await preview.image.count()).toBe(0);
    await preview.downloadCard.getByRole('link', { name: 'Download broken.jpg' }).waitFor();
  });
});
