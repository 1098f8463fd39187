// The resources API, reading: folder listings, files, the recursive listing and disk usage.
import { createHash } from 'node:crypto';
import { symlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { PNG, filesUnder, json } from './helpers/resources.ts';

let server: TestServer;
let root: string;
const { put } = filesUnder(() => root);

beforeAll(async () => {
  server = await startTestServer();
  root = server.root;
});
afterAll(() => server.close());

describe('GET /api/resources (folders)', () => {
  beforeAll(async () => {
    await put('list/file10.txt', 'ten');
    await put('list/file2.txt', 'two-two');
    await put('list/File1.txt', '1');
    await put('list/b-dir/x.txt');
    await put('list/A-dir/x.txt');
    await put('list/movie.mp4', Buffer.alloc(10));
    await put('list/movie.en.srt', '1\n00:00:01,000 --> 00:00:02,000\nhi\n');
    await put('list/subs/any.vtt', 'WEBVTT');
    await put('list/subs/movie/deep.ass', '[Script Info]');
    await put('list/subs/other/skip.srt', 'x');
    await symlink('nowhere', path.join(root, 'list', 'broken'));
    await utimes(
      path.join(root, 'list/file10.txt'),
      new Date('2020-01-01'),
      new Date('2020-01-01'),
    );
  });

  it('lists items with counts, folder type "" and the user sorting (A→Z, folders first)', async () => {
    const res = await server.fetch('/api/resources/list/', { token: server.admin.token });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.path).toBe('/list/');
    expect(body.name).toBe('list');
    expect(body.isDir).toBe(true);
    expect(body.type).toBe('');
    expect(body.items!.map((i) => i.name)).toEqual([
      'A-dir',
      'b-dir',
      'subs',
      'broken',
      'File1.txt',
      'file2.txt',
      'file10.txt',
      'movie.en.srt',
      'movie.mp4',
    ]);
    expect(body.numDirs).toBe(3);
    expect(body.numFiles).toBe(6);
    expect(body.sorting).toEqual({ by: 'name', asc: false });
    const dir = body.items!.find((i) => i.name === 'A-dir')!;
    expect(dir).toMatchObject({ path: '/list/A-dir', isDir: true, type: '', extension: '' });
    expect(dir.mode).toBeGreaterThanOrEqual(2 ** 31);
    const text = body.items!.find((i) => i.name === 'file2.txt')!;
    expect(text).toMatchObject({ size: 7, extension: '.txt', type: 'text', isSymlink: false });
    expect(text.modified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    expect(body.items!.find((i) => i.name === 'broken')).toMatchObject({
      type: 'invalid_link',
      isSymlink: true,
    });
  });

  it('finds subtitles for videos beside them and in subs folders', async () => {
    const res = await server.fetch('/api/resources/list', { token: server.admin.token });
    const body = await json(res);
    expect(body.path).toBe('/list');
    const movie = body.items!.find((i) => i.name === 'movie.mp4')!;
    expect(movie.type).toBe('video');
    expect(movie.subtitles?.sort()).toEqual(
      ['/list/movie.en.srt', '/list/subs/any.vtt', '/list/subs/movie/deep.ass'].sort(),
    );
  });

  it.each([
    [{ by: 'name', asc: true }, ['subs', 'b-dir', 'A-dir']],
    [{ by: 'size', asc: false }, ['movie.en.srt', 'movie.mp4', 'file2.txt']],
    [{ by: 'modified', asc: true }, ['file10.txt']],
  ])('sorts by %j', async (sorting, expectedStart) => {
    const user = await server.createUser({ sorting });
    const body = await json(await server.fetch('/api/resources/list', { token: user.token }));
    const names = body.items!.map((i) => i.name);
    if (sorting.by === 'size') {
      expect(names.slice(0, 3)).toEqual(expectedStart);
      expect(names.slice(-3).every((n) => ['A-dir', 'b-dir', 'subs'].includes(n))).toBe(true);
    } else {
      expect(names.slice(0, expectedStart.length)).toEqual(expectedStart);
    }
  });

  it('streams a big folder as the same JSON document, in the user order, with every entry', async () => {
    const count = 2500;
    await Promise.all(
      Array.from({ length: count }, (_, i) => put(`big/item ${count - i}.txt`, 'x'.repeat(i % 7))),
    );
    await put('big/zz-dir/inside.txt');
    const res = await server.fetch('/api/resources/big', { token: server.admin.token });
    expect(res.status).toBe(200);
    // Big listings are written as they are produced, without a Content-Length.
    expect(res.headers.get('content-length')).toBeNull();
    const body = await json(res);
    expect(body).toMatchObject({ path: '/big', name: 'big', isDir: true, type: '' });
    expect(body.numDirs).toBe(1);
    expect(body.numFiles).toBe(count);
    expect(body.items).toHaveLength(count + 1);
    expect(body.items![0]!.name).toBe('zz-dir');
    expect(body.items!.slice(1, 4).map((i) => i.name)).toEqual([
      'item 1.txt',
      'item 2.txt',
      'item 3.txt',
    ]);
    expect(body.items!.at(-1)!.name).toBe(`item ${count}.txt`);
    expect(body.items![5]).toEqual({
      path: '/big/item 5.txt',
      name: 'item 5.txt',
      size: (count - 5) % 7,
      extension: '.txt',
      modified: expect.stringMatching(/^\d{4}-/),
      mode: expect.any(Number),
      isDir: false,
      isSymlink: false,
      type: 'text',
    });
  });

  it('types listing entries by name, and by their first bytes only when the name says nothing', async () => {
    await put('typed/plain', 'just words\n');
    await put('typed/elf', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00]));
    await put('typed/main.go', 'package main\n');
    await put('typed/notes.zip', 'text inside a file named .zip');
    await put('typed/clip.ts', Buffer.from([0x47, ...Buffer.alloc(187), 0x47]));
    const body = await json(
      await server.fetch('/api/resources/typed', { token: server.admin.token }),
    );
    const types = Object.fromEntries(body.items!.map((i) => [i.name, i.type]));
    expect(types).toEqual({
      plain: 'text',
      elf: 'blob',
      'main.go': 'text',
      // A registered non-text type is trusted in listings; the file's own GET sniffs.
      'notes.zip': 'blob',
      'clip.ts': 'video',
    });
  });

  it('answers 401 without a token and 404 for a missing folder', async () => {
    expect((await server.fetch('/api/resources/list')).status).toBe(401);
    expect((await server.fetch('/api/resources/nope/', { token: server.admin.token })).status).toBe(
      404,
    );
  });

  it('redirects the bare prefixes with 301', async () => {
    for (const prefix of ['resources', 'usage']) {
      const res = await server.fetch(`/api/${prefix}`);
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe(`/api/${prefix}/`);
    }
  });
});

describe('GET /api/resources (files)', () => {
  let readOnly: TestUser;
  let noDownload: TestUser;
  beforeAll(async () => {
    await put('files/notes.txt', 'hello notes');
    await put('files/data.csv', 'a,b\n1,2\n');
    await put('files/script', '#!/bin/sh\necho hi\n');
    await put('files/binary.bin', Buffer.from([0, 1, 2, 3, 200, 201]));
    await put('files/unknown', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x00]));
    await put('files/pic.png', PNG);
    await put('files/doc.pdf', '%PDF-1.4');
    await put('files/song.mp3', Buffer.alloc(4));
    await put('files/code.ts', 'export const x = 1;\n');
    await put('files/big.log', Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
    readOnly = await server.createUser({ perm: { modify: false } });
    noDownload = await server.createUser({ perm: { download: false } });
  });

  it.each([
    ['notes.txt', 'text', 'hello notes'],
    ['script', 'text', '#!/bin/sh\necho hi\n'],
    ['code.ts', 'text', 'export const x = 1;\n'],
    ['binary.bin', 'blob', undefined],
    ['unknown', 'blob', undefined],
    ['pic.png', 'image', undefined],
    ['doc.pdf', 'pdf', undefined],
    ['song.mp3', 'audio', undefined],
    ['big.log', 'blob', undefined],
  ])('types %s as %s', async (name, type, content) => {
    const body = await json(
      await server.fetch(`/api/resources/files/${name}`, { token: server.admin.token }),
    );
    expect(body.type).toBe(type);
    expect(body.content).toBe(content);
    expect(body.name).toBe(name);
    expect(body.path).toBe(`/files/${name}`);
  });

  it('sends textImmutable without modify and no content without download', async () => {
    const immutable = await json(
      await server.fetch('/api/resources/files/notes.txt', { token: readOnly.token }),
    );
    expect(immutable.type).toBe('textImmutable');
    expect(immutable.content).toBe('hello notes');
    const hidden = await json(
      await server.fetch('/api/resources/files/notes.txt', { token: noDownload.token }),
    );
    expect(hidden.type).toBe('text');
    expect(hidden.content).toBeUndefined();
  });

  it.each(['md5', 'sha1', 'sha256', 'sha512'])('computes the %s checksum', async (algo) => {
    const res = await server.fetch(`/api/resources/files/notes.txt?checksum=${algo}`, {
      token: server.admin.token,
    });
    const body = await json(res);
    expect(body.checksums).toEqual({
      [algo]: createHash(algo).update('hello notes').digest('hex'),
    });
    expect(body.content).toBeUndefined();
  });

  it('answers checksum errors: 400 for an unknown algorithm, 202 without download', async () => {
    const bad = await server.fetch('/api/resources/files/notes.txt?checksum=crc', {
      token: server.admin.token,
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe('400 Bad Request\n');
    const accepted = await server.fetch('/api/resources/files/notes.txt?checksum=md5', {
      token: noDownload.token,
    });
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe('202 Accepted\n');
  });

  it('sends raw text for X-Encoding: true, 202 without download, JSON for non-text', async () => {
    const raw = await server.fetch('/api/resources/files/data.csv', {
      token: server.admin.token,
      headers: { 'X-Encoding': 'true' },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(await raw.text()).toBe('a,b\n1,2\n');
    const accepted = await server.fetch('/api/resources/files/data.csv', {
      token: noDownload.token,
      headers: { 'X-Encoding': 'true' },
    });
    expect(accepted.status).toBe(202);
    const image = await server.fetch('/api/resources/files/pic.png', {
      token: server.admin.token,
      headers: { 'X-Encoding': 'true' },
    });
    expect((await json(image)).type).toBe('image');
  });
});

describe('GET /api/resources/recursive and /api/usage', () => {
  beforeAll(async () => {
    await put('tree/a/one.txt', '1');
    await put('tree/a/b/two.txt', '22');
    await put('tree/z.txt', 'z');
  });

  it('lists every descendant in lexical walk order', async () => {
    const res = await server.fetch('/api/resources/recursive/tree', { token: server.admin.token });
    const items = await json<Array<Record<string, unknown>>>(res);
    expect(items.map((i) => i.path)).toEqual([
      '/tree/a',
      '/tree/a/b',
      '/tree/a/b/two.txt',
      '/tree/a/one.txt',
      '/tree/z.txt',
    ]);
    expect(items[2]).toMatchObject({ name: 'two.txt', size: 2, isDir: false });
    expect(Object.keys(items[0]!).sort()).toEqual(['isDir', 'modified', 'name', 'path', 'size']);
  });

  it('answers 400 for a file and 404 for a missing folder', async () => {
    const file = await server.fetch('/api/resources/recursive/tree/z.txt', {
      token: server.admin.token,
    });
    expect(file.status).toBe(400);
    expect(await file.text()).toBe('400 Bad Request (path is not a directory)\n');
    expect(
      (await server.fetch('/api/resources/recursive/none', { token: server.admin.token })).status,
    ).toBe(404);
  });

  it('reports the volume for a folder, zeros for a file, 404 when missing', async () => {
    const usage = await json<{ total: number; used: number }>(
      await server.fetch('/api/usage/tree', { token: server.admin.token }),
    );
    expect(usage.total).toBeGreaterThan(0);
    expect(usage.used).toBeGreaterThan(0);
    expect(
      await (await server.fetch('/api/usage/tree/z.txt', { token: server.admin.token })).json(),
    ).toEqual({ total: 0, used: 0 });
    expect((await server.fetch('/api/usage/none', { token: server.admin.token })).status).toBe(404);
  });
});
