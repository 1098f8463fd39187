import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FilesPage } from '../pages/files-page.ts';
import { PreviewPage } from '../pages/preview.ts';
import { withCabinet } from '../support/cabinet.ts';

const run = promisify(execFile);

/** An H.264 video of `seconds` with a keyframe every 2 s, in `file`'s container. */
async function makeVideo(file: string, seconds: number): Promise<void> {
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=s=320x240:r=25:d=${seconds}`,
    '-c:v',
    'libx264',
    '-g',
    '50',
    '-pix_fmt',
    'yuv420p',
    file,
  ]);
}

const cabinet = withCabinet({
  files: { 'media/': '', 'photos/': '', 'gallery/': '' },
  setup: async (server) => {
    const media = path.join(server.root, 'media');
    await makeVideo(path.join(media, 'short.mp4'), 7);
    await makeVideo(path.join(media, 'film.mkv'), 30);
    for (const [name, background] of [
      ['a.jpg', '#c00'],
      ['b.jpg', '#0c0'],
      ['c.jpg', '#00c'],
    ] as const) {
      await sharp({ create: { width: 640, height: 480, channels: 3, background } })
        .jpeg()
        .toFile(path.join(server.root, 'photos', name));
    }
    // More photos than the mosaic draws at once.
    const small = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#888' },
    })
      .jpeg()
      .toBuffer();
    for (let i = 0; i < 120; i++) {
      await writeFile(
        path.join(server.root, 'gallery', `p${String(i).padStart(3, '0')}.jpg`),
        small,
      );
    }
  },
});

async function login(viewMode: string) {
  const user = await cabinet.server.createUser({ viewMode });
  return (await cabinet.loginPage({ user })).page;
}

describe('video durations and remux seeking (issue 41)', () => {
  it('shows the length of a video on its tile and in the list, for screen readers too', async () => {
    const page = await login('mosaic');
    const files = new FilesPage(page);
    await page.goto(`${cabinet.server.url}/files/media/`);
    const badge = files.item('short.mp4').getByTestId('duration');
    // Seen as "0:07" over the poster frame; heard as "Duration 0:07".
    await expect.poll(() => badge.locator('time').textContent()).toBe('0:07');
    expect(await badge.locator('time').getAttribute('datetime')).toBe('PT7S');
    expect(await badge.locator('time').getAttribute('aria-hidden')).toBe('true');
    expect(await badge.locator('.visually-hidden').textContent()).toBe('Duration 0:07');
    const film = files.item('film.mkv').getByTestId('duration').locator('time');
    await expect.poll(() => film.textContent()).toBe('0:30');

    const list = await login('list');
    await list.goto(`${cabinet.server.url}/files/media/`);
    await expect
      .poll(() =>
        new FilesPage(list).item('short.mp4').getByTestId('duration').locator('time').textContent(),
      )
      .toBe('0:07');
  });

  it('seeks in a remuxed MKV from the keyboard, showing the position in the whole film', async () => {
    const page = await login('list');
    const preview = new PreviewPage(page);
    await preview.goto(cabinet.server.url, 'media/film.mkv');
    await preview.waitFor('film.mkv');
    const slider = page.getByRole('slider', { name: 'Position in the video' });
    await expect.poll(() => slider.getAttribute('max')).toBe('30');
    expect(await slider.getAttribute('aria-valuetext')).toBe('0:00 / 0:30');

    // PageUp moves a tenth of the film: three of them ask the server for the stream from 9 s.
    await slider.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('PageUp');
    await expect
      .poll(() => preview.video.getAttribute('src'))
      .toContain('/api/preview/play/media/film.mkv?start=9');
    // The remux starts at the keyframe before (8 s: one every 2 s), and the timeline says so.
    await expect
      .poll(async () => Number(await preview.video.getAttribute('data-stream-start')))
      .toBeGreaterThan(7.9);
    expect(Number(await preview.video.getAttribute('data-stream-start'))).toBeLessThan(8.2);
    await expect.poll(() => slider.getAttribute('aria-valuetext')).toBe('0:08 / 0:30');

    // Playing on counts from there, not from the stream's own zero.
    await page.getByRole('button', { name: 'Mute' }).click();
    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => slider.inputValue()).toMatch(/^(9|1\d)$/);
    expect(await page.getByRole('button', { name: 'Pause' }).count()).toBe(1);
  });

  it("asks for the next photo's big preview ahead, marked as a prefetch", async () => {
    const page = await login('list');
    const prefetches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('prefetch=1')) prefetches.push(new URL(request.url()).pathname);
    });
    const preview = new PreviewPage(page);
    await preview.goto(cabinet.server.url, 'photos/b.jpg');
    await preview.waitFor('b.jpg');
    await expect
      .poll(() => [...prefetches].sort())
      .toEqual(['/api/preview/big/photos/a.jpg', '/api/preview/big/photos/c.jpg']);
  });

  it('asks for the thumbnails of the tiles below the drawn ones ahead, as prefetches', async () => {
    const page = await login('mosaic');
    const prefetched: string[] = [];
    /** Every thumbnail asked for, in order, prefetches marked. */
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/preview/thumb/gallery/')) return;
      const name = path.basename(url.pathname);
      const prefetch = url.searchParams.has('prefetch');
      asked.push(prefetch ? `prefetch ${name}` : name);
      if (prefetch) prefetched.push(name);
    });
    const files = new FilesPage(page);
    await page.goto(`${cabinet.server.url}/files/gallery/`);
    await expect.poll(() => prefetched.length).toBeGreaterThan(0);
    // Tiles not drawn yet: the drawn ones load their own thumbnails.
    const drawn = await files.entryNames();
    expect(drawn).toContain('p000.jpg');
    expect(prefetched.filter((name) => drawn.includes(name))).toEqual([]);
    expect(prefetched.length).toBeLessThanOrEqual(24);
    // The screen's own thumbnails went out first: no prefetch takes a connection before them.
    const firstPrefetch = asked.findIndex((name) => name.startsWith('prefetch '));
    expect(asked.indexOf('p000.jpg')).toBeGreaterThanOrEqual(0);
    expect(asked.indexOf('p000.jpg')).toBeLessThan(firstPrefetch);
  });
});
