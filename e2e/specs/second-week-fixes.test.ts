import { existsSync } from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { ShareDialog } from '../pages/share-dialog.ts';
import { UploadPanel } from '../pages/upload-panel.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';
import { desktopFolder, randomDesktopFile } from '../support/upload-fixtures.ts';

// What a user met in the second week (issue 43, items 2, 5 and 7): quota refusals shown at once
// and without a Retry that cannot work, the trash's retention told, the Trash screen asking
// nothing a non-administrator may not read, and the Sites and share screens' small faults.

const cabinet = withCabinet();

/** A user confined to a fresh scope holding `files`, with a quota of `quota` bytes. */
async function userWithQuota(files: Record<string, string>, quota: number) {
  const scope = `/scopes/${Math.random().toString(36).slice(2)}`;
  const seeded: Record<string, string> = { [`${scope.slice(1)}/`]: '' };
  for (const [name, content] of Object.entries(files))
    seeded[`${scope.slice(1)}/${name}`] = content;
  await cabinet.seed(seeded);
  const user = await cabinet.server.createUser({ viewMode: 'list', scope, quota });
  return { user, root: path.join(cabinet.server.root, scope) };
}

describe('quota refusals', { timeout: 120_000 }, () => {
  it('an upload past the quota is refused at the first answer, not after six retries', async () => {
    const { user, root } = await userWithQuota({ 'notes.txt': 'x'.repeat(3 * 1024) }, 10 * 1024);
    const ops = await cabinet.open('', { token: user.token });
    const refusals: string[] = [];
    ops.page.on('response', (response) => {
      if (response.url().includes('/api/tus') && response.status() === 507) {
        refusals.push(`${response.request().method()} ${response.url()}`);
      }
    });
    const desktop = await desktopFolder({});
    const big = await randomDesktopFile(desktop, 'big.bin', 8 * 1024);
    await new UploadPanel(ops.page).uploadFiles([big.file]);
    await ops.page
      .getByText('This would exceed your quota: 3 KiB of 10 KiB used', { exact: false })
      .first()
      .waitFor();
    // Asked once: a retry cannot change a quota's answer (the old client sent it six times).
    expect(refusals).toHaveLength(1);
    // A refusal is the user's to act on: nothing to report.
    expect(await ops.page.getByRole('button', { name: 'Report issue' }).count()).toBe(0);
    expect(existsSync(path.join(root, 'big.bin'))).toBe(false);
  });

  it('a copy job refused by the quota names the figures and offers no Retry', async () => {
    const four = 'y'.repeat(4 * 1024);
    const { user } = await userWithQuota(
      { 'src/a.bin': four, 'src/b.bin': four, 'dest/': '' },
      10 * 1024,
    );
    const ops = await cabinet.open('', { token: user.token });
    await ops.select('src');
    await ops.action('Copy').click();
    await ops.folderOption(ops.copyDialog, 'dest').click();
    await ops.button(ops.copyDialog, 'Copy').click();
    const row = ops.page
      .getByRole('region', { name: 'Jobs' })
      .getByRole('listitem')
      .filter({ hasText: /Copy: \u2068?src\u2069?/ });
    await row.getByText(/This would exceed your quota: \d+(\.\d)? KiB of 10 KiB used/).waitFor();
    expect(await row.getByRole('button', { name: /^Retry/ }).count()).toBe(0);
    // It can still be put away.
    await row.getByRole('button', { name: /^Close/ }).click();
    await row.waitFor({ state: 'detached' });
  });
});

describe('the trash tells how long it keeps things', { timeout: 120_000 }, () => {
  it('in the delete notice and on the Trash screen, which asks no admin-only list', async () => {
    const saved = await cabinet.server.fetch('/api/trash/settings', {
      method: 'PUT',
      token: cabinet.server.admin.token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ enabled: true, retentionDays: 12, maxBytesPerUser: 0 }),
    });
    expect(saved.status).toBe(200);
    const { user } = await userWithQuota({ 'old.txt': 'old' }, 0);
    const ops = await cabinet.open('', { token: user.token });
    const forbidden: string[] = [];
    ops.page.on('response', (response) => {
      if (response.status() === 403) forbidden.push(response.url());
    });
    await ops.select('old.txt');
    await ops.page.keyboard.press('Delete');
    await ops.deleteDialog.getByText('Delete this item?').waitFor();
    await ops.page.keyboard.press('Enter');
    await waitForNotice(
      ops.page,
      'Moved to the trash. You can restore it from the Trash screen for 12 days.',
    );

    await ops.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Trash' })
      .click();
    await ops.page.getByTestId('trash-item').filter({ hasText: 'old.txt' }).waitFor();
    await ops.page
      .getByText('Deleted items stay here for 12 days, then they are removed for good.')
      .waitFor();
    // A non-administrator's Trash screen does not ask for the user list (a 403 each visit).
    expect(forbidden).toEqual([]);
  });
});

describe('the Trash screen of a non-administrator', { timeout: 120_000 }, () => {
  it('asks nothing only administrators may read', async () => {
    const { user } = await userWithQuota({ 'kept.txt': 'k' }, 0);
    const { page } = await cabinet.tokenPage({ token: user.token });
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/users')) asked.push(request.url());
    });
    await page.goto(`${cabinet.server.url}/trash`);
    await page.getByText('The trash is empty.').waitFor();
    // Both lists are asked for as the screen opens: by now the user list would have been.
    expect(asked).toEqual([]);
    await page.getByText(/^Deleted items stay here for \d+ days?/).waitFor();
  });
});

describe('sites and sharing', { timeout: 120_000 }, () => {
  it('"View the site" opens in a new tab, and the posts screen keeps its heading order', async () => {
    const created = await cabinet.server.fetch('/api/sites', {
      method: 'POST',
      token: cabinet.server.admin.token,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'journal',
        title: 'Journal',
        folder: '/journal',
        starter: true,
        serve: true,
        users: [],
      }),
    });
    expect(created.status).toBe(201);
    await cabinet.seed({
      'journal/content/posts/first.md': '---\ntitle: "First post"\ndraft: true\n---\nHello.\n',
    });
    const { page } = await cabinet.tokenPage();
    await page.goto(`${cabinet.server.url}/publishing/journal`);
    await page.getByRole('heading', { name: 'First post', exact: true }).waitFor();
    const results = await new AxeBuilder({ page }).withRules(['heading-order']).analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);

    const opened = page.context().waitForEvent('page');
    await page.getByRole('link', { name: 'View the site' }).click();
    const tab = await opened;
    await tab.waitForURL(/\/sites\/journal\/$/);
    expect(page.url()).toBe(`${cabinet.server.url}/publishing/journal`);

    // The Sites screen's link to the site opens beside the app too.
    await page.goto(`${cabinet.server.url}/publishing`);
    const served = page.getByRole('link', { name: 'View the site' });
    expect(await served.getAttribute('target')).toBe('_blank');
  });

  it('"Permanent link", disabled once one exists, says why', async () => {
    await cabinet.seed({ 'share-me.txt': 'hello' });
    const ops = await cabinet.open('');
    await ops.select('share-me.txt');
    await ops.action('Share').click();
    const share = new ShareDialog(ops.page);
    await share.permanent.click();
    await share.links.first().waitFor();
    await expect.poll(() => share.permanent.isDisabled()).toBe(true);
    const why = 'This item already has a permanent link; one is enough.';
    expect(await share.permanent.getAttribute('title')).toBe(why);
    const describedBy = await share.permanent.getAttribute('aria-describedby');
    expect(describedBy).toBeTruthy();
    const description = ops.page.locator(`[id="${describedBy}"]`);
    expect(await description.textContent()).toBe(why);
  });
});
