import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AppShell } from '../pages/app-shell.ts';
import { FilesPage } from '../pages/files-page.ts';
import { PreviewPage } from '../pages/preview.ts';
import { seriousAxeFindings } from '../support/axe.ts';
import type { PageOptions } from '../support/browser.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

const DOCUMENTS = Object.fromEntries(
  Array.from({ length: 40 }, (_, i) => [`docs/report-${String(i).padStart(2, '0')}.txt`, 'r']),
);

const cabinet = withCabinet({
  files: {
    ...DOCUMENTS,
    'notes/readme.md': '# Title\n\nBody text\n',
    'notes/code.ts': 'const pattern = /a+b/g;\nlet n: number = 1;\n',
    [`notes/${'a-very-long-file-name-that-a-phone-must-still-show'}.txt`]: 'x',
  },
});

/** A signed-in page (a user of the given view mode) at a route. */
async function open(route: string, options: PageOptions & { viewMode?: string } = {}) {
  const { viewMode, ...pageOptions } = options;
  const user = await cabinet.server.createUser({
    viewMode: viewMode ?? 'list',
    perm: { admin: true },
  });
  const { page } = await cabinet.tokenPage({ ...pageOptions, token: user.token });
  await page.goto(`${cabinet.server.url}${route}`);
  return page;
}

describe('opening what you just made (issue 18)', () => {
  it('a new Markdown file opens in the editor, and Preview / Edit switches between the two', async () => {
    const page = await open('/files/notes/');
    await new AppShell(page).newFile.click();
    const dialog = page.getByRole('dialog', { name: 'New file' });
    await dialog.getByRole('textbox').fill('plan.md');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const preview = new PreviewPage(page);
    await preview.editor.waitFor();
    const modes = page.getByRole('group', { name: 'Show as' });
    expect(await modes.getByRole('button', { name: 'Edit' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.keyboard.type('# Plan\n\nFirst step');
    // The preview shows what is typed, saved or not; back in Edit the text is all there.
    await modes.getByRole('button', { name: 'Preview' }).click();
    await preview.markdown.getByRole('heading', { name: 'Plan' }).waitFor();
    expect(await preview.editor.count()).toBe(0);
    await preview.unsavedMarker.waitFor();
    await modes.getByRole('button', { name: 'Edit' }).click();
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe('# Plan\n\nFirst step');
    await page.keyboard.press('ControlOrMeta+s');
    await waitForNotice(page, 'plan.md saved');
  });

  it('an existing Markdown file opens rendered, with Edit one click away', async () => {
    const page = await open('/files/notes/readme.md');
    const preview = new PreviewPage(page);
    await preview.markdown.getByRole('heading', { name: 'Title' }).waitFor();
    const modes = page.getByRole('group', { name: 'Show as' });
    expect(await modes.getByRole('button', { name: 'Preview' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await modes.getByRole('button', { name: 'Edit' }).click();
    await preview.editor.waitFor();
    expect(await preview.editorText()).toBe('# Title\n\nBody text\n');
  });
});

describe('mosaic that shows more (issue 18)', () => {
  it('gives documents compact cards: at least three times as many fit as picture cards', async () => {
    const page = await open('/files/docs/', { viewMode: 'mosaic', width: 1280, height: 800 });
    const files = new FilesPage(page);
    await files.mosaic.waitFor();
    const card = files.item('report-00.txt');
    expect(await card.getAttribute('data-card')).toBe('compact');
    const box = (await card.boundingBox())!;
    // The picture card of the same grid is 184 px tall: a compact one is a third of that or less.
    expect(box.height).toBeLessThanOrEqual(184 / 3);
    expect(await files.mosaic.getAttribute('aria-colcount')).toBe('3');
    // The icon sits beside the name, not above it.
    const icon = (await card.locator('.tile__preview').boundingBox())!;
    const name = (await card.getByRole('link').boundingBox())!;
    expect(icon.x + icon.width).toBeLessThanOrEqual(name.x);
  });
});

describe('phone width (issue 18)', () => {
  it('keeps the file name visible in the preview bar at 390 px, and nothing overflows', async () => {
    const longName = 'a-very-long-file-name-that-a-phone-must-still-show.txt';
    const page = await open(`/files/notes/${longName}`, { width: 390, height: 800 });
    const preview = new PreviewPage(page);
    await preview.editor.waitFor();
    const name = preview.toolbar.getByRole('heading', { level: 1 });
    const box = (await name.boundingBox())!;
    expect(box.width).toBeGreaterThan(150);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
});

describe('accessibility by axe-core (issue 18)', () => {
  it.each(['light', 'dark'] as const)(
    'finds nothing serious on login, files, preview, editor and settings (%s theme)',
    async (theme) => {
      // The dark theme changes only colours: the light run checks every rule, the dark run
      // the colour contrast, which keeps the same screens covered at a fraction of the cost.
      const rules = theme === 'dark' ? ['color-contrast'] : undefined;
      const scan = async (page: Page, ready: () => Promise<unknown>) => {
        await ready();
        return seriousAxeFindings(page, rules);
      };
      const branding = (await cabinet.server.ctx.settings.get()).branding;
      await cabinet.server.updateSettings({
        branding: { ...branding, theme: theme === 'dark' ? 'dark' : '' },
      });
      try {
        const findings: Record<string, string[]> = {};
        const { page: login } = await cabinet.tokenPage({ token: '' });
        await login.goto(`${cabinet.server.url}/login`);
        findings.login = await scan(login, () =>
          login.getByRole('textbox', { name: 'Username' }).waitFor(),
        );

        const page = await open('/files/notes/');
        const files = new FilesPage(page);
        const preview = new PreviewPage(page);
        findings.list = await scan(page, async () => {
          await files.entry('readme.md').click();
          await files.item('readme.md').and(page.locator('[aria-selected="true"]')).waitFor();
        });
        await files.action('Switch to mosaic view').click();
        findings.mosaic = await scan(page, () => files.mosaic.waitFor());
        await page.goto(`${cabinet.server.url}/files/notes/readme.md`);
        findings.preview = await scan(page, () =>
          preview.markdown.getByRole('heading', { name: 'Title' }).waitFor(),
        );
        await page.goto(`${cabinet.server.url}/files/notes/code.ts`);
        findings.editor = await scan(page, () => page.locator('.cm-line').first().waitFor());
        for (const screen of ['profile', 'global', 'users', 'users/1']) {
          await page.goto(`${cabinet.server.url}/settings/${screen}`);
          findings[screen] = await scan(page, () =>
            page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor(),
          );
        }
        expect(Object.entries(findings).filter(([, list]) => list.length > 0)).toEqual([]);
      } finally {
        await cabinet.server.updateSettings({ branding: { ...branding, theme: '' } });
      }
    },
    // Ten screens scanned one after the other, each a page load and an axe run.
    300_000,
  );
});
