import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ARCHIVE_FORMATS } from '../src/archive/archive-formats.ts';
import { makeSampleTree, snapshotTree, unpackArchive } from './helpers/archive-tree.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const run = promisify(execFile);

let server: TestServer;
let scratch: string;
const random = randomBytes(200_000);

beforeAll(async () => {
  server = await startTestServer();
  scratch = await mkdtemp(path.join(os.tmpdir(), 'cabinet-raw-'));
  await makeSampleTree(path.join(server.root, 'tree'), 1024 * 1024);
  await writeFile(path.join(server.root, 'random.bin'), random);
  await writeFile(path.join(server.root, 'page.html'), '<script>alert(1)</script>');
  await writeFile(
    path.join(server.root, 'logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
  );
  await writeFile(path.join(server.root, 'data.xml'), '<?xml version="1.0"?><a/>');
  await writeFile(path.join(server.root, 'notes.txt'), 'plain notes\n');
  await writeFile(path.join(server.root, 'README'), 'no extension, but text\n');
  await writeFile(path.join(server.root, 'photo.jpg'), randomBytes(100));
  await writeFile(path.join(server.root, 'naïve résumé (1).txt'), 'x');
  await mkdir(path.join(server.root, 'sel/a'), { recursive: true });
  await mkdir(path.join(server.root, 'sel/b'), { recursive: true });
  await writeFile(path.join(server.root, 'sel/a/one.txt'), 'one');
  await writeFile(path.join(server.root, 'sel/b/two.txt'), 'two');
  await writeFile(path.join(server.root, 'sel/c.txt'), 'three');
  await writeFile(path.join(server.root, 'sel/plus+name.txt'), 'plus');
  await mkdir(path.join(server.root, 'guarded/secret'), { recursive: true });
  await writeFile(path.join(server.root, 'guarded/open.txt'), 'open');
  await writeFile(path.join(server.root, 'guarded/secret/hidden.txt'), 'secret');
  await writeFile(path.join(server.root, 'guarded/.dotfile'), 'dot');
  await symlink('/etc', path.join(server.root, 'guarded/escape'));
  spawnSync('mkfifo', [path.join(server.root, 'guarded/pipe')]);
  // `\` is a separator to ScopedFs: `a\..\open.txt` must not be read as `open.txt`.
  await writeFile(path.join(server.root, 'guarded/a\\..\\open.txt'), 'backslashed');
  await mkdir(path.join(server.root, 'guarded/odd\\dir'));
  await writeFile(path.join(server.root, 'guarded/odd\\dir/inner.txt'), 'inner');
});

afterAll(async () => {
  await server.close();
  await rm(scratch, { recursive: true, force: true });
});

/** Downloads to a file in the scratch folder and returns the response. */
/** Downloads like a slow client: pauses after every MiB, so the server's writes queue up. */
function slowDownload(url: string, file: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(`${server.url}${url}`),
      { headers: { 'X-Auth': server.admin.token } },
      (response) => {
        const chunks: Buffer[] = [];
        let sincePause = 0;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          sincePause += chunk.length;
          if (sincePause >= 1024 * 1024) {
            sincePause = 0;
            response.pause();
            setTimeout(() => response.resume(), 20);
          }
        });
        response.on('end', () => {
          writeFile(file, Buffer.concat(chunks)).then(() => resolve(response), reject);
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

async function download(url: string, file: string, token = server.admin.token) {
  const response = await server.fetch(url, { token });
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return response;
}

describe('GET /api/raw: files', () => {
  it('sends a file as an attachment with caching and safety headers', async () => {
    const response = await server.fetch('/api/raw/random.bin', { token: server.admin.token });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(random)).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''random.bin",
    );
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(random.length));
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers.get('last-modified')).toBeTruthy();
  });

  it('encodes Unicode and special characters in the file name (RFC 5987)', async () => {
    const response = await server.fetch(`/api/raw/${encodeURIComponent('naïve résumé (1).txt')}`, {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''na%C3%AFve%20r%C3%A9sum%C3%A9%20%281%29.txt",
    );
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const response = await server.fetch('/api/raw/random.bin', {
      token: server.admin.token,
      headers: { Range: 'bytes=100-199' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-199/${random.length}`);
    expect(response.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await response.arrayBuffer()).equals(random.subarray(100, 200))).toBe(true);
  });

  it('answers a suffix range with the last bytes', async () => {
    const response = await server.fetch('/api/raw/random.bin', {
      token: server.admin.token,
      headers: { Range: 'bytes=-50' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(
      `bytes ${random.length - 50}-${random.length - 1}/${random.length}`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(random.subarray(-50))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 naming the size', async () => {
    const response = await server.fetch('/api/raw/random.bin', {
      token: server.admin.token,
      headers: { Range: `bytes=${random.length + 10}-` },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${random.length}`);
  });

  it('ignores a range when If-Range names another version', async () => {
    const response = await server.fetch('/api/raw/random.bin', {
      token: server.admin.token,
      headers: { Range: 'bytes=0-9', 'If-Range': '"stale-1"' },
    });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(random.length);
    await response.arrayBuffer();
  });

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await server.fetch('/api/raw/notes.txt', { token: server.admin.token });
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const byEtag = await server.fetch('/api/raw/notes.txt', {
      token: server.admin.token,
      headers: { 'If-None-Match': etag },
    });
    expect(byEtag.status).toBe(304);
    const byDate = await server.fetch('/api/raw/notes.txt', {
      token: server.admin.token,
      headers: { 'If-Modified-Since': lastModified },
    });
    expect(byDate.status).toBe(304);
    const changed = await server.fetch('/api/raw/notes.txt', {
      token: server.admin.token,
      headers: { 'If-None-Match': '"other"' },
    });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it.each([
    ['notes.txt', 'text/plain; charset=utf-8'],
    ['photo.jpg', 'image/jpeg'],
    ['README', 'text/plain; charset=utf-8'],
    ['random.bin', 'application/octet-stream'],
  ])('shows %s inline as %s', async (name, type) => {
    const response = await server.fetch(`/api/raw/${name}?inline=true`, {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('content-disposition')).toBe(`inline; filename*=utf-8''${name}`);
    await response.arrayBuffer();
  });

  it.each([
    ['page.html', 'text/plain; charset=utf-8'],
    ['data.xml', 'text/plain; charset=utf-8'],
    ['logo.svg', 'image/svg+xml'],
  ])('never lets %s run in the app origin (served as %s, sandboxed)', async (name, type) => {
    const response = await server.fetch(`/api/raw/${name}?inline=true`, {
      token: server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain('sandbox');
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    await response.arrayBuffer();
  });

  it('accepts the token from the auth query parameter', async () => {
    const response = await server.fetch(`/api/raw/notes.txt?auth=${server.admin.token}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('plain notes\n');
  });

  it('answers 401 without a token, 404 for a missing file and 403 outside the scope', async () => {
    expect((await server.fetch('/api/raw/notes.txt')).status).toBe(401);
    const missing = await server.fetch('/api/raw/nope.txt', { token: server.admin.token });
    expect(missing.status).toBe(404);
    const escape = await server.fetch('/api/raw/guarded/escape/passwd', {
      token: server.admin.token,
    });
    expect(escape.status).toBe(403);
  });

  it('sends headers and an empty body for a named pipe', async () => {
    const response = await server.fetch('/api/raw/guarded/pipe', { token: server.admin.token });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('redirects the bare prefix to the prefix with a slash', async () => {
    const response = await server.fetch('/api/raw', { token: server.admin.token });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/api/raw/');
  });
});

describe('GET /api/raw: permissions and rules', () => {
  it('answers 202 without the download permission, for files and folders alike', async () => {
    const { token } = await server.createUser({ perm: { download: false } });
    for (const url of ['/api/raw/notes.txt', '/api/raw/tree/', '/api/raw/nope.txt']) {
      const response = await server.fetch(url, { token });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('202 Accepted\n');
    }
  });

  it('answers 403 for a file blocked by a rule and for a hidden dotfile', async () => {
    const { token } = await server.createUser({
      hideDotfiles: true,
      rules: [{ regex: false, allow: false, path: '/guarded/secret', regexp: { raw: '' } }],
    });
    expect((await server.fetch('/api/raw/guarded/secret/hidden.txt', { token })).status).toBe(403);
    expect((await server.fetch('/api/raw/guarded/secret/', { token })).status).toBe(403);
    expect((await server.fetch('/api/raw/guarded/.dotfile', { token })).status).toBe(403);
  });

  it('leaves blocked folders, hidden files, escaping links, pipes and backslash names out of archives', async () => {
    const { token } = await server.createUser({
      hideDotfiles: true,
      rules: [{ regex: false, allow: false, path: '/guarded/secret', regexp: { raw: '' } }],
    });
    const file = path.join(scratch, 'guarded.tar');
    const response = await download('/api/raw/guarded/?algo=tar', file, token);
    expect(response.status).toBe(200);
    const { stdout } = await run('tar', ['-tf', file]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual(['open.txt']);
  });

  it('keeps a user inside their scope', async () => {
    await mkdir(path.join(server.root, 'users/alice'), { recursive: true });
    await writeFile(path.join(server.root, 'users/alice/mine.txt'), 'mine');
    const { token } = await server.createUser({ scope: '/users/alice' });
    const own = await server.fetch('/api/raw/mine.txt', { token });
    expect(await own.text()).toBe('mine');
    const file = path.join(scratch, 'alice.zip');
    const response = await download('/api/raw/?algo=zip', file, token);
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''alice.zip",
    );
    const { stdout } = await run('unzip', ['-Z1', file]);
    expect(stdout.trim()).toBe('mine.txt');
    expect((await server.fetch('/api/raw/../notes.txt', { token })).status).not.toBe(200);
  });
});

describe('GET /api/raw: archives', () => {
  for (const format of ARCHIVE_FORMATS.values()) {
    it(`streams a folder as ${format.extension} that the real tool unpacks`, async () => {
      const file = path.join(scratch, `tree${format.extension}`);
      const response = await download(`/api/raw/tree/?algo=${format.algo}`, file);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(format.contentType);
      expect(response.headers.get('content-disposition')).toBe(
        `attachment; filename*=utf-8''tree${format.extension}`,
      );
      expect(response.headers.get('content-length')).toBeNull();
      const dest = path.join(scratch, `tree-${format.algo}`);
      await unpackArchive(file, format.extension, dest);
      expect(Object.fromEntries(await snapshotTree(dest))).toEqual(
        Object.fromEntries(await snapshotTree(path.join(server.root, 'tree'))),
      );
    });
  }

  it('streams files of many read buffers byte for byte, with the download headers', async () => {
    // Every read buffer is reused several times within one archive, while a slow client keeps
    // earlier chunks waiting in the socket.
    const parts = [randomBytes(6 * 1024 * 1024), randomBytes(6 * 1024 * 1024 + 77), randomBytes(3)];
    await mkdir(path.join(server.root, 'large'), { recursive: true });
    await Promise.all(
      parts.map((part, i) => writeFile(path.join(server.root, 'large', `part-${i}.bin`), part)),
    );
    for (const algo of ['tar', 'zip']) {
      const file = path.join(scratch, `large.${algo}`);
      const response = await slowDownload(`/api/raw/large/?algo=${algo}`, file);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toContain('sandbox');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const dest = path.join(scratch, `large-${algo}`);
      await unpackArchive(file, `.${algo}`, dest);
      for (const [i, part] of parts.entries()) {
        expect(readFileSync(path.join(dest, `part-${i}.bin`)).equals(part)).toBe(true);
      }
    }
  });

  it('makes a zip when algo is missing, empty or "true"', async () => {
    for (const query of ['', '?algo=', '?algo=true']) {
      const response = await server.fetch(`/api/raw/sel/${query}`, { token: server.admin.token });
      expect(response.headers.get('content-type')).toBe('application/zip');
      expect(response.headers.get('content-disposition')).toBe(
        "attachment; filename*=utf-8''sel.zip",
      );
      await response.arrayBuffer();
    }
  });

  it('answers 400 for an unknown format', async () => {
    const response = await server.fetch('/api/raw/sel/?algo=rar', { token: server.admin.token });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe('400 Bad Request (format not implemented: rar)\n');
  });

  it('archives a files= selection relative to its common folder, named with a leading _', async () => {
    // As the reference client builds it: each path encoded, then the whole list encoded again.
    const list = ['/sel/a', '/sel/c.txt', '/sel/plus+name.txt'].map(encodeURI).join(',');
    const file = path.join(scratch, 'selection.tar');
    const response = await download(`/api/raw/?files=${encodeURIComponent(list)}&algo=tar`, file);
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
    const file = path.join(scratch, 'joined.tar');
    const response = await download(
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
    const file = path.join(scratch, 'single.zip');
    await download(`/api/raw/sel/?files=c.txt&algo=zip`, file);
    const { stdout } = await run('unzip', ['-Z1', file]);
    expect(stdout.trim()).toBe('c.txt');
  });

  it('answers 404 when nothing selected exists', async () => {
    const response = await server.fetch('/api/raw/sel/?files=ghost,phantom', {
      token: server.admin.token,
    });
    expect(response.status).toBe(404);
  });

  it('stops streaming when the client disconnects mid-archive, and keeps serving', async () => {
    await mkdir(path.join(server.root, 'big'), { recursive: true });
    for (let i = 0; i < 8; i++) {
      await writeFile(path.join(server.root, `big/part-${i}.bin`), randomBytes(4 * 1024 * 1024));
    }
    const url = new URL(`${server.url}/api/raw/big/?algo=tarbz2`);
    const received = await new Promise<number>((resolve, reject) => {
      const request = http.get(url, { headers: { 'X-Auth': server.admin.token } }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > 64 * 1024) {
            request.destroy();
            resolve(bytes);
          }
        });
        response.on('error', () => undefined);
      });
      request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    });
    expect(received).toBeGreaterThan(64 * 1024);
    // The compressor child is killed (waited for, however slow the machine) and the server goes
    // on answering.
    await vi.waitFor(
      async () => {
        const { stdout } = await run('ps', ['-o', 'comm=', '--ppid', String(process.pid)]);
        expect(stdout.split('\n')).not.toContain('lbzip2');
        expect(stdout.split('\n')).not.toContain('bzip2');
      },
      { timeout: 30_000, interval: 100 },
    );
    const after = await server.fetch('/api/raw/notes.txt', { token: server.admin.token });
    expect(await after.text()).toBe('plain notes\n');
  });
});
