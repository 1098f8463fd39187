import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { ARCHIVE_FORMATS } from '../src/archive/archive-formats.ts';
import { snapshotTree, unpackArchive } from './helpers/archive-tree.ts';
import { download, rawFixture, slowDownload } from './helpers/raw.ts';

const run = promisify(execFile);

const raw = rawFixture();

describe('GET /api/raw: archives', () => {
  for (const format of ARCHIVE_FORMATS.values()) {
    it(`streams a folder as ${format.extension} that the real tool unpacks`, async () => {
      const file = path.join(raw.scratch, `tree${format.extension}`);
      const response = await download(raw.server, `/api/raw/tree/?algo=${format.algo}`, file);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(format.contentType);
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename*=utf-8''tree${format.extension}`,
      );
      expect(response.headers.get('content-length')).toBeNull();
      const dest = path.join(raw.scratch, `tree-${format.algo}`);
      await unpackArchive(file, format.extension, dest);
      expect(Object.fromEntries(await snapshotTree(dest))).toEqual(
        Object.fromEntries(await snapshotTree(path.join(raw.server.root, 'tree'))),
      );
    });
  }

  it('streams files of many read buffers byte for byte, with the download headers', async () => {
    // Every read buffer is reused several times within one archive, while a slow client keeps
    // earlier chunks waiting in the socket.
    const parts = [randomBytes(6 * 1024 * 1024), randomBytes(6 * 1024 * 1024 + 77), randomBytes(3)];
    await mkdir(path.join(raw.server.root, 'large'), { recursive: true });
    await Promise.all(
      parts.map((part, i) => writeFile(path.join(raw.server.root, 'large', `part-${i}.bin`), part)),
    );
    for (const algo of ['tar', 'zip']) {
      const file = path.join(raw.scratch, `large.${algo}`);
      const response = await slowDownload(raw.server, `/api/raw/large/?algo=${algo}`, file);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toContain('sandbox');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const dest = path.join(raw.scratch, `large-${algo}`);
      await unpackArchive(file, `.${algo}`, dest);
      for (const [i, part] of parts.entries()) {
        expect(readFileSync(path.join(dest, `part-${i}.bin`)).equals(part)).toBe(true);
      }
    }
  });

  it('makes a zip when algo is missing, empty or "true"', async () => {
    for (const query of ['', '?algo=', '?algo=true']) {
      const response = await raw.server.fetch(`/api/raw/sel/${query}`, {
        token: raw.server.admin.token,
      });
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('content-disposition')).toBe(
        "attachment; filename*=utf-8''sel.zip",
      );
      await response.arrayBuffer();
    }
  });

  it('answers 400 for an unknown format', async () => {
    const response = await raw.server.fetch('/api/raw/sel/?algo=rar', {
      token: raw.server.admin.token,
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('400 Bad Request (format not implemented: rar)\n');
  });

  it('archives a files= selection relative to its common folder, named with a leading _', async () => {
    // As the reference client builds it: each path encoded, then the whole list encoded again.
    const list = ['/sel/a', '/sel/c.txt', '/sel/plus+name.txt'].map(encodeURI).join(',');
    const file = path.join(raw.scratch, 'selection.tar');
    const response = await download(
      raw.server,
      `/api/raw/?files=${encodeURIComponent(list)}&algo=tar`,
      file,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''_sel.tar",
    );
    const { stdout } = await run('tar', ['-tf', file]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual([
      'a/',
      'a/one.txt',
      'c.txt',
      'plus+name.txt',
    ]);
  });

  it('joins files= items under the requested folder and never above it', async () => {
    const file = path.join(raw.scratch, 'joined.tar');
    const response = await download(
      raw.server,
      `/api/raw/sel/?files=${encodeURIComponent('b,../../random.bin')}&algo=tar`,
      file,
    );
    expect(response.status).toBe(200);
    const { stdout } = await run('tar', ['-tf', file]);
    // `../../random.bin` becomes /sel/random.bin, which does not exist: left out.
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual(['b/', 'b/two.txt']);
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''_sel.tar",
    );
  });

  it('puts one selected file in the archive under its own name', async () => {
    const file = path.join(raw.scratch, 'single.zip');
    await download(raw.server, `/api/raw/sel/?files=c.txt&algo=zip`, file);
    const { stdout } = await run('unzip', ['-Z1', file]);
    expect(stdout.trim()).toBe('c.txt');
  });

  it('answers 404 when nothing selected exists', async () => {
    const response = await raw.server.fetch('/api/raw/sel/?files=ghost,phantom', {
      token: raw.server.admin.token,
    });
    expect(response.status).toBe(404);
  });

  it('stops streaming when the client disconnects mid-archive, and keeps serving', async () => {
    await mkdir(path.join(raw.server.root, 'big'), { recursive: true });
    for (let i = 0; i < 8; i++) {
      await writeFile(
        path.join(raw.server.root, `big/part-${i}.bin`),
        randomBytes(4 * 1024 * 1024),
      );
    }
    const url = new URL(`${raw.server.url}/api/raw/big/?algo=tarbz2`);
    const received = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        url,
        { headers: { 'X-Auth': raw.server.admin.token } },
        (response) => {
          let bytes = 0;
          response.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (bytes > 64 * 1024) {
              request.destroy();
              resolve(bytes);
            }
          });
          response.on('error', () => undefined);
        },
      );
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    expect(received).toBeGreaterThan(64 * 1024);
    // The compressor child is killed (waited for, however slow the machine) and the raw.server goes
    // on answering.
    await vi.waitFor(
      async () => {
        const { stdout } = await run('ps', ['-o', 'comm=', '--ppid', String(process.pid)]);
        expect(stdout.split('\n')).not.toContain('lbzip2');
        expect(stdout.split('\n')).not.toContain('bzip2');
      },
      { timeout: 30_000, interval: 100 },
    );
    const after = await raw.server.fetch('/api/raw/notes.txt', { token: raw.server.admin.token });
    expect(await after.text()).toBe('plain notes\n');
  });
});
