import { mkdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../src/process/run-process.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { flatOdt, makeOfficeDocument, makePdf, makeVideo } from './helpers/media.ts';

let server: TestServer;

async function status(url: string): Promise<number> {
  const response = await server.fetch(url, { token: server.admin.token });
  await response.arrayBuffer();
  return response.status;
}

/** A PNG whose header claims `width`×`height` (valid CRC) but holds one pixel. */
async function claimingPng(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(zlib.crc32(png.subarray(12, 29)), 29);
  return png;
}

beforeAll(async () => {
  server = await startTestServer();
  // LibreOffice lays a zip bomb out for minutes: the test's limit is 10 s instead of 120 s.
  server.runtime.services.preview.officeTimeoutMs = 10_000;
  const bad = path.join(server.root, 'bad');
  const scratch = path.join(server.dataDir, 'scratch');
  await mkdir(bad, { recursive: true });
  await mkdir(scratch, { recursive: true });

  // A video cut off after its first kilobytes, and one that is random bytes with a video name.
  const truncated = path.join(bad, 'truncated.mp4');
  await makeVideo(truncated, 'red', 3);
  // The index (moov) comes last: half a file has frames but nothing to find them by.
  await truncate(truncated, Math.floor((await stat(truncated)).size / 2));
  await writeFile(path.join(bad, 'noise.mkv'), Buffer.alloc(200_000, 0x5a));
  // A HEIC-named PNG claiming 100,000 × 100,000 pixels (a decompression bomb's header).
  await writeFile(path.join(bad, 'bomb.png'), await claimingPng(100_000, 100_000));
  // A 20,000-page PDF: only page 1 may be rendered.
  await writeFile(path.join(bad, 'long.pdf'), makePdf(20_000, [0, 0, 1]));
  // A DOCX whose 9 KB inflate to a 4 MiB word LibreOffice spends minutes laying out (a zip bomb): made
  // from a real DOCX by replacing word/document.xml with the bomb.
  await writeFile(path.join(scratch, 'small.fodt'), flatOdt('small'));
  await makeOfficeDocument(path.join(scratch, 'small.fodt'), scratch, 'docx');
  const bombDir = path.join(scratch, 'bomb');
  await mkdir(path.join(bombDir, 'word'), { recursive: true });
  const unzip = await runProcess(
    'unzip',
    ['-q', '-o', path.join(scratch, 'small.docx'), '-d', bombDir],
    {
      timeoutMs: 60_000,
      maxOutputBytes: 1024 * 1024,
    },
  );
  expect(unzip.kind).toBe('ok');
  const original = await readFile(path.join(bombDir, 'word/document.xml'), 'utf8');
  const padding = 'A'.repeat(1024 * 1024);
  const head = original.replace(/<w:body>[\s\S]*$/, '<w:body><w:p><w:r><w:t>');
  const tail = '</w:t></w:r></w:p></w:body></w:document>';
  await writeFile(path.join(bombDir, 'word/document.xml'), head + padding.repeat(4) + tail);
  const zip = await runProcess('zip', ['-q', '-r', '-9', path.join(bad, 'bomb.docx'), '.'], {
    cwd: bombDir,
    env: { PATH: '/usr/bin:/bin' },
    timeoutMs: 120_000,
    maxOutputBytes: 1024 * 1024,
  });
  expect(zip.kind).toBe('ok');
  await writeFile(
    path.join(server.root, 'fine.png'),
    await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#0f0' },
    })
      .png()
      .toBuffer(),
  );
});

afterAll(async () => {
  await server?.close();
});

describe('hostile files', () => {
  it('answers 415 for a truncated video and for noise named like a video', async () => {
    expect(await status('/api/preview/thumb/bad/truncated.mp4')).toBe(415);
    expect(await status('/api/preview/thumb/bad/noise.mkv')).toBe(415);
    expect(await status('/api/preview/play/bad/noise.mkv')).toBe(415);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    expect(await status('/api/preview/thumb/bad/bomb.png')).toBe(413);
  });

  it('renders only the first page of a PDF of 20,000 pages', async () => {
    const response = await server.fetch('/api/preview/thumb/bad/long.pdf', {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    const image = Buffer.from(await response.arrayBuffer());
    const { channels } = await sharp(image).stats();
    expect(channels[2]!.mean).toBeGreaterThan(150);
  });

  it('keeps answering while LibreOffice works on a zip-bomb DOCX, which fails alone', async () => {
    const bomb = server.fetch('/api/preview/thumb/bad/bomb.docx', { token: server.admin.token });
    // Other requests are served meanwhile: the decoder is another process.
    expect(await status('/api/preview/thumb/fine.png')).toBe(200);
    expect((await server.fetch('/api/health')).status).toBe(200);
    const response = await bomb;
    // LibreOffice was stopped at its time limit: the file alone fails, and is not retried.
    expect(response.status).toBe(415);
    expect(await status('/api/preview/big/bad/bomb.docx')).toBe(415);
    expect(await status('/api/preview/thumb/fine.png')).toBe(200);
  });
});
