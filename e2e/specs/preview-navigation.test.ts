import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { png, silentMp3 } from '../fixtures/preview-fixtures.ts';
import { FilesPage } from '../pages/files-page.ts';
import { PreviewPage } from '../pages/preview.ts';
import { withCabinet } from '../support/cabinet.ts';
import { openPreview, type Credentials } from '../support/open-preview.ts';

let page: Page;

// Listing order (by name): a.png, b.txt, c.pdf, d.mp3, e.bin, f.png. Text and PDF are skipped.
const cabinet = withCabinet({
  files: {
    'album/sub/': '',
    'album/b.txt': 'text is skipped',
    'album/c.pdf': '%PDF-1.4\n%%EOF\n',
  },
  setup: async (server) => {
    const write = (name: string, data: Buffer) => writeFile(path.join(server.root, name), data);
    await write('album/a.png', await png());
    await write('album/d.mp3', silentMp3());
    await write('album/e.bin', Buffer.from([0, 1, 2, 0]));
    await write('album/f.png', await png());
  },
});

async function open(encodedPath: string, name: string, user?: Credentials): Promise<PreviewPage> {
  let preview: PreviewPage;
  ({ page, preview } = await openPreview(cabinet, encodedPath, name, { user }));
  return preview;
}

describe('moving between items', () => {
  it('steps with Right, Enter and Left over images, audio and other files, skipping text and PDF', async () => {
    const preview = await open('album/a.png', 'a.png');
    // The neighbours come from the folder's listing: Next shows once it is known.
    await preview.next.waitFor();
    expect(await preview.previous.count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    await preview.waitFor('d.mp3');
    expect(page.url()).toBe(`${cabinet.server.url}/files/album/d.mp3`);
    await page.keyboard.press('Enter');
    await preview.waitFor('e.bin');
    await page.keyboard.press('ArrowRight');
    await preview.waitFor('f.png');
    expect(await preview.next.count()).toBe(0);
    await page.keyboard.press('ArrowLeft');
    await preview.waitFor('e.bin');
    await page.keyboard.press('ArrowLeft');
    await preview.waitFor('d.mp3');
    await page.keyboard.press('ArrowLeft');
    await preview.waitFor('a.png');
  });

  it('steps from a PDF to its neighbours with the buttons', async () => {
    const preview = await open('album/c.pdf', 'c.pdf');
    await preview.next.click();
    await preview.waitFor('d.mp3');
    await preview.previous.click();
    await preview.waitFor('a.png');
  });

  it('goes back to the folder with Esc and with the close button', async () => {
    const preview = await open('album/e.bin', 'e.bin');
    const files = new FilesPage(page);
    await page.keyboard.press('Escape');
    await page.waitForURL(`${cabinet.server.url}/files/album/`);
    await files.entry('a.png').waitFor();
    await files.entry('e.bin').dblclick();
    await preview.waitFor('e.bin');
    await preview.close.click();
    await page.waitForURL(`${cabinet.server.url}/files/album/`);
  });
});

describe('image zoom', () => {
  it('zooms with the wheel in steps of 0.25 between 0.25 and 4', async () => {
    const preview = await open('album/a.png', 'a.png');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.complete))
      .toBe(true);
    expect(await preview.imageTransform()).toBe('translate(0px, 0px) scale(1)');
    const box = (await preview.image.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -100);
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(1.25)');
    for (let i = 0; i < 20; i += 1) await page.mouse.wheel(0, -100);
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(4)');
    for (let i = 0; i < 30; i += 1) await page.mouse.wheel(0, 100);
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(0.25)');
    // The page itself did not scroll.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  it('zooms from the keyboard with +, - and 0', async () => {
    const preview = await open('album/a.png', 'a.png');
    await preview.image.waitFor();
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(1.5)');
    await page.keyboard.press('-');
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(1.25)');
    await page.keyboard.press('0');
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(1)');
  });

  it('cycles 1, 2, 4, 1 on double-click and pans by dragging', async () => {
    const preview = await open('album/f.png', 'f.png');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.complete))
      .toBe(true);
    const box = (await preview.image.boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await page.mouse.dblclick(centre.x, centre.y);
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(2)');
    await page.mouse.dblclick(centre.x, centre.y);
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(4)');

    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    await page.mouse.move(centre.x + 30, centre.y - 20, { steps: 3 });
    await page.mouse.up();
    await expect.poll(() => preview.imageTransform()).toBe('translate(30px, -20px) scale(4)');

    await page.mouse.dblclick(centre.x + 30, centre.y - 20);
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(1)');
  });

  it('pinches with two fingers and ignores the last finger for a moment after a pinch', async () => {
    const preview = await open('album/a.png', 'a.png');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.complete))
      .toBe(true);
    await page.locator('.image-viewer').evaluate((stage) => {
      const fire = (type: string, pointerId: number, clientX: number) =>
        stage.dispatchEvent(
          new PointerEvent(type, {
            pointerId,
            pointerType: 'touch',
            clientX,
            clientY: 200,
            bubbles: true,
          }),
        );
      fire('pointerdown', 1, 100);
      fire('pointerdown', 2, 200);
      fire('pointermove', 2, 300); // fingers twice as far apart
      fire('pointerup', 2, 300);
      fire('pointermove', 1, 160); // the remaining finger moves right after the pinch
      fire('pointerup', 1, 160);
    });
    await expect.poll(() => preview.imageTransform()).toBe('translate(0px, 0px) scale(2)');
  });
});

describe('file actions by permission', () => {
  it('shows rename, delete, download and info to a user with every permission', async () => {
    const preview = await open('album/a.png', 'a.png');
    for (const button of [preview.rename, preview.delete, preview.download, preview.info]) {
      expect(await button.isVisible()).toBe(true);
    }
    expect(await preview.download.getAttribute('href')).toMatch(/\/api\/raw\/album\/a\.png$/);
  });

  it('hides rename, delete and download from a user without those permissions', async () => {
    const viewer = await cabinet.server.createUser({
      perm: { rename: false, delete: false, download: false, modify: false, create: false },
    });
    const preview = await open('album/e.bin', 'e.bin', {
      username: viewer.user.username,
      password: viewer.password,
    });
    expect(await preview.info.isVisible()).toBe(true);
    expect(await preview.rename.count()).toBe(0);
    expect(await preview.delete.count()).toBe(0);
    expect(await preview.download.count()).toBe(0);
    expect(await preview.downloadCard.textContent()).toContain(
      "You don't have permission to download this file.",
    );
  });
});
