import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet({
  files: { 'docs/a.txt': 'a', 'docs/b.txt': 'b', 'docs/gone.txt': 'g', 'other/x.txt': 'x' },
});

describe('a folder that updates itself', () => {
  it('shows a file another program creates, and drops one it removes, without a reload, keeping the selection', async () => {
    const { files } = await cabinet.open('docs/');
    const page = files.page;
    await files.entry('a.txt').click();
    expect(await files.selectedNames()).toEqual(['a.txt']);
    // Survives only as long as the page is not reloaded.
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });

    await cabinet.seed({ 'docs/made-elsewhere.txt': 'new' });
    await files.entry('made-elsewhere.txt').waitFor();
    await rm(path.join(cabinet.server.root, 'docs/gone.txt'));
    await files.entry('gone.txt').waitFor({ state: 'detached' });

    expect(await files.selectedNames()).toEqual(['a.txt']);
    expect(
      await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).toBe(true);
    expect(await files.entryNames()).toEqual(['a.txt', 'b.txt', 'made-elsewhere.txt']);
  });
});
