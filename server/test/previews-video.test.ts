import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../src/preview/decoders/video.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { makeAudioWithCover, makeVideo, meanColor } from './helpers/media.ts';

let server: TestServer;

async function preview(url: string) {
  const response = await server.fetch(url, { token: server.admin.token });
  return { response, body: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  server = await startTestServer();
  const media = path.join(server.root, 'media');
  await mkdir(media, { recursive: true });
  await makeVideo(path.join(media, 'clip.mp4'), 'red');
  await makeVideo(path.join(media, 'clip.mkv'), 'blue');
  await makeVideo(path.join(media, 'clip.mov'), 'lime');
  await makeVideo(path.join(media, 'old.mkv'), 'red', 3, 'mpeg4');
  await makeAudioWithCover(
    path.join(media, 'song.mp3'),
    '#00f',
    path.join(server.root, 'cover.png'),
  );
});

afterAll(async () => {
  await server?.close();
});

describe('video previews', () => {
  it('makes a poster-frame thumbnail past the black first frames of an MP4', async () => {
    const { response, body } = await preview('/api/preview/thumb/media/clip.mp4');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(body).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    const color = await meanColor(body);
    expect(color.r).toBeGreaterThan(200);
    expect(color.g).toBeLessThan(60);
  });

  it('makes thumbnails of MKV and MOV files too, and a big preview inside 1080 px', async () => {
    const mkv = await preview('/api/preview/thumb/media/clip.mkv');
    expect(mkv.response.status).toBe(200);
    expect((await meanColor(mkv.body)).b).toBeGreaterThan(200);
    const mov = await preview('/api/preview/big/media/clip.mov');
    expect(mov.response.status).toBe(200);
    const meta = await sharp(mov.body).metadata();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    expect((await meanColor(mov.body)).g).toBeGreaterThan(200);
  });

  it('gives a changed video a new thumbnail', async () => {
    const file = path.join(server.root, 'media/changing.mp4');
    await makeVideo(file, 'red');
    const before = await preview('/api/preview/thumb/media/changing.mp4');
    expect((await meanColor(before.body)).r).toBeGreaterThan(200);
    await makeVideo(file, 'blue', 4);
    const after = await preview('/api/preview/thumb/media/changing.mp4');
    expect((await meanColor(after.body)).b).toBeGreaterThan(200);
  });
});

describe('audio previews', () => {
  it('shows the embedded cover art as the thumbnail', async () => {
    const { response, body } = await preview('/api/preview/thumb/media/song.mp3');
    expect(response.status).toBe(200);
    const color = await meanColor(body);
    expect(color.b).toBeGreaterThan(200);
    expect(color.r).toBeLessThan(60);
  });
});

describe('media info', () => {
  it('gives the info dialog the duration, codecs and tags of audio and video', async () => {
    const song = await server.fetch('/api/preview/info/media/song.mp3', {
      token: server.admin.token,
    });
    expect(song.status).toBe(200);
    const info = (await song.json()) as Record<string, unknown>;
    expect(info.durationSeconds).toBeCloseTo(2, 0);
    expect(info.audioCodec).toBe('mp3');
    expect(info.tags).toMatchObject({ title: 'Test Tone', artist: 'Cabinet' });
    const clip = await server.fetch('/api/preview/info/media/clip.mkv', {
      token: server.admin.token,
    });
    expect(await clip.json()).toMatchObject({ videoCodec: 'h264' });
  });

  it('gives a changed video its new duration (the facts are cached by file version)', async () => {
    const file = path.join(server.root, 'media/growing.mp4');
    await makeVideo(file, 'red', 2);
    const info = async () =>
      JSON.parse(
        (await preview('/api/preview/info/media/growing.mp4?prefetch=1')).body.toString(),
      ) as {
        durationSeconds: number;
      };
    expect((await info()).durationSeconds).toBeCloseTo(2, 0);
    expect((await info()).durationSeconds).toBeCloseTo(2, 0);
    await makeVideo(file, 'red', 5);
    expect((await info()).durationSeconds).toBeCloseTo(5, 0);
  });
});

describe('video playback through a remux', () => {
  it('remuxes an H.264 MKV to fragmented MP4 without re-encoding, from a start time', async () => {
    const whole = await preview('/api/preview/play/media/clip.mkv');
    expect(whole.response.status).toBe(200);
    expect(whole.response.headers.get('content-type')).toBe('video/mp4');
    expect(whole.body.subarray(4, 8).toString()).toBe('ftyp');
    const file = path.join(server.dataDir, 'remuxed.mp4');
    await writeFile(file, whole.body);
    const probe = await probeMedia(file);
    expect(probe.videoCodec).toBe('h264');
    expect(probe.container).toContain('mp4');

    const later = await preview('/api/preview/play/media/clip.mkv?start=2');
    expect(later.response.status).toBe(200);
    expect(later.body.length).toBeLessThan(whole.body.length);
  });

  it('says where a remux from a start time really begins: the keyframe before it', async () => {
    const response = await server.fetch('/api/preview/info/media/clip.mkv?start=2.5', {
      token: server.admin.token,
    });
    const info = (await response.json()) as { startSeconds: number; durationSeconds: number };
    // One keyframe a second (makeVideo): the one before 2.5 s.
    expect(info.startSeconds).toBeGreaterThan(1.5);
    expect(info.startSeconds).toBeLessThanOrEqual(2.5);
    const later = await preview('/api/preview/play/media/clip.mkv?start=2.5');
    const file = path.join(server.dataDir, 'remuxed-later.mp4');
    await writeFile(file, later.body);
    // The stream holds the video from there to the end, its clock starting at zero.
    const probe = await probeMedia(file);
    expect(probe.durationSeconds).toBeCloseTo(info.durationSeconds - info.startSeconds, 1);
  });

  it('says which codec a browser cannot play instead of streaming it', async () => {
    const { response, body } = await preview('/api/preview/play/media/old.mkv');
    expect(response.status).toBe(415);
    expect(JSON.parse(body.toString())).toMatchObject({
      videoCodec: 'mpeg4',
      reason: expect.stringContaining('mpeg4'),
    });
    expect((await preview('/api/preview/play/media/clip.mkv?start=soon')).response.status).toBe(
      400,
    );
  });
});
