import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { download, rawFixture } from './helpers/raw.ts';

const run = promisify(execFile);

const raw = rawFixture();

describe('GET /api/raw: files', () => {
  it('sends a file as an attachment with caching and safety headers', async () => {
    const response = await raw.server.fetch('/api/raw/random.bin', {
      token: raw.server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(raw.random)).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''random.bin",
    );
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(raw.random.length));
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(response.headers.get('last-modified')).toBeTruthy();
  });

  it('encodes Unicode and special characters in the file name (RFC 5987)', async () => {
    const response = await raw.server.fetch(
      `/api/raw/${encodeURIComponent('naïve résumé (1).txt')}`,
      {
        token: raw.server.admin.token,
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''na%C3%AFve%20r%C3%A9sum%C3%A9%20%281%29.txt",
    );
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const response = await raw.server.fetch('/api/raw/random.bin', {
      token: raw.server.admin.token,
      headers: { Range: 'bytes=100-199' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-199/${raw.random.length}`);
    expect(response.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await response.arrayBuffer()).equals(raw.random.subarray(100, 200))).toBe(
      true,
    );
  });

  it('answers a suffix range with the last bytes', async () => {
    const response = await raw.server.fetch('/api/raw/random.bin', {
      token: raw.server.admin.token,
      headers: { Range: 'bytes=-50' },
    });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(
      `bytes ${raw.random.length - 50}-${raw.random.length - 1}/${raw.random.length}`,
    );
    expect(Buffer.from(await response.arrayBuffer()).equals(raw.random.subarray(-50))).toBe(true);
  });

  it('answers an unsatisfiable range with 416 naming the size', async () => {
    const response = await raw.server.fetch('/api/raw/random.bin', {
      token: raw.server.admin.token,
      headers: { Range: `bytes=${raw.random.length + 10}-` },
    });
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${raw.random.length}`);
  });

  it('ignores a range when If-Range names another version', async () => {
    const response = await raw.server.fetch('/api/raw/random.bin', {
      token: raw.server.admin.token,
      headers: { Range: 'bytes=0-9', 'If-Range': '"stale-1"' },
    });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(raw.random.length);
    await response.arrayBuffer();
  });

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await raw.server.fetch('/api/raw/notes.txt', { token: raw.server.admin.token });
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const lastModified = first.headers.get('last-modified')!;
    const byEtag = await raw.server.fetch('/api/raw/notes.txt', {
      token: raw.server.admin.token,
      headers: { 'If-None-Match': etag },
    });
    expect(byEtag.status).toBe(304);
    const byDate = await raw.server.fetch('/api/raw/notes.txt', {
      token: raw.server.admin.token,
      headers: { 'If-Modified-Since': lastModified },
    });
    expect(byDate.status).toBe(304);
    const changed = await raw.server.fetch('/api/raw/notes.txt', {
      token: raw.server.admin.token,
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
    const response = await raw.server.fetch(`/api/raw/${name}?inline=true`, {
      token: raw.server.admin.token,
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
    const response = await raw.server.fetch(`/api/raw/${name}?inline=true`, {
      token: raw.server.admin.token,
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
    const response = await raw.server.fetch(`/api/raw/notes.txt?auth=${raw.server.admin.token}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('plain notes\n');
  });

  it('answers 401 without a token, 404 for a missing file and 403 outside the scope', async () => {
    expect((await raw.server.fetch('/api/raw/notes.txt')).status).toBe(401);
    const missing = await raw.server.fetch('/api/raw/nope.txt', { token: raw.server.admin.token });
    expect(missing.status).toBe(404);
    const escape = await raw.server.fetch('/api/raw/guarded/escape/passwd', {
      token: raw.server.admin.token,
    });
    expect(escape.status).toBe(403);
  });

  it('sends headers and an empty body for a named pipe', async () => {
    const response = await raw.server.fetch('/api/raw/guarded/pipe', {
      token: raw.server.admin.token,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('redirects the bare prefix to the prefix with a slash', async () => {
    const response = await raw.server.fetch('/api/raw', { token: raw.server.admin.token });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/api/raw/');
  });
});

describe('GET /api/raw: permissions and rules', () => {
  it('answers 202 without the download permission, for files and folders alike', async () => {
    const { token } = await raw.server.createUser({ perm: { download: false } });
    for (const url of ['/api/raw/notes.txt', '/api/raw/tree/', '/api/raw/nope.txt']) {
      const response = await raw.server.fetch(url, { token });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('202 Accepted\n');
    }
  });

  it('answers 403 for a file blocked by a rule and for a hidden dotfile', async () => {
    const { token } = await raw.server.createUser({
      hideDotfiles: true,
      rules: [{ regex: false, allow: false, path: '/guarded/secret', regexp: { raw: '' } }],
    });
    expect((await raw.server.fetch('/api/raw/guarded/secret/hidden.txt', { token })).status).toBe(
      403,
    );
    expect((await raw.server.fetch('/api/raw/guarded/secret/', { token })).status).toBe(403);
    expect((await raw.server.fetch('/api/raw/guarded/.dotfile', { token })).status).toBe(403);
  });

  it('leaves blocked folders, hidden files, escaping links, pipes and backslash names out of archives', async () => {
    const { token } = await raw.server.createUser({
      hideDotfiles: true,
      rules: [{ regex: false, allow: false, path: '/guarded/secret', regexp: { raw: '' } }],
    });
    const file = path.join(raw.scratch, 'guarded.tar');
    const response = await download(raw.server, '/api/raw/guarded/?algo=tar', file, token);
    expect(response.status).toBe(200);
    const { stdout } = await run('tar', ['-tf', file]);
    expect(stdout.split('\n').filter(Boolean).sort()).toEqual(['open.txt']);
  });

  it('keeps a user inside their scope', async () => {
    await mkdir(path.join(raw.server.root, 'users/alice'), { recursive: true });
    await writeFile(path.join(raw.server.root, 'users/alice/mine.txt'), 'mine');
    const { token } = await raw.server.createUser({ scope: '/users/alice' });
    const own = await raw.server.fetch('/api/raw/mine.txt', { token });
    expect(await own.text()).toBe('mine');
    const file = path.join(raw.scratch, 'alice.zip');
    const response = await download(raw.server, '/api/raw/?algo=zip', file, token);
    expect(response.headers.get('content-disposition')).toBe(
      "attachment; filename*=utf-8''alice.zip",
    );
    const { stdout } = await run('unzip', ['-Z1', file]);
    expect(stdout.trim()).toBe('mine.txt');
    expect((await raw.server.fetch('/api/raw/../notes.txt', { token })).status).not.toBe(200);
  });
});
