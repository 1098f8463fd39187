/**
 * Preview figures (issue 41, docs/previews.md): thumbnails of 24-megapixel JPEGs through Cabinet's
 * HTTP API against `vipsthumbnail` on the same files and cores; the poster-frame time of a video
 * through Cabinet against `ffmpeg -ss … -frames:v 1` run directly; and the server's peak RSS while
 * a folder of small photos is thumbnailed (decoders run in their own processes and are not in it).
 *
 *   npm run previews -w bench [-- --photos 24 --folder 10000]
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '@cabinet/server/testing';

const run = promisify(execFile);
const argValue = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const PHOTOS = argValue('photos', 24);
const FOLDER = argValue('folder', 10_000);
const CORES = os.availableParallelism();

async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

async function thumb(server: TestServer, url: string): Promise<void> {
  const response = await server.fetch(url, { token: server.admin.token });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
}

async function main() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-previews-'));
  const root = path.join(work, 'root');
  await mkdir(path.join(root, 'big'), { recursive: true });
  await mkdir(path.join(root, 'folder'), { recursive: true });
  await mkdir(path.join(work, 'vips'), { recursive: true });
  const server = await startTestServer({ root, config: { imageProcessors: CORES } });
  try {
    // 24 MP (6000×4000) JPEGs with detail, so decoding is real work.
    const noise = {
      background: '#808080',
      noise: { type: 'gaussian' as const, mean: 128, sigma: 40 },
    };
    const photos: string[] = [];
    for (let i = 0; i < PHOTOS; i++) {
      const file = path.join(root, 'big', `photo-${i}.jpg`);
      await sharp({ create: { width: 6000, height: 4000, channels: 3, ...noise } })
        .jpeg({ quality: 85 })
        .toFile(file);
      photos.push(file);
    }

    let started = performance.now();
    await inParallel(photos, CORES, (file) =>
      thumb(server, `/api/preview/thumb/big/${path.basename(file)}`),
    );
    const cabinetMs = performance.now() - started;

    started = performance.now();
    await inParallel(photos, CORES, async (file) => {
      await run('vipsthumbnail', [
        file,
        '--size',
        '256x256',
        '--smartcrop',
        'centre',
        '-o',
        `${path.join(work, 'vips', path.basename(file))}[Q=75]`,
      ]);
    });
    const vipsMs = performance.now() - started;
    console.log(`24-MP JPEG thumbnails, ${PHOTOS} files, ${CORES} at a time:`);
    console.log(`  Cabinet (HTTP, cold cache) ${(cabinetMs / PHOTOS).toFixed(1)} ms/file`);
    console.log(`  vipsthumbnail              ${(vipsMs / PHOTOS).toFixed(1)} ms/file`);
    console.log(
      `  throughput ratio (Cabinet / vipsthumbnail): ${(vipsMs / cabinetMs).toFixed(2)}×`,
    );

    // Video poster frames: 10 s 720p H.264 clips.
    const videos: string[] = [];
    for (let i = 0; i < 4; i++) {
      const file = path.join(root, 'big', `clip-${i}.mp4`);
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=1280x720:rate=25:duration=10`,
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        file,
      ]);
      videos.push(file);
    }
    started = performance.now();
    for (const file of videos) await thumb(server, `/api/preview/thumb/big/${path.basename(file)}`);
    const posterMs = (performance.now() - started) / videos.length;
    started = performance.now();
    for (const file of videos) {
      await run('ffmpeg', [
        '-v',
        'error',
        '-y',
        '-ss',
        '1',
        '-i',
        file,
        '-frames:v',
        '1',
        path.join(work, 'vips', `${path.basename(file)}.png`),
      ]);
    }
    const ffmpegMs = (performance.now() - started) / videos.length;
    console.log('Video poster frame (10 s 720p H.264):');
    console.log(`  Cabinet (ffprobe + ffmpeg + sharp, HTTP) ${posterMs.toFixed(0)} ms/file`);
    console.log(`  ffmpeg -ss 1 -frames:v 1 directly       ${ffmpegMs.toFixed(0)} ms/file`);

    // Peak RSS of the server process (this process) while a folder of photos is thumbnailed.
    const small = await sharp({ create: { width: 640, height: 480, channels: 3, ...noise } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const { writeFile } = await import('node:fs/promises');
    for (let i = 0; i < FOLDER; i++) {
      await writeFile(path.join(root, 'folder', `p${String(i).padStart(5, '0')}.jpg`), small);
    }
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const names = Array.from({ length: FOLDER }, (_, i) => `p${String(i).padStart(5, '0')}.jpg`);
    started = performance.now();
    await inParallel(names, 8, (name) => thumb(server, `/api/preview/thumb/folder/${name}`));
    const folderMs = performance.now() - started;
    clearInterval(sampler);
    console.log(`Folder of ${FOLDER} photos (640×480), 8 requests at a time:`);
    console.log(
      `  ${(folderMs / 1000).toFixed(1)} s, peak RSS ${(peak / 1024 / 1024).toFixed(0)} MiB (server and bench in one process; decoders excluded)`,
    );
  } finally {
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
