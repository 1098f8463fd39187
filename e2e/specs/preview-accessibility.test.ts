import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { png, silentMp3, webmClip } from '../fixtures/preview-fixtures.ts';
import { PreviewPage } from '../pages/preview.ts';
import { withCabinet } from '../support/cabinet.ts';
import { openPreview } from '../support/open-preview.ts';

let page: Page;

const cabinet = withCabinet({
  files: { 'a/notes.md': '# Notes\n', 'a/code.ts': 'let x = 1;\n' },
  setup: async (server) => {
    const write = (name: string, data: Buffer) => writeFile(path.join(server.root, name), data);
    await write('a/1.png', await png());
    await write('a/2.mp3', silentMp3());
    await write('a/3.webm', await webmClip());
  },
});

async function open(encodedPath: string, name: string, width = 1280): Promise<PreviewPage> {
  let preview: PreviewPage;
  ({ page, preview } = await openPreview(cabinet, encodedPath, name, { width }));
  return preview;
}

const isFocused = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((element) => element === document.activeElement);

describe('preview accessibility', () => {
  it('names every control of each viewer and of the editor', async () => {
    const preview = await open('a/1.png', '1.png');
    expect(await preview.unnamedControls()).toEqual([]);
    for (const [file, name] of [
      ['a/2.mp3', '2.mp3'],
      ['a/3.webm', '3.webm'],
      ['a/notes.md', 'notes.md'],
      ['a/code.ts', 'code.ts'],
    ]) {
      await preview.goto(cabinet.server.url, file!);
      await preview.waitFor(name!);
      expect(await preview.unnamedControls()).toEqual([]);
    }
    await preview.editor.waitFor();
    await preview.search.click();
    await page.getByRole('textbox', { name: 'Find' }).waitFor();
    expect(await preview.unnamedControls()).toEqual([]);
  });

  it('is operable from the keyboard with a visible focus ring', async () => {
    const preview = await open('a/2.mp3', '2.mp3');
    await preview.close.focus();
    await page.keyboard.press('Tab');
    // Tab moves along the bar; the focused control shows a ring.
    const focusedOutline = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      return [element.getAttribute('aria-label'), getComputedStyle(element).outlineStyle];
    });
    expect(focusedOutline[0]).toBeTruthy();
    expect(focusedOutline[1]).not.toBe('none');

    // Enter on a focused Next button presses it once: the preview keys leave it alone.
    await preview.next.focus();
    await page.keyboard.press('Enter');
    await preview.waitFor('3.webm');
    expect(page.url()).toBe(`${cabinet.server.url}/files/a/3.webm`);
    // Arrow keys on a focused player belong to the player (seeking), not to the preview.
    await preview.video.focus();
    await page.keyboard.press('ArrowLeft');
    expect(page.url()).toBe(`${cabinet.server.url}/files/a/3.webm`);
    expect(await isFocused(preview.video)).toBe(true);
  });

  it('keeps every bar control within a phone-sized screen', async () => {
    const preview = await open('a/code.ts', 'code.ts', 390);
    await preview.editor.waitFor();
    const boxes = await preview.toolbar.locator('button, a').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return [box.left, box.right, box.width, box.height];
      }),
    );
    expect(boxes.length).toBeGreaterThanOrEqual(6);
    for (const [left, right, width, height] of boxes) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(390);
      expect(width).toBeGreaterThanOrEqual(40);
      expect(height).toBeGreaterThanOrEqual(40);
    }
  });
});
