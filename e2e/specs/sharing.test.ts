import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pdf } from '../fixtures/preview-fixtures.ts';
import { PublicSharePage } from '../pages/share-page.ts';
import { ShareDialog } from '../pages/share-dialog.ts';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

const cabinet = withCabinet({
  files: {
    'trip/notes.txt': 'packing list\n',
    'trip/photos/beach.txt': 'sand\n',
    'report.txt': 'quarterly numbers\n',
  },
});
const scratch = mkdtemp(path.join(os.tmpdir(), 'cabinet-e2e-share-'));

afterAll(async () => {
  await rm(await scratch, { recursive: true, force: true });
});

/** Makes a link through the API, as the admin. */
async function makeLink(sharePath: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await cabinet.server.fetch(`/api/share${sharePath}`, {
    method: 'POST',
    token: cabinet.server.admin.token,
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { hash: string }).hash;
}

/** A visitor's page in a fresh browser context: no session, no cookies. */
async function visit(hash: string, sub = ''): Promise<PublicSharePage> {
  const { page } = await cabinet.newPage();
  await page.goto(`${cabinet.server.url}/share/${hash}${sub}`);
  return new PublicSharePage(page);
}

describe('the share dialog', () => {
  it('creates, lists, copies and deletes links', async () => {
    const ops = await cabinet.open('');
    await ops.select('report.txt');
    await ops.action('Share').click();
    const share = new ShareDialog(ops.page);
    await share.dialog.getByText('No links yet', { exact: false }).waitFor();
    // An empty duration blocks creation.
    expect(await share.create.isDisabled()).toBe(true);
    await share.duration.fill('2');
    await share.unit.selectOption('days');
    await share.create.click();
    await expect.poll(() => share.links.count()).toBe(1);
    expect(await share.links.first().textContent()).toContain('Expires');
    await share.permanent.click();
    await expect.poll(() => share.links.count()).toBe(2);
    // Permanent links come first, and a second permanent link is not offered (the button stays
    // in its place, disabled).
    expect(await share.links.first().textContent()).toContain('Permanent');
    expect(await share.permanent.isDisabled()).toBe(true);
    const [permanentUrl] = await share.urls();
    expect(permanentUrl).toMatch(new RegExp(`^${cabinet.server.url}/share/[A-Za-z0-9_-]{16}$`));
    await share.links.first().getByRole('button', { name: 'Copy link' }).click();
    await waitForNotice(ops.page, 'Link copied!');
    await share.links.first().getByRole('button', { name: 'Show QR code' }).click();
    await share.dialog.getByRole('img', { name: 'QR code of the link' }).waitFor();
    await share.links.first().getByRole('button', { name: 'Delete link' }).click();
    await expect.poll(() => share.links.count()).toBe(1);
    await share.permanent.waitFor();
    const listed = (await (
      await cabinet.server.fetch('/api/share/report.txt', { token: cabinet.server.admin.token })
    ).json()) as unknown[];
    expect(listed).toHaveLength(1);
  });

  it('makes a password link with a download limit', async () => {
    const ops = await cabinet.open('');
    await ops.select('trip');
    await ops.action('Share').click();
    const share = new ShareDialog(ops.page);
    await share.dialog.getByText('No links yet', { exact: false }).waitFor();
    await share.password.fill('letmein');
    await share.downloadLimit.fill('3');
    const requestFiles = share.dialog.getByRole('button', { name: 'Request files', exact: true });
    // Across, that is: the dialog grows downwards with the new link.
    const spots = async () =>
      (await Promise.all([requestFiles.boundingBox(), share.permanent.boundingBox()])).map(
        (box) => box && Math.round(box.x),
      );
    const before = await spots();
    await share.permanent.click();
    await expect.poll(() => share.links.count()).toBe(1);
    // One place per action: after the permanent link, no other button moves into its spot.
    await expect.poll(() => share.permanent.isDisabled()).toBe(true);
    expect(await spots()).toEqual(before);
    const text = await share.links.first().textContent();
    expect(text).toContain('Password');
    expect(text).toContain('Downloads: 0 of 3');
    await share.password.fill('');
    await share.downloadLimit.fill('');
    await share.dialog.getByRole('button', { name: 'Request files', exact: true }).click();
    await expect.poll(() => share.links.count()).toBe(2);
    expect(await share.links.allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('File request')]),
    );
  });
});

describe('the public share page', () => {
  it('shows a shared folder without login, walks into a sub-folder and downloads a file and a zip', async () => {
    const hash = await makeLink('/trip/');
    const visitor = await visit(hash);
    await visitor.heading.filter({ hasText: 'trip' }).waitFor();
    await visitor.qrCode.waitFor();
    expect(await visitor.contents.getByRole('link').count()).toBe(2);
    await visitor.entry('photos').click();
    await visitor.heading.filter({ hasText: 'photos' }).waitFor();
    await visitor.entry('beach.txt').click();
    await visitor.heading.filter({ hasText: 'beach.txt' }).waitFor();
    const [file] = await Promise.all([
      visitor.page.waitForEvent('download'),
      visitor.download.click(),
    ]);
    expect(file.suggestedFilename()).toBe('beach.txt');
    const saved = path.join(await scratch, 'beach.txt');
    await file.saveAs(saved);
    expect(await readFile(saved, 'utf8')).toBe('sand\n');

    await visitor.page.getByRole('link', { name: /^Back to/ }).click();
    await visitor.page.getByRole('link', { name: /^Back to trip/ }).click();
    await visitor.heading.filter({ hasText: 'trip' }).waitFor();
    await visitor.format.selectOption('zip');
    const [zip] = await Promise.all([
      visitor.page.waitForEvent('download'),
      visitor.download.click(),
    ]);
    expect(zip.suggestedFilename()).toBe('trip.zip');
    const zipPath = path.join(await scratch, 'trip.zip');
    await zip.saveAs(zipPath);
    const names = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8' });
    expect(names).toContain('notes.txt');
    expect(names).toContain('photos/beach.txt');
    await visitor.page.context().close();
  });

  it('leads back from a file of a folder link to the folder, by the folder’s name', async () => {
    const hash = await makeLink('/trip/');
    const visitor = await visit(hash);
    await visitor.entry('notes.txt').click();
    await visitor.heading.filter({ hasText: 'notes.txt' }).waitFor();
    const back = visitor.page.getByRole('link', { name: /^Back to/ });
    await back.filter({ hasText: 'Back to trip' }).waitFor();
    expect(await back.textContent()).not.toContain('notes.txt');
    await visitor.page.context().close();
    // Opened straight from an address, without the folder's page first.
    const direct = await visit(hash, '/notes.txt');
    await direct.heading.filter({ hasText: 'notes.txt' }).waitFor();
    await direct.page.getByRole('link', { name: 'Back to trip' }).click();
    await direct.entry('photos').waitFor();
    await direct.page.context().close();
  });

  it('asks for the password of a protected link and then opens and downloads', async () => {
    const hash = await makeLink('/report.txt', { password: 'correct horse' });
    const visitor = await visit(hash);
    await visitor.page.getByRole('heading', { name: 'This link is protected' }).waitFor();
    await visitor.password.fill('wrong');
    await visitor.open.click();
    await visitor.page.getByRole('alert').filter({ hasText: 'Wrong password' }).waitFor();
    await visitor.password.fill('correct horse');
    await visitor.open.click();
    await visitor.heading.filter({ hasText: 'report.txt' }).waitFor();
    const [file] = await Promise.all([
      visitor.page.waitForEvent('download'),
      visitor.download.click(),
    ]);
    const saved = path.join(await scratch, 'report.txt');
    await file.saveAs(saved);
    expect(await readFile(saved, 'utf8')).toBe('quarterly numbers\n');
    await visitor.page.context().close();
  });

  it('takes files into a file request and thanks the visitor', async () => {
    const hash = await makeLink('/trip/', { request: true });
    const visitor = await visit(hash);
    await visitor.page.getByRole('heading', { name: 'Send files to trip' }).waitFor();
    expect(await visitor.page.getByText('notes.txt').count()).toBe(0);
    await visitor.page.getByLabel('Choose files').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('from a visitor') },
      { name: 'new.txt', mimeType: 'text/plain', buffer: Buffer.from('brand new') },
    ]);
    await visitor.page
      .getByRole('status')
      .filter({ hasText: 'Thank you! Files received: 2.' })
      .waitFor();
    const root = path.join(cabinet.server.root, 'trip');
    expect(await readFile(path.join(root, 'notes.txt'), 'utf8')).toBe('packing list\n');
    expect(await readFile(path.join(root, 'notes(1).txt'), 'utf8')).toBe('from a visitor');
    expect(await readFile(path.join(root, 'new.txt'), 'utf8')).toBe('brand new');
    await visitor.page.context().close();
  });

  it('counts one download for a visit that previews and downloads a PDF, and then says the link is used up', async () => {
    const paper = pdf('One copy only');
    await writeFile(path.join(cabinet.server.root, 'paper.pdf'), paper);
    const hash = await makeLink('/paper.pdf', { downloadLimit: 1 });
    const downloads = async () => (await cabinet.server.ctx.store.shares.get(hash))?.downloads;
    const visitor = await visit(hash);
    await visitor.heading.filter({ hasText: 'paper.pdf' }).waitFor();
    const preview = visitor.page.getByTitle('paper.pdf');
    await preview.waitFor();
    // The preview fetched the file: that is this visit's one download.
    await expect.poll(downloads).toBe(1);
    const [file] = await Promise.all([
      visitor.page.waitForEvent('download'),
      visitor.download.click(),
    ]);
    expect(file.suggestedFilename()).toBe('paper.pdf');
    const saved = path.join(await scratch, 'paper.pdf');
    await file.saveAs(saved);
    expect(Buffer.compare(await readFile(saved), paper)).toBe(0);
    expect(await downloads()).toBe(1);
    await visitor.page.context().close();

    const again = await visit(hash);
    await again.page.getByRole('heading', { name: "This link's downloads are used up." }).waitFor();
    expect(await again.page.getByText('does not exist').count()).toBe(0);
    await again.page.context().close();

    const ops = await cabinet.open('');
    await ops.page.goto(`${cabinet.server.url}/settings/shares`);
    const row = ops.page.getByRole('row').filter({ hasText: '/paper.pdf' });
    await row.getByText('Used up', { exact: true }).waitFor();
    expect(await row.textContent()).toContain('1 of 1');
  });

  it('says plainly when a link does not exist', async () => {
    const visitor = await visit('no-such-link');
    await visitor.page
      .getByRole('heading', { name: 'This link does not exist or has expired.' })
      .waitFor();
    await visitor.page.context().close();
  });
});

describe('the Shares screen', () => {
  it('lists links with their owner and deletes one after confirming', async () => {
    const hash = await makeLink('/trip/notes.txt', { downloadLimit: 5 });
    const ops = await cabinet.open('');
    await ops.page.goto(`${cabinet.server.url}/settings/shares`);
    const row = ops.page.getByRole('row').filter({ hasText: '/trip/notes.txt' });
    await row.waitFor();
    expect(await row.textContent()).toContain('0 of 5');
    expect(await row.textContent()).toContain('admin');
    await row.getByRole('button', { name: 'Delete link: /trip/notes.txt' }).click();
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    expect(await cabinet.server.ctx.store.shares.get(hash)).toBeUndefined();
  });
});
