import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withCabinet } from '../support/cabinet.ts';
import { desktopFolder, onFiles, randomDesktopFile, throttle } from '../support/upload-fixtures.ts';
import { waitForNotice } from '../support/notices.ts';

const MiB = 1024 * 1024;

const cabinet = withCabinet({
  restartable: true,
  // Small chunks make a short upload span several requests; enough retries to outlast a restart.
  setup: (server) => server.updateSettings({ tus: { chunkSize: MiB, retryCount: 8 } }),
});

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

// Throttled transfers and server restarts, each wait bounded above: a budget for a busy machine.
describe('resumable uploads', { timeout: 180_000 }, () => {
  it('resumes from the server offset after the server restarts mid-upload', async () => {
    const desktop = await desktopFolder({});
    const movie = await randomDesktopFile(desktop, 'movie.bin', 8 * MiB);
    const { page, files, uploads } = await onFiles(await cabinet.loginPage());
    // Upload-Offset of every chunk the browser sends.
    const offsets: number[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/api/tus/')) {
        offsets.push(Number(request.headers()['upload-offset']));
      }
    });
    await throttle(page, 2 * MiB);
    await uploads.uploadFiles([movie.file]);
    await expect
      .poll(() => Math.max(0, ...offsets), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2 * MiB);

    await cabinet.restartable.restart();
    const sentBeforeRestart = offsets.length;

    await waitForNotice(page, 'Upload complete', { timeout: 60_000 });
    await files.entry('movie.bin').waitFor();
    expect(sha256(await readFile(path.join(cabinet.server.root, 'movie.bin')))).toBe(
      sha256(movie.content),
    );
    // After the restart the client asked where to go on and continued there, not from zero.
    const resumed = offsets.slice(sentBeforeRestart);
    expect(resumed.length).toBeGreaterThan(0);
    expect(Math.min(...resumed)).toBeGreaterThanOrEqual(2 * MiB);
  });
});
