import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';

// Under a base URL the router's own location keeps the prefix: operations must still know which
// folder is on screen, and downloads must go to the prefixed API.
const cabinet = withCabinet({
  files: { 'b/doc.txt': 'doc', 'b/sub/': '', 'b/gone.txt': 'g' },
  server: { config: { baseURL: '/fb' } },
});

describe('operations under a base URL', () => {
  it('copies into the folder on screen and stays there', async () => {
    const ops = await cabinet.open('b/');
    expect(ops.page.url()).toBe(`${cabinet.server.url}/files/b/`);
    await ops.select('doc.txt');
    await ops.action('Copy').click();
    await ops.copyDialog.waitFor();
    await ops.page.keyboard.press('Enter');
    await expect
      .poll(async () => (await ops.files.entryNames()).sort())
      .toEqual(['doc(1).txt', 'doc.txt', 'gone.txt', 'sub']);
    expect(ops.page.url()).toBe(`${cabinet.server.url}/files/b/`);
  });

  it('moves into a subfolder and opens it', async () => {
    const ops = await cabinet.open('b/');
    await ops.select('gone.txt');
    await ops.action('Move').click();
    await ops.folderOption(ops.moveDialog, 'sub').click();
    await ops.page.keyboard.press('Enter');
    await ops.page.waitForURL(`${cabinet.server.url}/files/b/sub/`);
    await ops.files.entry('gone.txt').waitFor();
    expect(existsSync(path.join(cabinet.server.root, 'b/sub/gone.txt'))).toBe(true);
  });

  it('downloads a folder as zip from the prefixed API', async () => {
    const ops = await cabinet.open('b/');
    await ops.select('sub');
    await ops.action('Download').click();
    const [download] = await Promise.all([
      ops.page.waitForEvent('download'),
      ops.button(ops.downloadDialog, 'zip').click(),
    ]);
    expect(download.url()).toBe(`${cabinet.server.url}/api/raw/b/sub?algo=zip`);
    expect(download.suggestedFilename()).toBe('sub.zip');
  });
});
