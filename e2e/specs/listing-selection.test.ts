import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { FilesPage } from '../pages/files-page.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';

let context: BrowserContext | undefined;

const NAMES = ['inbox', 'a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

const cabinet = withCabinet({
  files: {
    'inbox/letter.txt': 'dear',
    'a.txt': 'a',
    'b.txt': 'b',
    'c.txt': 'c',
    'd.txt': 'd',
    'e.txt': 'e',
  },
});

async function login(
  overrides: { viewMode?: string; singleClick?: boolean } = {},
  hasTouch = false,
): Promise<{ page: Page; files: FilesPage }> {
  const user = await cabinet.server.createUser({ viewMode: 'list', ...overrides });
  let page: Page;
  if (hasTouch) {
    context = await cabinet.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      locale: 'en-US',
    });
    page = await context.newPage();
  } else {
    ({ context, page } = await cabinet.newPage());
  }
  await loginThroughForm(page, cabinet.server.url, user.user.username, user.password);
  const files = new FilesPage(page);
  await files.entry('inbox').waitFor();
  return { page, files };
}

describe('selection with the mouse', () => {
  it('click selects, ctrl-click toggles, shift-click selects a range, a second click deselects', async () => {
    const { files } = await login();
    expect(await files.entryNames()).toEqual(NAMES);

    await files.entry('a.txt').click();
    expect(await files.selectedNames()).toEqual(['a.txt']);
    expect(await files.selectionBanner.textContent()).toBe('1 selected');

    await files.entry('c.txt').click();
    expect(await files.selectedNames()).toEqual(['c.txt']);

    await files.entry('e.txt').click({ modifiers: ['Control'] });
    expect(await files.selectedNames()).toEqual(['c.txt', 'e.txt']);
    await files.entry('c.txt').click({ modifiers: ['Control'] });
    expect(await files.selectedNames()).toEqual(['e.txt']);

    // The range runs from the last entry clicked (c.txt, just deselected) to the one shift-clicked.
    await files.entry('e.txt').click({ modifiers: ['Shift'] });
    expect(await files.selectedNames()).toEqual(['c.txt', 'd.txt', 'e.txt']);
    await files.entry('a.txt').click({ modifiers: ['Shift'] });
    expect(await files.selectedNames()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await files.selectionBanner.textContent()).toBe('3 selected');

    await files.entry('b.txt').click();
    expect(await files.selectedNames()).toEqual(['b.txt']);
    await files.entry('b.txt').click();
    expect(await files.selectedNames()).toEqual([]);
    expect(await files.clearSelection.count()).toBe(0);
  });

  it('Ctrl+A selects everything, Esc and the clear button empty the selection', async () => {
    const { page, files } = await login();
    await files.entry('a.txt').click();
    await page.keyboard.press('Control+a');
    expect(await files.selectedNames()).toEqual(NAMES);
    expect(await files.selectionBanner.textContent()).toBe('6 selected');
    await page.keyboard.press('Escape');
    expect(await files.selectedNames()).toEqual([]);

    await page.keyboard.press('Control+a');
    await files.clearSelection.click();
    expect(await files.selectedNames()).toEqual([]);
  });

  it('multiple-selection mode adds with plain clicks and shows the banner until cleared', async () => {
    const { files } = await login();
    const toggle = files.action('Select multiple');
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await files.selectionBanner.textContent()).toBe('0 selected');
    await files.entry('a.txt').click();
    await files.entry('d.txt').click();
    await files.entry('inbox').click();
    expect(await files.selectedNames()).toEqual(['inbox', 'a.txt', 'd.txt']);
    await files.entry('a.txt').click();
    expect(await files.selectedNames()).toEqual(['inbox', 'd.txt']);
    expect(await files.selectionBanner.textContent()).toBe('2 selected');
    await files.clearSelection.click();
    expect(await files.selectedNames()).toEqual([]);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
  });

  it('double-click opens, and leaving the folder resets the selection', async () => {
    const { page, files } = await login();
    await files.entry('a.txt').click();
    await files.action('Select multiple').click();
    await files.open('inbox');
    await page.waitForURL(`${cabinet.server.url}/files/inbox/`);
    await files.entry('letter.txt').waitFor();
    expect(await files.selectionBanner.count()).toBe(0);
    await page.goBack();
    await files.entry('a.txt').waitFor();
    expect(await files.selectedNames()).toEqual([]);
    expect(await files.action('Select multiple').getAttribute('aria-pressed')).toBe('false');
  });

  it('opens on a single click for users who chose it, selecting with ctrl', async () => {
    const { page, files } = await login({ singleClick: true });
    await files.entry('b.txt').click({ modifiers: ['Control'] });
    expect(await files.selectedNames()).toEqual(['b.txt']);
    await files.entry('inbox').click();
    await page.waitForURL(`${cabinet.server.url}/files/inbox/`);
  });

  it('works the same in the mosaic view', async () => {
    const { files } = await login({ viewMode: 'mosaic' });
    await files.entry('a.txt').click();
    await files.entry('c.txt').click({ modifiers: ['Shift'] });
    expect(await files.selectedNames()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(await files.item('b.txt').getAttribute('aria-selected')).toBe('true');
  });
});

describe('selection with the keyboard', () => {
  const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

  it('arrow keys move focus, Space toggles, Enter opens', async () => {
    const { page, files } = await login();
    // Focus given by other means than a click (Tab, a script) also moves the tab stop.
    await files.entry('d.txt').click();
    await page.keyboard.press('Escape');
    await files.entry('inbox').focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('a.txt');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('b.txt');
    await page.keyboard.press('Space');
    await page.keyboard.press('End');
    await expect.poll(() => focusedName(page)).toBe('e.txt');
    await page.keyboard.press('Space');
    expect(await files.selectedNames()).toEqual(['b.txt', 'e.txt']);
    await page.keyboard.press('Space');
    expect(await files.selectedNames()).toEqual(['b.txt']);
    // One tab stop for the whole listing: the focused entry.
    expect(await files.entry('e.txt').getAttribute('tabindex')).toBe('0');
    expect(await files.entry('a.txt').getAttribute('tabindex')).toBe('-1');
    await page.keyboard.press('Home');
    await expect.poll(() => focusedName(page)).toBe('inbox');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${cabinet.server.url}/files/inbox/`);
  });

  it('moves across and down the mosaic grid', async () => {
    const { page, files } = await login({ viewMode: 'mosaic' });
    const columns = Number(await files.mosaic.getAttribute('aria-colcount'));
    expect(columns).toBe(3);
    await files.entry('inbox').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focusedName(page)).toBe('a.txt');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('d.txt');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focusedName(page)).toBe('c.txt');
  });
});

describe('extending the selection with Shift and the keyboard', () => {
  const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

  it('Shift+ArrowDown/Up grows and shrinks the range from the anchor; Shift+Home/End reach the ends', async () => {
    const { page, files } = await login();
    await files.entry('b.txt').click();
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('c.txt');
    expect(await files.selectedNames()).toEqual(['b.txt', 'c.txt']);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('d.txt');
    expect(await files.selectedNames()).toEqual(['b.txt', 'c.txt', 'd.txt']);
    await page.keyboard.press('Shift+ArrowUp');
    await expect.poll(() => focusedName(page)).toBe('c.txt');
    expect(await files.selectedNames()).toEqual(['b.txt', 'c.txt']);
    // Past the anchor the range turns around.
    await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Shift+ArrowUp');
    await expect.poll(() => focusedName(page)).toBe('a.txt');
    expect(await files.selectedNames()).toEqual(['a.txt', 'b.txt']);
    await page.keyboard.press('Shift+End');
    await expect.poll(() => focusedName(page)).toBe('e.txt');
    expect(await files.selectedNames()).toEqual(['b.txt', 'c.txt', 'd.txt', 'e.txt']);
    await page.keyboard.press('Shift+Home');
    await expect.poll(() => focusedName(page)).toBe('inbox');
    expect(await files.selectedNames()).toEqual(['inbox', 'a.txt', 'b.txt']);
    // Plain arrows still only move focus.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('a.txt');
    expect(await files.selectedNames()).toEqual(['inbox', 'a.txt', 'b.txt']);
    expect(await files.selectionBanner.textContent()).toBe('3 selected');
  });

  it('Shift+Arrow keys extend across and down the mosaic grid', async () => {
    const { page, files } = await login({ viewMode: 'mosaic' });
    expect(Number(await files.mosaic.getAttribute('aria-colcount'))).toBe(3);
    // Focused without a click: the entry the keys start from is the anchor.
    await files.entry('a.txt').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => focusedName(page)).toBe('b.txt');
    expect(await files.selectedNames()).toEqual(['a.txt', 'b.txt']);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => focusedName(page)).toBe('e.txt');
    expect(await files.selectedNames()).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => focusedName(page)).toBe('d.txt');
    expect(await files.selectedNames()).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    await page.keyboard.press('Shift+ArrowUp');
    await expect.poll(() => focusedName(page)).toBe('a.txt');
    expect(await files.selectedNames()).toEqual(['a.txt']);
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => focusedName(page)).toBe('inbox');
    expect(await files.selectedNames()).toEqual(['inbox', 'a.txt']);
    expect(await files.item('inbox').getAttribute('aria-selected')).toBe('true');
  });
});

describe('selection on touch', () => {
  it('a tap selects, a double tap opens', async () => {
    const { page, files } = await login({}, true);
    await files.entry('a.txt').tap();
    await expect.poll(() => files.selectedNames()).toEqual(['a.txt']);
    await files.entry('b.txt').tap();
    await expect.poll(() => files.selectedNames()).toEqual(['b.txt']);
    // Two taps 150 ms apart by the events' own clock (seconds since the epoch), so a busy
    // machine that is slow to deliver them cannot stretch them past the 300 ms window.
    const box = (await files.item('inbox').boundingBox())!;
    const point = { x: box.x + 40, y: box.y + box.height / 2 };
    const cdp = await page.context().newCDPSession(page);
    const start = Date.now() / 1000;
    for (let tap = 0; tap < 2; tap++) {
      const at = start + tap * 0.15;
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchStart',
        touchPoints: [point],
        timestamp: at,
      });
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchEnd',
        touchPoints: [],
        timestamp: at + 0.05,
      });
    }
    await page.waitForURL(`${cabinet.server.url}/files/inbox/`);
  });

  it('a long press selects and turns multiple selection on', async () => {
    const { page, files } = await login({}, true);
    const box = (await files.item('c.txt').boundingBox())!;
    const cdp = await page.context().newCDPSession(page);
    const point = { x: box.x + 40, y: box.y + box.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    // The finger stays down until the press has selected the entry.
    await expect.poll(() => files.selectedNames(), { timeout: 5000 }).toEqual(['c.txt']);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    // Now in multiple mode, a tap adds.
    await files.entry('a.txt').tap();
    await expect.poll(() => files.selectedNames()).toEqual(['a.txt', 'c.txt']);
    expect(await files.selectionBanner.textContent()).toBe('2 selected');
  });
});
