import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { ARTIFACTS } from '../support/paths.ts';

// Issue 43, item 3: a file's text keeps its own direction, line by line, whatever the interface
// language, in the text editor and the post editor; the post editor wraps long lines and does
// not paint front matter as a heading.

const ARABIC = 'مرحبا بالعالم';
const LONG = `Long line ${'that goes on and on '.repeat(30)}end.`;
const POST = `---\ntitle: Hello\nauthor: alice\n---\n\n${LONG}\n`;

const cabinet = withCabinet({
  files: { 'dir/empty.txt': '', 'dir/arabic.txt': `${ARABIC}\n` },
});

/** The editor line holding `text`. */
const line = (page: Page, text: string) => page.locator('.cm-line').filter({ hasText: text });

/** The line's resolved direction and where its first and last characters are drawn. */
function layout(target: Locator) {
  return target.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const text: Text[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent) text.push(node as Text);
    }
    const rect = (node: Text, offset: number) => {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      return range.getBoundingClientRect();
    };
    const first = text[0]!;
    const last = text[text.length - 1]!;
    return {
      direction: getComputedStyle(element).direction,
      firstX: rect(first, 0).x,
      lastX: rect(last, last.length - 1).x,
    };
  });
}

async function signedIn(locale: string, admin = false) {
  const user = await cabinet.server.createUser({ locale, perm: { admin } });
  const { page } = await cabinet.tokenPage({ token: user.token, width: 1280, height: 800 });
  return { user, page };
}

describe('text direction in the editors', () => {
  it('shows typed English left to right in an Arabic interface', async () => {
    const { page } = await signedIn('ar');
    await page.goto(`${cabinet.server.url}/files/dir/empty.txt`);
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.locator('.cm-content').click();
    await page.keyboard.type('Hello, world.');
    const typed = await layout(line(page, 'Hello, world.'));
    expect(typed.direction).toBe('ltr');
    // "Hello, world." reads from the left: H before the full stop (not ".Hello, world").
    expect(typed.firstX).toBeLessThan(typed.lastX);
    // The caret sits after the full stop, at the line's right end.
    const caret = (await page.locator('.cm-cursor-primary').boundingBox())!;
    expect(caret.x).toBeGreaterThan(typed.lastX);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'editor-ltr-in-arabic-1280.png') });
  });

  it('shows an Arabic line right to left in an English interface', async () => {
    const { page } = await signedIn('en');
    await page.goto(`${cabinet.server.url}/files/dir/arabic.txt`);
    const arabic = await layout(line(page, ARABIC));
    expect(arabic.direction).toBe('rtl');
    expect(arabic.firstX).toBeGreaterThan(arabic.lastX);
  });

  it('wraps a post and keeps its front matter plain and left to right, in Arabic', async () => {
    const { user, page } = await signedIn('ar', true);
    const created = await cabinet.server.fetch('/api/sites', {
      method: 'POST',
      token: cabinet.server.admin.token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'rtl',
        title: 'Site rtl',
        folder: '/rtl',
        starter: true,
        users: [user.user.id],
      }),
    });
    expect(created.status).toBe(201);
    await cabinet.seed({ 'rtl/content/posts/front.md': POST });
    await page.goto(`${cabinet.server.url}/publishing/rtl/edit/posts/front.md`);
    const author = line(page, 'author: alice');
    // Highlighted once the Markdown grammar is in (it redraws the line): front matter is marked.
    await author.locator('span').first().waitFor();
    const front = await layout(author);
    expect(front.direction).toBe('ltr');
    expect(front.firstX).toBeLessThan(front.lastX);
    // Front matter is not a (setext) heading: nothing in it is bold or underlined.
    const headingLike = await page.locator('.cm-line').evaluateAll((lines) =>
      lines
        .slice(0, 4)
        .flatMap((element) => [element, ...element.querySelectorAll('*')])
        .filter((element) => {
          const style = getComputedStyle(element);
          return Number(style.fontWeight) >= 600 || style.textDecorationLine.includes('underline');
        })
        .map((element) => element.textContent),
    );
    expect(headingLike).toEqual([]);
    // The long line wraps at the editor's width: no sideways scrolling in the editor.
    const long = line(page, 'Long line');
    const lineHeight = await long.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
    expect((await long.boundingBox())!.height).toBeGreaterThan(2 * lineHeight);
    const scroller = page.locator('.post-editor .cm-scroller');
    expect(await scroller.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'post-editor-arabic-1280.png') });
  });
});
