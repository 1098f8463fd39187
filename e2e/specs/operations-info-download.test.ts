import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { waitForNotice } from '../support/notices.ts';

const CONTENT = 'The quick brown fox jumps over the lazy dog\n';
const cabinet = withCabinet({
  files: {
    'i1/fox.txt': CONTENT,
    'i1/box/one.bin': 'x'.repeat(1000),
    'i1/box/deeper/two.bin': 'y'.repeat(2000),
    'i1/box/sub/': '',
    'i1/odd, name +%20 ü.txt': 'odd',
  },
});
const scratch = mkdtemp(path.join(os.tmpdir(), 'cabinet-e2e-dl-'));
afterAll(async () => rm(await scratch, { recursive: true, force: true }));

/** The value of one "term: value" line of the info dialog. */
async function fact(dialog: import('playwright-core').Locator, term: string): Promise<string> {
  const row = dialog.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) });
  return (await row.locator('xpath=following-sibling::dd').textContent()) ?? '';
}

describe('info', () => {
  it('shows a file and computes its SHA-256 on demand', async () => {
    const ops = await cabinet.open('i1/');
    await ops.select('fox.txt');
    await ops.action('Info').click();
    const dialog = ops.infoDialog;
    expect(await fact(dialog, 'Name')).toBe('fox.txt');
    expect(await fact(dialog, 'Size')).toBe('44 B');
    expect(await fact(dialog, 'Type')).toBe('Text');
    expect(await fact(dialog, 'Last modified')).not.toBe('');
    await ops.button(dialog, 'Compute SHA-256').click();
    const expected = createHash('sha256').update(CONTENT).digest('hex');
    const field = dialog.getByRole('textbox', { name: 'SHA-256' });
    await expect.poll(() => field.inputValue()).toBe(expected);
    await ops.button(dialog, 'Copy SHA-256').click();
    await waitForNotice(ops.page, 'SHA-256 copied to the clipboard');
  });

  it("counts a folder's folders and files and sums the files inside it", async () => {
    const ops = await cabinet.open('i1/');
    await ops.select('box');
    await ops.action('Info').click();
    const dialog = ops.infoDialog;
    await expect.poll(() => fact(dialog, 'Size')).toBe('2.9 KiB');
    expect(await fact(dialog, 'Folders')).toBe('2');
    expect(await fact(dialog, 'Files')).toBe('1');
    expect(await fact(dialog, 'Type')).toBe('Folder');
    expect(await ops.button(dialog, 'Compute MD5').count()).toBe(0);
  });

  it('offers no checksums to a user who may not download', async () => {
    const user = await cabinet.server.createUser({ perm: { download: false } });
    const ops = await cabinet.open('i1/', { token: user.token });
    await ops.select('fox.txt');
    await ops.action('Info').click();
    expect(await fact(ops.infoDialog, 'Size')).toBe('44 B');
    expect(await ops.infoDialog.getByRole('heading', { name: 'Checksums' }).count()).toBe(0);
    expect(await ops.infoDialog.getByRole('button', { name: /^Compute/ }).count()).toBe(0);
  });

  it('sums up several selected entries', async () => {
    const ops = await cabinet.open('i1/');
    await ops.select('box', 'fox.txt');
    await ops.action('Info').click();
    const dialog = ops.infoDialog;
    expect(await fact(dialog, 'Selected')).toBe('2');
    expect(await fact(dialog, 'Folders')).toBe('1');
    expect(await fact(dialog, 'Files')).toBe('1');
    await expect.poll(() => fact(dialog, 'Total size')).toBe('3.0 KiB');
  });
});

describe('download', () => {
  it('downloads a single file directly, without asking for a format', async () => {
    const ops = await cabinet.open('i1/');
    await ops.select('fox.txt');
    const [download] = await Promise.all([
      ops.page.waitForEvent('download'),
      ops.action('Download').click(),
    ]);
    expect(download.suggestedFilename()).toBe('fox.txt');
    const saved = path.join(await scratch, 'fox.txt');
    await download.saveAs(saved);
    expect(await readFile(saved, 'utf8')).toBe(CONTENT);
    expect(await ops.downloadDialog.count()).toBe(0);
  });

  it('downloads a selection as a zip archive holding every selected entry, odd names too', async () => {
    const ops = await cabinet.open('i1/');
    await ops.select('box', 'fox.txt', 'odd, name +%20 ü.txt');
    await ops.action('Download').click();
    await ops.downloadDialog.waitFor();
    const formats = await ops.downloadDialog.getByRole('button').allTextContents();
    expect(formats).toEqual([
      'zip',
      'tar',
      'tar.gz',
      'tar.bz2',
      'tar.xz',
      'tar.lz4',
      'tar.sz',
      'tar.br',
      'tar.zst',
      'Cancel',
    ]);
    const [download] = await Promise.all([
      ops.page.waitForEvent('download'),
      ops.button(ops.downloadDialog, 'zip').click(),
    ]);
    expect(download.suggestedFilename()).toBe('_i1.zip');
    const dir = await scratch;
    const zip = path.join(dir, 'selection.zip');
    await download.saveAs(zip);
    const out = path.join(dir, 'unzipped');
    execFileSync('unzip', ['-q', '-o', zip, '-d', out]);
    expect(await readFile(path.join(out, 'fox.txt'), 'utf8')).toBe(CONTENT);
    expect(await readFile(path.join(out, 'box/one.bin'), 'utf8')).toBe('x'.repeat(1000));
    expect(await readFile(path.join(out, 'box/deeper/two.bin'), 'utf8')).toBe('y'.repeat(2000));
    expect(await readFile(path.join(out, 'odd, name +%20 ü.txt'), 'utf8')).toBe('odd');
  });

  it('downloads the folder on screen as tar.gz with Ctrl+S', async () => {
    const ops = await cabinet.open('i1/box/');
    await ops.files.entry('one.bin').waitFor();
    await ops.page.keyboard.press('ControlOrMeta+s');
    await ops.downloadDialog.waitFor();
    const [download] = await Promise.all([
      ops.page.waitForEvent('download'),
      ops.button(ops.downloadDialog, 'tar.gz').click(),
    ]);
    expect(download.suggestedFilename()).toBe('box.tar.gz');
    const saved = path.join(await scratch, 'box.tar.gz');
    await download.saveAs(saved);
    const names = execFileSync('tar', ['-tzf', saved], { encoding: 'utf8' }).split('\n');
    expect(names).toEqual(expect.arrayContaining(['one.bin', 'deeper/two.bin']));
  });
});
