import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const FILES = 24;
const SIZE = 256 * 1024;
const seeded: Record<string, string> = {};
for (let n = 0; n < FILES; n++)
  seeded[`j1/big/part${String(n).padStart(2, '0')}.bin`] = 'x'.repeat(SIZE);
seeded['j1/dest/'] = '';

const cabinet = withCabinet({ files: seeded });
/** The row's title: the name is isolated for right-to-left pages (U+2068 … U+2069). */
const TITLE = /Copy: \u2068?big\u2069?/;
const named = (prefix: string) => new RegExp(`^${prefix} ${TITLE.source}$`);

describe('the Jobs panel', () => {
  it('shows a large copy with its progress, keeps it across a reload, and cancels it', async () => {
    const jobs = cabinet.server.runtime.services.fileJobs;
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    let copied = 0;
    // Holds the job after its fifth file: "mid-way" without timing.
    jobs.afterFile = async () => {
      copied += 1;
      if (copied !== 5) return;
      reached();
      await new Promise<void>((resolve) => (release = resolve));
    };
    try {
      const ops = await cabinet.open('j1/');
      await ops.select('big');
      await ops.action('Copy').click();
      await ops.folderOption(ops.copyDialog, 'dest').click();
      await ops.button(ops.copyDialog, 'Copy').click();
      await held;
      const page = ops.page;
      const panel = page.getByRole('region', { name: 'Jobs' });
      const row = panel.getByRole('listitem').filter({ hasText: TITLE });
      await row.getByText(`Files: 5 of ${FILES}`).waitFor();
      await row.getByRole('progressbar', { name: named('Progress of') }).waitFor();
      expect(await row.getByText(/^To \u2068?\/j1\/dest\/big\u2069?$/).count()).toBe(1);

      await page.reload();
      // The list is read from the database, written at most every 100 ms: up to the fifth file.
      await row.getByText(new RegExp(`Files: [1-5] of ${FILES}`)).waitFor();
      await row.getByRole('button', { name: named('Cancel') }).click();
      await row.getByText('Cancelled').waitFor();
      release();
      await row.getByRole('button', { name: named('Retry') }).waitFor();

      // Only whole files landed: the one in flight at the cancel was dropped.
      const dest = path.join(cabinet.server.root, 'j1/dest/big');
      const names = await readdir(dest);
      expect(names.length).toBeGreaterThanOrEqual(5);
      expect(names.length).toBeLessThan(FILES);
      for (const name of names) {
        expect(name).toMatch(/^part\d\d\.bin$/);
        expect((await stat(path.join(dest, name))).size).toBe(SIZE);
      }

      // Retry finishes it; the row says so and can be closed.
      jobs.afterFile = undefined;
      await row.getByRole('button', { name: named('Retry') }).click();
      await row.getByText(/^Done/).waitFor();
      expect((await readdir(dest)).length).toBe(FILES);
      await row.getByRole('button', { name: named('Close') }).click();
      await row.waitFor({ state: 'detached' });
    } finally {
      jobs.afterFile = undefined;
      release?.();
    }
  });
});
