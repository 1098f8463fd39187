import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileJobHold } from '@cabinet/server/testing';
import { withCabinet } from '../support/cabinet.ts';
import { UploadPanel } from '../pages/upload-panel.ts';
import { desktopFolder } from '../support/upload-fixtures.ts';

const FILES = 24;
const SIZE = 256 * 1024;
const seeded: Record<string, string> = {};
for (let n = 0; n < FILES; n++)
  seeded[`j1/big/part${String(n).padStart(2, '0')}.bin`] = 'x'.repeat(SIZE);
seeded['j1/dest/'] = '';
for (let n = 0; n < 4; n++) seeded[`j2/big/part${n}.bin`] = 'y'.repeat(1024);
seeded['j2/dest/'] = '';

const hold = new FileJobHold();
const cabinet = withCabinet({ files: seeded, server: { afterJobFile: hold.afterFile } });
/** The row's title: the name is isolated for right-to-left pages (U+2068 … U+2069). */
const TITLE = /Copy: \u2068?big\u2069?/;
const named = (prefix: string) => new RegExp(`^${prefix} ${TITLE.source}$`);

describe('the Jobs panel', () => {
  it('shows a large copy with its progress, keeps it across a reload, and cancels it', async () => {
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    let copied = 0;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Holds every file from the fifth on (several are copied at once): "mid-way" without timing.
    hold.each = async () => {
      copied += 1;
      if (copied < 5) return;
      reached();
      await released;
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
      // Files land several at a time; the count is the unbroken run of landed ones.
      const midWay = new RegExp(`Files: ([1-9]|1\\d) of ${FILES}\\b`);
      await row.getByText(midWay).waitFor();
      await row.getByRole('progressbar', { name: named('Progress of') }).waitFor();
      expect(await row.getByText(/^To \u2068?\/j1\/dest\/big\u2069?$/).count()).toBe(1);

      await page.reload();
      // The list is read from the database, written as files land: mid-way still.
      await row.getByText(midWay).waitFor();
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
      hold.each = undefined;
      await row.getByRole('button', { name: named('Retry') }).click();
      await row.getByText(/^Done/).waitFor();
      expect((await readdir(dest)).length).toBe(FILES);
      await row.getByRole('button', { name: named('Close') }).click();
      await row.waitFor({ state: 'detached' });
    } finally {
      hold.each = undefined;
      release?.();
    }
  });

  it('stacks the Jobs and upload panels on a phone, neither covering the other', async () => {
    let release!: () => void;
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    hold.each = async () => {
      reached();
      await released;
    };
    try {
      const ops = await cabinet.open('j2/', { width: 390, height: 800 });
      const page = ops.page;
      // An upload held on its way to the server keeps the upload panel open.
      await page.route('**/api/tus/**', async (route) => {
        await released;
        await route.continue();
      });
      const { server } = cabinet;
      const started = await fetch(`${server.url}/api/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth': server.admin.token },
        body: JSON.stringify({ kind: 'copy', items: [{ from: '/j2/big', to: '/j2/dest/big' }] }),
      });
      expect(started.status).toBe(202);
      await held;
      const jobsPanel = page.getByRole('region', { name: 'Jobs' });
      // One line on a phone until opened (jobs-panel.test.ts): opened, it still keeps apart.
      await jobsPanel.getByRole('button', { name: 'Show or hide the jobs' }).click();
      await jobsPanel.getByRole('listitem').first().waitFor();
      const desktop = await desktopFolder({ 'phone.txt': 'from the phone' });
      const uploads = new UploadPanel(page);
      await uploads.uploadFiles([path.join(desktop, 'phone.txt')]);
      await uploads.panel.waitFor();

      const a = (await jobsPanel.boundingBox())!;
      const b = (await uploads.panel.boundingBox())!;
      const apart = a.y + a.height <= b.y || b.y + b.height <= a.y;
      expect(apart, `Jobs ${JSON.stringify(a)} and Uploads ${JSON.stringify(b)} overlap`).toBe(
        true,
      );
      for (const box of [a, b]) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      expect(sideways).toBe(false);
      release();
      await uploads.panel.waitFor({ state: 'hidden' });
      expect(await readdir(path.join(server.root, 'j2/dest/big'))).toHaveLength(4);
    } finally {
      hold.each = undefined;
      release?.();
    }
  });
});
