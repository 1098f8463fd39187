import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FilesPage } from '../pages/files-page.ts';
import { PreviewPage } from '../pages/preview.ts';
import { withCabinet } from '../support/cabinet.ts';

const run = promisify(execFile);

const cabinet = withCabinet({
  files: { 'media/': '', 'docs/': '' },
  setup: async (server) => {
    const media = path.join(server.root, 'media');
    // A video (black start, red after) and an MKV of the same streams for the remux.
    for (const name of ['clip.mp4', 'clip.mkv']) {
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'color=c=black:s=320x240:r=25:d=0.2',
        '-f',
        'lavfi',
        '-i',
        'color=c=red:s=320x240:r=25:d=2.8',
        '-filter_complex',
        '[0][1]concat=n=2:v=1:a=0',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        path.join(media, name),
      ]);
    }
    const docs = path.join(server.root, 'docs');
    const scratch = path.join(server.root, '..', 'scratch');
    await mkdir(scratch, { recursive: true });
    await writeFile(
      path.join(scratch, 'letter.fodt'),
      '<?xml version="1.0" encoding="UTF-8"?><office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text"><office:body><office:text><text:p>Hello</text:p></office:text></office:body></office:document>',
    );
    await run('soffice', [
      `-env:UserInstallation=file://${scratch}/profile`,
      '--headless',
      '--convert-to',
      'docx',
      '--outdir',
      docs,
      path.join(scratch, 'letter.fodt'),
    ]);
  },
});

async function login(viewMode: string) {
  const user = await cabinet.server.createUser({ viewMode });
  return (await cabinet.loginPage({ user })).page;
}

describe('previews of every format (issue 41)', () => {
  it('shows a poster frame for a video and a page for a Word document in the mosaic', async () => {
    const page = await login('mosaic');
    const files = new FilesPage(page);
    await page.goto(`${cabinet.server.url}/files/media/`);
    const video = files.item('clip.mp4').locator('img');
    expect(await video.getAttribute('src')).toContain('/api/preview/thumb/media/clip.mp4');
    await expect
      .poll(() => video.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(256);
    await page.goto(`${cabinet.server.url}/files/docs/`);
    const letter = files.item('letter.docx');
    expect(await letter.getAttribute('data-card')).toBe('picture');
    await expect
      .poll(() =>
        letter.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(256);
  });

  it('previews a Word document as the PDF the server renders', async () => {
    const page = await login('list');
    const preview = new PreviewPage(page);
    await preview.goto(cabinet.server.url, 'docs/letter.docx');
    await preview.waitFor('letter.docx');
    expect(await preview.pdf.getAttribute('data')).toContain('/api/preview/pdf/docs/letter.docx');
  });

  it('plays an MKV through the remux', async () => {
    const page = await login('list');
    const preview = new PreviewPage(page);
    await preview.goto(cabinet.server.url, 'media/clip.mkv');
    await preview.waitFor('clip.mkv');
    expect(await preview.video.getAttribute('src')).toContain('/api/preview/play/media/clip.mkv');
    await expect
      .poll(() => preview.video.evaluate((video: HTMLVideoElement) => video.readyState))
      .toBeGreaterThanOrEqual(1);
  });
});
