import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesPage } from '../pages/files-page.ts';
import { LoginPage } from '../pages/login-page.ts';
import { ARTIFACTS } from '../support/paths.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';

// Screenshots of the main screens in both themes at desktop and phone widths, left in
// e2e/.artifacts/ for people to look at. The asserts check the layout a user would notice.

const cabinet = withCabinet({
  files: {
    'Documents/': '',
    'Photos/': '',
    'Projects/': '',
    'budget-2026.xlsx': 'x'.repeat(48_213),
    'holiday.jpg': 'x'.repeat(2_400_000),
    'meeting-notes.md': '# Notes\n',
    'presentation.pdf': 'x'.repeat(830_000),
    'backup.tar.gz': 'x'.repeat(5_200_000),
    'song.mp3': 'x'.repeat(4_100_000),
  },
  setup: async () => {
    await mkdir(ARTIFACTS, { recursive: true });
  },
});

async function setTheme(theme: string): Promise<void> {
  const settings = await cabinet.server.ctx.settings.get();
  await cabinet.server.updateSettings({ branding: { ...settings.branding, theme } });
}

describe.each(['light', 'dark'])('%s theme', (theme) => {
  beforeAll(() => setTheme(theme === 'dark' ? 'dark' : ''));
  afterAll(() => setTheme(''));

  it.each([1280, 390])('login and files at %i px', async (width) => {
    const { page } = await cabinet.newPage({ width, height: width > 736 ? 800 : 844 });
    await new LoginPage(page).goto(cabinet.server.url);
    await page.screenshot({ path: path.join(ARTIFACTS, `login-${theme}-${width}.png`) });

    await loginThroughForm(page, cabinet.server.url, 'admin', cabinet.server.admin.password);
    const files = new FilesPage(page);
    await files.entry('Documents').waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, `files-${theme}-${width}.png`) });

    const sidebar = page.getByRole('navigation', { name: 'Main' });
    expect(await sidebar.isVisible()).toBe(width > 736);
    const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
    expect(await toggle.isVisible()).toBe(width <= 736);
    if (width <= 736) {
      await toggle.click();
      await sidebar.getByRole('link', { name: 'My files' }).waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await page.screenshot({ path: path.join(ARTIFACTS, `drawer-${theme}-${width}.png`) });
      await page.keyboard.press('Escape');
      await sidebar.waitFor({ state: 'hidden' });
    }
    // Nothing overflows the viewport sideways.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
  });
});
