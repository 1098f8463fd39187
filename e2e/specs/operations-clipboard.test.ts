import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

const cabinet = withCabinet();
const onDisk = (scopePath: string) => path.join(cabinet.server.root, scopePath);
const sorted = async (names: Promise<string[]>) => (await names).sort();

/** Seeds `base/from/name` and an empty `base/to/`, cuts the file and opens `to`, empty on screen. */
async function cutIntoEmptySibling(base: string, name: string) {
  await cabinet.seed({ [`${base}/from/${name}`]: name, [`${base}/to/`]: '' });
  const ops = await cabinet.open(`${base}/from/`);
  await ops.select(name);
  await ops.page.keyboard.press('ControlOrMeta+x');
  await ops.goToSibling('to');
  await ops.files.emptyMessage.waitFor();
  return ops;
}

describe('clipboard', () => {
  it('copies with Ctrl+C and pastes into another folder with Ctrl+V', async () => {
    await cabinet.seed({ 'p1/from/a.txt': 'a', 'p1/from/b.txt': 'b', 'p1/to/': '' });
    const ops = await cabinet.open('p1/from/');
    await ops.select('a.txt', 'b.txt');
    await ops.page.keyboard.press('ControlOrMeta+c');
    await ops.goToSibling('to');
    await ops.files.emptyMessage.waitFor();
    await ops.page.keyboard.press('ControlOrMeta+v');
    await expect.poll(() => sorted(ops.files.entryNames())).toEqual(['a.txt', 'b.txt']);
    expect(existsSync(onDisk('p1/from/a.txt'))).toBe(true);
    expect(ops.page.url()).toBe(`${cabinet.server.url}/files/p1/to/`);
  });

  it('pastes a copy into the folder it came from under a free name', async () => {
    await cabinet.seed({ 'p2/note.md': 'n' });
    const ops = await cabinet.open('p2/');
    await ops.select('note.md');
    await ops.page.keyboard.press('ControlOrMeta+c');
    await ops.page.keyboard.press('ControlOrMeta+v');
    await expect.poll(() => sorted(ops.files.entryNames())).toEqual(['note(1).md', 'note.md']);
    expect(await ops.replaceRename.count()).toBe(0);
  });

  it('moves with Ctrl+X and Ctrl+V, then forgets the clipboard', async () => {
    const ops = await cutIntoEmptySibling('p3', 'moving.txt');
    await ops.page.keyboard.press('ControlOrMeta+v');
    await ops.files.entry('moving.txt').waitFor();
    expect(existsSync(onDisk('p3/from/moving.txt'))).toBe(false);
    // A second paste has nothing left to paste: no request, so no "not found" error either.
    await ops.page.keyboard.press('ControlOrMeta+v');
    await ops.page.keyboard.press('F1');
    await ops.page.getByRole('dialog', { name: 'Help' }).waitFor();
    expect(await ops.notifications.getByRole('alert').count()).toBe(0);
    expect(await ops.files.entryNames()).toEqual(['moving.txt']);
  });

  it('pastes a cut once when Ctrl+V comes twice before the move has ended', async () => {
    const ops = await cutIntoEmptySibling('p5', 'twice.txt');
    await ops.page.keyboard.press('ControlOrMeta+v');
    await ops.page.keyboard.press('ControlOrMeta+v');
    await ops.files.entry('twice.txt').waitFor();
    await expect.poll(() => existsSync(onDisk('p5/from/twice.txt'))).toBe(false);
    // The second paste found the clipboard empty: no conflict question, no "not found".
    await ops.page.keyboard.press('F1');
    await ops.page.getByRole('dialog', { name: 'Help' }).waitFor();
    expect(await ops.replaceRename.count()).toBe(0);
    expect(await ops.notifications.getByRole('alert').count()).toBe(0);
    expect(await ops.files.entryNames()).toEqual(['twice.txt']);
  });

  it('asks replace, skip or keep both when a pasted name exists, and Cancel pastes nothing', async () => {
    await cabinet.seed({ 'p4/from/dup.txt': 'new', 'p4/to/dup.txt': 'old' });
    const ops = await cabinet.open('p4/from/');
    await ops.select('dup.txt');
    await ops.page.keyboard.press('ControlOrMeta+c');
    await ops.goToSibling('to');
    await ops.page.waitForURL(/\/p4\/to\/$/);
    await ops.files.entry('dup.txt').waitFor();
    await ops.page.keyboard.press('ControlOrMeta+v');
    await ops.replaceRename.waitFor();
    await ops.page.keyboard.press('Escape');
    await ops.replaceRename.waitFor({ state: 'detached' });
    expect(await ops.files.entryNames()).toEqual(['dup.txt']);
    await ops.page.keyboard.press('ControlOrMeta+v');
    await ops.button(ops.replaceRename, 'Keep both').click();
    await expect.poll(() => sorted(ops.files.entryNames())).toEqual(['dup(1).txt', 'dup.txt']);
  });
});
