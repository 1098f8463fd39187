import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();
const onDisk = (scopePath: string) => path.join(cabinet.server.root, scopePath);

describe('move', () => {
  it('moves into a folder chosen in the picker and opens it', async () => {
    await cabinet.seed({ 'm1/file.txt': 'f', 'm1/target/': '', 'm1/other/': '' });
    const ops = await cabinet.open('m1/');
    await ops.select('file.txt');
    await ops.action('Move').click();
    const dialog = ops.moveDialog;
    // The destination starts as the folder the entry is in: moving there is pointless.
    expect(await ops.button(dialog, 'Move').isDisabled()).toBe(true);
    await ops.folderOption(dialog, 'target').click();
    await dialog.getByText('Destination: /m1/target/').waitFor();
    expect(await ops.button(dialog, 'Move').isEnabled()).toBe(true);
    await ops.page.keyboard.press('Enter');
    await ops.page.waitForURL(`${cabinet.server.url}/files/m1/target/`);
    await ops.files.entry('file.txt').waitFor();
    expect(existsSync(onDisk('m1/file.txt'))).toBe(false);
  });

  it('moves entries whose names need encoding, into a folder whose name does too', async () => {
    const odd = 'odd name +%20 ü, #1?.txt';
    await cabinet.seed({ [`m5/${odd}`]: 'odd', 'm5/dest & co %41/': '' });
    const ops = await cabinet.open('m5/');
    await ops.select(odd);
    await ops.action('Move').click();
    await ops.folderOption(ops.moveDialog, 'dest & co %41').click();
    await ops.page.keyboard.press('Enter');
    await ops.page.waitForURL(
      `${cabinet.server.url}/files/m5/${encodeURIComponent('dest & co %41')}/`,
    );
    await ops.files.entry(odd).waitFor();
    expect(await readFile(onDisk(`m5/dest & co %41/${odd}`), 'utf8')).toBe('odd');
  });

  it('works on a phone, from the more-menu', async () => {
    await cabinet.seed({ 'm6/phone.txt': 'p', 'm6/inbox/': '' });
    const ops = await cabinet.open('m6/', { width: 390, height: 844 });
    await ops.select('phone.txt');
    await ops.page.getByRole('button', { name: 'More actions' }).click();
    await ops.page.getByRole('menuitem', { name: 'Move' }).click();
    const box = await ops.moveDialog.boundingBox();
    // Nearly the full width on phones.
    expect(box!.width).toBeGreaterThan(390 * 0.85);
    await ops.folderOption(ops.moveDialog, 'inbox').click();
    await ops.button(ops.moveDialog, 'Move').click();
    await ops.page.waitForURL(`${cabinet.server.url}/files/m6/inbox/`);
    await ops.files.entry('phone.txt').waitFor();
  });

  it('browses the picker with the keyboard: down chooses, right opens, left goes up', async () => {
    await cabinet.seed({ 'm2/a/deep/': '', 'm2/b/': '', 'm2/item.txt': 'i' });
    const ops = await cabinet.open('m2/');
    await ops.select('item.txt');
    await ops.action('Move').click();
    const dialog = ops.moveDialog;
    const list = ops.folderList(dialog);
    await ops.folderOption(dialog, 'a').waitFor();
    expect(await list.evaluate((el) => el === document.activeElement)).toBe(true);
    await ops.page.keyboard.press('ArrowDown');
    expect(await ops.folderOption(dialog, 'a').getAttribute('aria-selected')).toBe('true');
    await ops.page.keyboard.press('ArrowRight');
    await ops.folderOption(dialog, 'deep').waitFor();
    await dialog.getByText('Destination: /m2/a/').waitFor();
    await ops.page.keyboard.press('ArrowLeft');
    await ops.folderOption(dialog, 'b').waitFor();
    await ops.goUp(dialog).click();
    await ops.folderOption(dialog, 'm2').waitFor();
    await ops.folderOption(dialog, 'm2').dblclick();
    await ops.folderOption(dialog, 'b').click();
    await ops.page.keyboard.press('Enter');
    await ops.page.waitForURL(`${cabinet.server.url}/files/m2/b/`);
    await ops.files.entry('item.txt').waitFor();
  });

  it('on a clash, Replace overwrites the entry in the destination', async () => {
    await cabinet.seed({ 'm3/same.txt': 'moved', 'm3/dest/same.txt': 'was there' });
    const ops = await cabinet.open('m3/');
    await ops.select('same.txt');
    await ops.action('Move').click();
    await ops.folderOption(ops.moveDialog, 'dest').click();
    await ops.button(ops.moveDialog, 'Move').click();
    await ops.button(ops.replaceRename, 'Replace').click();
    await ops.page.waitForURL(`${cabinet.server.url}/files/m3/dest/`);
    await expect.poll(() => ops.files.entryNames()).toEqual(['same.txt']);
    expect(await readFile(onDisk('m3/dest/same.txt'), 'utf8')).toBe('moved');
  });

  it('on a clash, Keep both gives the moved entry the name "name(1).ext"', async () => {
    await cabinet.seed({ 'm4/same.txt': 'moved', 'm4/dest/same.txt': 'was there' });
    const ops = await cabinet.open('m4/');
    await ops.select('same.txt');
    await ops.action('Move').click();
    await ops.folderOption(ops.moveDialog, 'dest').click();
    await ops.button(ops.moveDialog, 'Move').click();
    await ops.button(ops.replaceRename, 'Keep both').click();
    await ops.page.waitForURL(`${cabinet.server.url}/files/m4/dest/`);
    await expect
      .poll(async () => (await ops.files.entryNames()).sort())
      .toEqual(['same(1).txt', 'same.txt']);
    expect(await readFile(onDisk('m4/dest/same(1).txt'), 'utf8')).toBe('moved');
    expect(await readFile(onDisk('m4/dest/same.txt'), 'utf8')).toBe('was there');
  });
});

describe('copy', () => {
  it('copies into the same folder under a free name without asking, and stays', async () => {
    await cabinet.seed({ 'c1/doc.txt': 'doc' });
    const ops = await cabinet.open('c1/');
    await ops.select('doc.txt');
    await ops.action('Copy').click();
    await ops.copyDialog.waitFor();
    expect(await ops.button(ops.copyDialog, 'Copy').isEnabled()).toBe(true);
    await ops.page.keyboard.press('Enter');
    await expect
      .poll(async () => (await ops.files.entryNames()).sort())
      .toEqual(['doc(1).txt', 'doc.txt']);
    expect(await ops.replaceRename.count()).toBe(0);
    expect(ops.page.url()).toBe(`${cabinet.server.url}/files/c1/`);
  });

  it('copies several entries into another folder and opens it', async () => {
    await cabinet.seed({ 'c2/x.txt': 'x', 'c2/y/inner.txt': 'in', 'c2/to/': '' });
    const ops = await cabinet.open('c2/');
    await ops.select('y', 'x.txt');
    await ops.action('Copy').click();
    await ops.copyDialog.getByText('Choose where to copy 2 items.').waitFor();
    await ops.folderOption(ops.copyDialog, 'to').click();
    await ops.button(ops.copyDialog, 'Copy').click();
    await ops.page.waitForURL(`${cabinet.server.url}/files/c2/to/`);
    await expect.poll(() => ops.files.entryNames()).toEqual(['y', 'x.txt']);
    expect(await readFile(onDisk('c2/to/y/inner.txt'), 'utf8')).toBe('in');
    expect(existsSync(onDisk('c2/x.txt'))).toBe(true);
  });

  it('does not offer the copied folder itself as a destination', async () => {
    await cabinet.seed({ 'c3/loop/inside/': '', 'c3/elsewhere/': '' });
    const ops = await cabinet.open('c3/');
    await ops.select('loop');
    await ops.action('Copy').click();
    await ops.folderOption(ops.copyDialog, 'elsewhere').waitFor();
    expect(await ops.folderOption(ops.copyDialog, 'loop').count()).toBe(0);
  });

  it('shows an error when the destination disappeared before the copy', async () => {
    await cabinet.seed({ 'c4/file.txt': 'f', 'c4/gone/': '' });
    const ops = await cabinet.open('c4/');
    await ops.select('file.txt');
    await ops.action('Copy').click();
    await ops.folderOption(ops.copyDialog, 'gone').click();
    await rm(onDisk('c4/gone'), { recursive: true });
    await ops.button(ops.copyDialog, 'Copy').click();
    await ops.notifications.getByRole('alert').waitFor();
    expect(await ops.errorMessages()).toEqual(["This location can't be reached."]);
    expect(ops.page.url()).toBe(`${cabinet.server.url}/files/c4/`);
  });
});
