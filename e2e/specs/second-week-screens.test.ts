import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileJobHold } from '@cabinet/server/testing';
import { withCabinet } from '../support/cabinet.ts';
import { ARTIFACTS } from '../support/paths.ts';

// Issue 43: the quota meter's figures in an Arabic sentence, and the screens the second week
// changed (the Jobs panel beside the files and the user form, the quota meter), left in
// e2e/.artifacts/ at 1280 and 390 px, light and dark, English and Arabic, for people to look at.

const hold = new FileJobHold();
const cabinet = withCabinet({
  server: { afterJobFile: hold.afterFile },
});

/** A user of `locale` with a 10 KiB quota, 3 KiB of it used, and a folder `src` to copy. */
async function userWithQuota(locale: string, admin = false) {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const at = scope.slice(1);
  await cabinet.seed({
    [`${at}/notes.txt`]: 'n'.repeat(3 * 1024),
    [`${at}/src/1.bin`]: '1',
    [`${at}/src/2.bin`]: '2',
  });
  return cabinet.server.createUser({ locale, scope, quota: 10 * 1024, perm: { admin } });
}

describe('the quota meter in Arabic', () => {
  it('reads each figure as written and the sentence right to left', async () => {
    const user = await userWithQuota('ar');
    const { page } = await cabinet.tokenPage({ token: user.token, width: 1280, height: 800 });
    await page.goto(`${cabinet.server.url}/files/`);
    const text = page.locator('.quota-meter__text');
    await text.waitFor();
    // Each character of the sentence with where it is drawn, in reading (logical) order.
    const chars = await text.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const out: { ch: string; x: number }[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          out.push({ ch: node.textContent![i]!, x: range.getBoundingClientRect().x });
        }
      }
      return out;
    });
    const sentence = chars.map((c) => c.ch).join('');
    expect(sentence).toMatch(/KiB.+KiB/);
    const units = chars.filter((c) => c.ch === 'K');
    // Figure by figure: its number is drawn left of its unit ("3.0 KiB", not "KiB 3.0")…
    let figureStart = 0;
    for (const unit of units) {
      const at = chars.indexOf(unit);
      const number = chars.slice(figureStart, at).filter((c) => /[\d٠-٩]/.test(c.ch));
      expect(number.length, sentence).toBeGreaterThan(0);
      for (const digit of number) expect(digit.x, sentence).toBeLessThan(unit.x);
      figureStart = at + 3;
    }
    // …and the sentence reads right to left: the used figure, first, is drawn right of the quota.
    expect(units[0]!.x).toBeGreaterThan(units[1]!.x);
  });
});

describe.each(['light', 'dark'] as const)('second-week screens, %s', (colorScheme) => {
  let release!: () => void;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    // A copy held mid-way keeps a job in each user's Jobs panel for every screenshot.
    const released = new Promise<void>((resolve) => (release = resolve));
    hold.each = () => released;
    for (const locale of ['en', 'ar']) {
      const user = await userWithQuota(locale, true);
      tokens[locale] = user.token;
      const started = await cabinet.server.fetch('/api/jobs', {
        method: 'POST',
        token: user.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'copy', items: [{ from: '/src', to: '/src-copy' }] }),
      });
      expect(started.status).toBe(202);
    }
  });
  afterAll(() => {
    hold.each = undefined;
    release();
  });

  it.each([
    [1280, 'en'],
    [390, 'en'],
    [1280, 'ar'],
    [390, 'ar'],
  ] as const)('at %i px in %s', async (width, locale) => {
    const { page } = await cabinet.tokenPage({
      token: tokens[locale],
      width,
      height: width > 736 ? 800 : 844,
      colorScheme,
    });
    const shot = (name: string) =>
      page.screenshot({
        path: path.join(ARTIFACTS, `${name}-${colorScheme}-${locale}-${width}.png`),
      });
    await page.goto(`${cabinet.server.url}/files/`);
    const panel = page.locator('.jobs-panel');
    await panel.getByText(/1/).first().waitFor();
    await page.locator('.quota-meter').waitFor({ state: 'attached' });
    await shot('jobs-files');
    if (width <= 736) {
      await panel.locator('button[aria-controls]').click();
      await panel.getByRole('listitem').first().waitFor();
      await shot('jobs-files-open');
    }
    await page.goto(`${cabinet.server.url}/settings/users/new`);
    await page.locator('form').first().waitFor();
    await panel.waitFor();
    await shot('jobs-user-form');
    const sideways = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(sideways).toBe(false);
  });
});
