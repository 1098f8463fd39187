import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../src/process/run-process.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { makeDng, makeHeic, meanColor } from './helpers/media.ts';

let server: TestServer;

async function preview(url: string) {
  const response = await server.fetch(url, { token: server.admin.token });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

/** Top half red, bottom half blue once turned upright. */
async function topAndBottom(image: Buffer) {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const half = Math.floor(height / 2);
  const top = await sharp(image).extract({ left: 0, top: 0, width, height: half }).toBuffer();
  const bottom = await sharp(image)
    .extract({ left: 0, top: half, width, height: height - half })
    .toBuffer();
  return { top: await meanColor(top), bottom: await meanColor(bottom) };
}

beforeAll(async () => {
  server = await startTestServer();
  const photos = path.join(server.root, 'photos');
  const scratch = path.join(server.dataDir, 'scratch');
  await mkdir(photos, { recursive: true });
  await mkdir(scratch, { recursive: true });
  await makeHeic(path.join(photos, 'phone.heic'), path.join(scratch, 'phone.png'), '#f00');
  const green = sharp({ create: { width: 400, height: 300, channels: 3, background: '#0f0' } });
  await green.clone().avif().toFile(path.join(photos, 'shot.avif'));
  await green.clone().tiff().toFile(path.join(photos, 'scan.tiff'));

  // A camera file's embedded preview: red left, blue right, stored sideways (EXIF orientation 6,
  // "turn 90° clockwise"), inside a file the tools read as the camera wrote it. No tool here
  // writes a real RAW, so the container is a JPEG carrying the preview as its EXIF thumbnail
  // (exiftool reads it the same way from a DNG's IFD).
  const left = await sharp({
    create: { width: 80, height: 120, channels: 3, background: '#f00' },
  })
    .png()
    .toBuffer();
  const embedded = path.join(scratch, 'embedded.jpg');
  await sharp({ create: { width: 160, height: 120, channels: 3, background: '#00f' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg()
    .toFile(embedded);
  const raw = path.join(scratch, 'camera.jpg');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#888' } })
    .jpeg()
    .toFile(raw);
  const tagged = await runProcess(
    'exiftool',
    ['-q', '-overwrite_original', `-ThumbnailImage<=${embedded}`, '-Orientation#=6', raw],
    { timeoutMs: 60_000, maxOutputBytes: 1024 * 1024 },
  );
  expect(tagged.kind).toBe('ok');
  await copyFile(raw, path.join(photos, 'camera.nef'));
  // A real DNG with no preview inside: red photosites bright, green and blue dark.
  await makeDng(path.join(photos, 'bayer.dng'), 600, 400, [60_000, 2_000, 2_000]);
  const holiday = path.join(photos, 'holiday.jpg');
  await green.clone().jpeg().toFile(holiday);
  const exif = await runProcess(
    'exiftool',
    [
      '-q',
      '-overwrite_original',
      '-Make=Canon',
      '-Model=Canon EOS R5',
      '-LensModel=RF24-105mm F4 L IS USM',
      '-ExposureTime=0.004',
      '-FNumber=2.8',
      '-ISO=100',
      '-FocalLength=50',
      '-DateTimeOriginal=2026:07:14 18:30:00',
      holiday,
    ],
    { timeoutMs: 60_000, maxOutputBytes: 1024 * 1024 },
  );
  expect(exif.kind).toBe('ok');
});

afterAll(async () => {
  await server?.close();
});

describe('photo previews', () => {
  it('decodes a HEIC photo from a phone into a thumbnail and a big preview', async () => {
    const thumb = await preview('/api/preview/thumb/photos/phone.heic');
    expect(thumb.response.status).toBe(200);
    expect((await meanColor(thumb.body)).r).toBeGreaterThan(200);
    const big = await preview('/api/preview/big/photos/phone.heic');
    expect(big.response.status).toBe(200);
    const meta = await sharp(big.body).metadata();
    expect([meta.width, meta.height]).toEqual([400, 300]);
  });

  it('makes WebP previews of AVIF and TIFF photos', async () => {
    for (const name of ['shot.avif', 'scan.tiff']) {
      const { response, body } = await preview(`/api/preview/big/photos/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect((await meanColor(body)).g).toBeGreaterThan(200);
    }
  });

  it('demosaics a DNG that carries no preview (LibRaw), and reads its camera', async () => {
    const { response, body } = await preview('/api/preview/big/photos/bayer.dng');
    expect(response.status).toBe(200);
    // dcraw_emu's half-size demosaic: 300×200, red.
    const meta = await sharp(body).metadata();
    expect([meta.width, meta.height]).toEqual([300, 200]);
    const color = await meanColor(body);
    expect(color.r).toBeGreaterThan(200);
    expect(color.g).toBeLessThan(60);
    const info = await server.fetch('/api/preview/info/photos/bayer.dng', {
      token: server.admin.token,
    });
    expect(await info.json()).toMatchObject({ camera: 'Cabinet Test Camera', width: 600 });
  });

  it("shows a camera file's embedded preview turned by its EXIF orientation", async () => {
    const { response, body } = await preview('/api/preview/big/photos/camera.nef');
    expect(response.status).toBe(200);
    const meta = await sharp(body).metadata();
    // 160×120 stored sideways: upright it is 120 wide and 160 high, red on top.
    expect([meta.width, meta.height]).toEqual([120, 160]);
    const { top, bottom } = await topAndBottom(body);
    expect(top.r).toBeGreaterThan(200);
    expect(bottom.b).toBeGreaterThan(200);
  });
});

describe('photo info', () => {
  it('gives the info dialog the camera, lens, exposure and date taken', async () => {
    const response = await server.fetch('/api/preview/info/photos/holiday.jpg', {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      camera: 'Canon EOS R5',
      lens: 'RF24-105mm F4 L IS USM',
      exposure: '1/250 s · f/2.8 · ISO 100 · 50 mm',
      taken: '2026:07:14 18:30:00',
      width: 400,
      height: 300,
    });
  });
});
