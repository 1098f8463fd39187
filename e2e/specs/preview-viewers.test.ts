import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  HOSTILE_MARKDOWN,
  HOSTILE_SVG,
  pdf,
  png,
  rotatedJpeg,
  silentMp3,
  srt,
  webmClip,
} from '../fixtures/preview-fixtures.ts';
import { PreviewPage } from '../pages/preview.ts';
import { loginThroughForm } from '../support/session.ts';
import { withCabinet } from '../support/cabinet.ts';

let page: Page;
let consoleErrors: string[];
let cspViolations: string[];

const cabinet = withCabinet({
  files: {
    'media/clip.en.srt': srt('Hello subtitles'),
    'media/subs/clip.de.srt': srt('Hallo Untertitel'),
    'docs/notes.md': HOSTILE_MARKDOWN,
    'docs/data.bin': '',
  },
  setup: async (server) => {
    const write = (name: string, data: Buffer | string) =>
      writeFile(path.join(server.root, name), data);
    await write('media/photo.jpg', await rotatedJpeg());
    await write('media/pixel.png', await png());
    await write('media/tone.mp3', silentMp3());
    await write('media/clip.webm', await webmClip());
    await write('docs/paper.pdf', pdf());
    await write('docs/logo.svg', HOSTILE_SVG);
    await write('docs/data.bin', Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7]));
    await write('media/damaged.mp4', Buffer.from('not a video at all, just some bytes'));
  },
});

async function open(encodedPath: string, name: string): Promise<PreviewPage> {
  ({ page, consoleErrors, cspViolations } = await cabinet.newPage());
  await loginThroughForm(page, cabinet.server.url, 'admin', cabinet.server.admin.password);
  const preview = new PreviewPage(page);
  await preview.goto(cabinet.server.url, encodedPath);
  await preview.waitFor(name);
  return preview;
}

/** Every URL the page's media, images and objects load: none may carry the session token. */
async function mediaUrls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('img, audio, video, track, object, source')].map(
      (element) =>
        (element as HTMLImageElement).currentSrc ||
        element.getAttribute('src') ||
        element.getAttribute('data') ||
        '',
    ),
  );
}

describe('image viewer', () => {
  it('shows the big preview upright (EXIF orientation applied) and toggles to the full size', async () => {
    const preview = await open('media/photo.jpg', 'photo.jpg');
    await expect
      .poll(() =>
        preview.image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBeGreaterThan(0);
    expect(await preview.image.getAttribute('src')).toContain('/api/preview/big/media/photo.jpg');
    const size = await preview.image.evaluate((img: HTMLImageElement) => [
      img.naturalWidth,
      img.naturalHeight,
    ]);
    expect(size).toEqual([40, 80]);

    await preview.fullSize.click();
    expect(await preview.fullSize.getAttribute('aria-pressed')).toBe('true');
    await expect
      .poll(() => preview.image.getAttribute('src'))
      .toContain('/api/raw/media/photo.jpg?inline=true');
    await expect
      .poll(() =>
        preview.image.evaluate((img: HTMLImageElement) => img.complete && img.naturalHeight),
      )
      .toBe(80);
    expect(await preview.image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    for (const url of await mediaUrls(page)) expect(url).not.toMatch(/auth=|jwt|token/i);
  });

  it('shows a PNG with its name as the alternative text', async () => {
    const preview = await open('media/pixel.png', 'pixel.png');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(64);
    expect(await page.getByRole('img', { name: 'pixel.png' }).isVisible()).toBe(true);
  });

  it('shows an SVG without ever running its script, in the page or opened directly', async () => {
    const preview = await open('docs/logo.svg', 'logo.svg');
    await expect
      .poll(() => preview.image.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(120);
    const flags = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return [w.__svgOnloadRan, w.__svgScriptRan];
    });
    expect(flags).toEqual([undefined, undefined]);

    // Opened as a document of its own (a shared link, "open image in new tab"), the cabinet.server's
    // sandbox policy keeps the script from running in Cabinet's origin.
    await page.goto(`${cabinet.server.url}/api/raw/docs/logo.svg?inline=true`);
    expect(await page.title()).not.toBe('svg script ran');
    expect(consoleErrors.join('\n')).not.toContain('svg script ran');
  });
});

describe('audio and video', () => {
  it('plays an MP3 in the browser player', async () => {
    const preview = await open('media/tone.mp3', 'tone.mp3');
    await expect
      .poll(() => preview.audio.evaluate((audio: HTMLAudioElement) => audio.duration))
      .toBeGreaterThan(0.5);
    expect(await preview.audio.getAttribute('controls')).not.toBeNull();
  });

  it('plays a video with every subtitle track the server reports', async () => {
    const preview = await open('media/clip.webm', 'clip.webm');
    await expect
      .poll(() => preview.video.evaluate((video: HTMLVideoElement) => video.videoWidth))
      .toBe(160);
    const tracks = await preview.video.evaluate((video: HTMLVideoElement) =>
      [...video.textTracks].map((track) => [track.label, track.language, track.kind]),
    );
    expect(tracks).toEqual([
      ['clip.en.srt', 'en', 'subtitles'],
      ['clip.de.srt', 'de', 'subtitles'],
    ]);
    // The first track shows by default; its SRT arrives converted to WebVTT cues.
    await expect
      .poll(() =>
        preview.video.evaluate((video: HTMLVideoElement) => {
          const cues = video.textTracks[0]?.cues;
          return cues && cues.length > 0 ? (cues[0] as VTTCue).text : null;
        }),
      )
      .toBe('Hello subtitles');
    for (const url of await mediaUrls(page)) expect(url).not.toMatch(/auth=|jwt|token/i);
  });
});

describe('media the browser cannot play', () => {
  it('offers the file for download instead of a dead player', async () => {
    const preview = await open('media/damaged.mp4', 'damaged.mp4');
    await preview.downloadCard.getByText('This browser cannot play this file.').waitFor();
    expect(await preview.video.count()).toBe(0);
    await preview.downloadCard.getByRole('link', { name: 'Download damaged.mp4' }).waitFor();
  });
});

describe('documents', () => {
  it("shows a PDF in the cabinet.browser's viewer", async () => {
    const preview = await open('docs/paper.pdf', 'paper.pdf');
    const data = await preview.pdf.getAttribute('data');
    expect(data).toContain('/api/raw/docs/paper.pdf?inline=true');
    const reply = await page.request.get(new URL(data!, page.url()).toString());
    expect(reply.status()).toBe(200);
    expect(reply.headers()['content-type']).toContain('application/pdf');
  });

  it('renders Markdown and runs none of its script, handlers or javascript: links', async () => {
    const preview = await open('docs/notes.md', 'notes.md');
    await preview.markdown.getByRole('heading', { name: 'Release notes' }).waitFor();
    expect(await preview.markdown.locator('strong').textContent()).toBe('bold');
    expect(await preview.markdown.getByRole('table').isVisible()).toBe(true);
    const safe = preview.markdown.getByRole('link', { name: 'safe link' });
    expect(await safe.getAttribute('rel')).toBe('noopener noreferrer');
    // A relative image is read from beside the document, authorised by the cookie.
    const logo = preview.markdown.getByRole('img', { name: 'the logo' });
    expect(await logo.getAttribute('src')).toMatch(/\/api\/raw\/docs\/logo\.svg\?inline=true$/);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(120);

    // Give a handler every chance: click the links, let the broken image fail.
    const clickMe = preview.markdown.getByText('click me');
    await clickMe.click();
    await preview.markdown.getByText('click handler').click();
    const html = await preview.markdown.innerHTML();
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:|<iframe/i);
    const flags = await page.evaluate(() => {
      const w = window as unknown as Record<string, unknown>;
      return Object.keys(w).filter((key) => key.startsWith('__markdown'));
    });
    expect(flags).toEqual([]);
    // The page's CSP (a second line of defence) refused the hostile handler while the Markdown was
    // parsed for sanitising; it must refuse nothing else.
    expect(cspViolations.filter((v) => !v.includes('inline event handler'))).toEqual([]);
    cspViolations.length = 0;
  });

  it('offers any other file for download with its size and type', async () => {
    const preview = await open('docs/data.bin', 'data.bin');
    await preview.downloadCard.waitFor();
    expect(await preview.downloadCard.textContent()).toContain('9 B');
    expect(await preview.downloadCard.textContent()).toContain('BIN file');
    const link = preview.downloadCard.getByRole('link', { name: 'Download data.bin' });
    expect(await link.getAttribute('href')).toMatch(/\/api\/raw\/docs\/data\.bin$/);
    const reply = await page.request.get(
      new URL((await link.getAttribute('href'))!, page.url()).toString(),
    );
    expect(reply.status()).toBe(200);
    expect(Buffer.from(await reply.body())).toEqual(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 0, 7]));
  });
});
