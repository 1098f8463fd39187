// Resumable uploads (tus 1.0): the core protocol over raw HTTP.
import { readFile } from 'node:fs/promises';
import { expectSameBytes } from './helpers/bytes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../testing/test-server.ts';
import {
  OFFSET_CT,
  TUS,
  createUpload,
  encodePath,
  exists,
  headUpload,
  namesIn,
  patchChunk,
  randomContent,
  realOf,
  stagingFiles,
  startTusServer,
} from './helpers/tus.ts';

describe('tus resumable uploads over raw HTTP', () => {
  let server: TestServer;
  let alice: TestUser;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ server, alice, close } = await startTusServer());
  });
  afterAll(() => close());

  describe('core protocol', () => {
    it('answers OPTIONS with 204, the version and the extensions, without a token', async () => {
      const res = await server.fetch('/api/tus/anything.bin', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
      expect(res.headers.get('tus-version')).toBe('1.0.0');
      expect(res.headers.get('tus-extension')).toBe(
        'creation,creation-with-upload,termination,expiration',
      );
    });

    it('refuses an unsupported protocol version with 412 and names the supported one', async () => {
      const res = await server.fetch('/api/tus/v.bin', {
        method: 'POST',
        token: alice.token,
        headers: { 'Tus-Resumable': '0.2.2', 'Upload-Length': '3' },
      });
      expect(res.status).toBe(412);
      expect(res.headers.get('tus-version')).toBe('1.0.0');
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
      expect(await exists(realOf(server.root, '/v.bin'))).toBe(false);
    });

    it('puts Tus-Resumable on error replies too and needs a token', async () => {
      const res = await server.fetch('/api/tus/x.bin', {
        method: 'POST',
        headers: { ...TUS, 'Upload-Length': '1' },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('tus-resumable')).toBe('1.0.0');
    });

    it('creates, reports, appends in chunks and renames into place only at the end', async () => {
      const content = randomContent(300_000);
      const created = await createUpload(
        server,
        alice.token,
        '/docs/report one.bin',
        content.length,
        {
          'Upload-Metadata': 'filename cmVwb3J0IG9uZS5iaW4=,filetype',
        },
      );
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('/api/tus/docs/report%20one.bin');
      expect(created.headers.get('tus-resumable')).toBe('1.0.0');
      expect(Date.parse(created.headers.get('upload-expires')!)).toBeGreaterThan(Date.now());
      expect(await created.text()).toBe('201 Created\n');
      // Nothing at the target yet: only the hidden staging file in its folder.
      const folder = realOf(server.root, '/docs');
      expect(await namesIn(folder)).toEqual(await stagingFiles(folder));
      expect(await stagingFiles(folder)).toHaveLength(1);

      const head = await headUpload(server, alice.token, '/docs/report one.bin');
      expect(head.status).toBe(200);
      expect(head.headers.get('upload-offset')).toBe('0');
      expect(head.headers.get('upload-length')).toBe(String(content.length));
      expect(head.headers.get('upload-metadata')).toBe('filename cmVwb3J0IG9uZS5iaW4=,filetype');
      expect(head.headers.get('cache-control')).toBe('no-store');

      const first = await patchChunk(
        server,
        alice.token,
        '/docs/report one.bin',
        0,
        content.subarray(0, 100_000),
      );
      expect(first.status).toBe(204);
      expect(first.headers.get('upload-offset')).toBe('100000');
      expect(first.headers.get('upload-expires')).toBeTruthy();
      expect(await exists(realOf(server.root, '/docs/report one.bin'))).toBe(false);

      const get = await server.fetch(`/api/tus${encodePath('/docs/report one.bin')}`, {
        token: alice.token,
        headers: TUS,
      });
      expect(get.status).toBe(200);
      expect(get.headers.get('upload-offset')).toBe('100000');

      const last = await patchChunk(
        server,
        alice.token,
        '/docs/report one.bin',
        100_000,
        content.subarray(100_000),
      );
      expect(last.status).toBe(204);
      expect(last.headers.get('upload-offset')).toBe(String(content.length));
      expectSameBytes(await readFile(realOf(server.root, '/docs/report one.bin')), content);
      expect(await stagingFiles(folder)).toEqual([]);

      // A client whose last reply was lost learns from HEAD that the upload is done.
      const after = await headUpload(server, alice.token, '/docs/report one.bin');
      expect(after.status).toBe(200);
      expect(after.headers.get('upload-offset')).toBe(String(content.length));
    });

    it('refuses a PATCH with another content type with 415 and writes nothing', async () => {
      await createUpload(server, alice.token, '/ct.bin', 10);
      for (const type of [
        'application/octet-stream',
        'text/plain',
        'application/offset+octet-stream; x=1',
      ]) {
        const res = await patchChunk(server, alice.token, '/ct.bin', 0, Buffer.from('0123456789'), {
          'Content-Type': type,
        });
        expect(res.status).toBe(415);
      }
      const head = await headUpload(server, alice.token, '/ct.bin');
      expect(head.headers.get('upload-offset')).toBe('0');
    });

    it('refuses a wrong offset with 409 and keeps the stored offset', async () => {
      await createUpload(server, alice.token, '/offset.bin', 10);
      expect(
        (await patchChunk(server, alice.token, '/offset.bin', 0, Buffer.from('abcd'))).status,
      ).toBe(204);
      const behind = await patchChunk(server, alice.token, '/offset.bin', 0, Buffer.from('abcd'));
      expect(behind.status).toBe(409);
      expect(behind.headers.get('upload-offset')).toBe('4');
      const ahead = await patchChunk(server, alice.token, '/offset.bin', 6, Buffer.from('ab'));
      expect(ahead.status).toBe(409);
      const head = await headUpload(server, alice.token, '/offset.bin');
      expect(head.headers.get('upload-offset')).toBe('4');
    });

    it('answers 400 for a missing or invalid Upload-Offset and for an offset past the length', async () => {
      await createUpload(server, alice.token, '/bad-offset.bin', 4);
      const missing = await server.fetch('/api/tus/bad-offset.bin', {
        method: 'PATCH',
        token: alice.token,
        headers: { ...TUS, 'Content-Type': OFFSET_CT },
        body: 'ab',
      });
      expect(missing.status).toBe(400);
      expect(await missing.text()).toBe('400 Bad Request (missing Upload-Offset)\n');
      expect(
        (await patchChunk(server, alice.token, '/bad-offset.bin', -1 as number, Buffer.from('a')))
          .status,
      ).toBe(400);
      expect(
        (await patchChunk(server, alice.token, '/bad-offset.bin', 5, Buffer.alloc(0))).status,
      ).toBe(400);
    });

    it('refuses a PATCH past Upload-Length with 413 and rolls back to the previous offset', async () => {
      const virtual = '/too-long.bin';
      await createUpload(server, alice.token, virtual, 10);
      expect((await patchChunk(server, alice.token, virtual, 0, Buffer.from('12345'))).status).toBe(
        204,
      );
      const declared = await patchChunk(server, alice.token, virtual, 5, Buffer.from('6789AB'));
      expect(declared.status).toBe(413);
      expect(declared.headers.get('upload-offset')).toBe('5');
      expect((await headUpload(server, alice.token, virtual)).headers.get('upload-offset')).toBe(
        '5',
      );
      const [staging] = await stagingFiles(server.root);
      expect(staging).toBeDefined();
    });

    it('rolls back a chunked body that runs past Upload-Length while streaming', async () => {
      const virtual = '/too-long-chunked.bin';
      await createUpload(server, alice.token, virtual, 8);
      expect((await patchChunk(server, alice.token, virtual, 0, Buffer.from('abc'))).status).toBe(
        204,
      );
      // A streamed body has no Content-Length: the overflow is only seen while writing.
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(Buffer.from('defgh')));
          controller.enqueue(new Uint8Array(Buffer.from('XYZ')));
          controller.close();
        },
      });
      const res = await server.fetch(`/api/tus${virtual}`, {
        method: 'PATCH',
        token: alice.token,
        headers: { ...TUS, 'Content-Type': OFFSET_CT, 'Upload-Offset': '3' },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect((await headUpload(server, alice.token, virtual)).headers.get('upload-offset')).toBe(
        '3',
      );
      expect((await patchChunk(server, alice.token, virtual, 3, Buffer.from('defgh'))).status).toBe(
        204,
      );
      expect(await readFile(realOf(server.root, virtual), 'utf8')).toBe('abcdefgh');
    });

    it('answers 400 for a missing or invalid Upload-Length and creates nothing', async () => {
      for (const length of [undefined, '-1', 'abc', '1.5', '']) {
        const headers: Record<string, string> = { ...TUS };
        if (length !== undefined) headers['Upload-Length'] = length;
        const res = await server.fetch('/api/tus/new-folder/invalid.bin', {
          method: 'POST',
          token: alice.token,
          headers,
        });
        expect(res.status).toBe(400);
        expect(await res.text()).toMatch(/^400 Bad Request \((missing|invalid) Upload-Length\)\n$/);
      }
      const deferred = await createUpload(
        server,
        alice.token,
        '/new-folder/invalid.bin',
        undefined,
        {
          'Upload-Defer-Length': '1',
        },
      );
      expect(deferred.status).toBe(400);
      const badMeta = await createUpload(server, alice.token, '/new-folder/invalid.bin', 3, {
        'Upload-Metadata': 'filename not-base64!',
      });
      expect(badMeta.status).toBe(400);
      expect(await exists(realOf(server.root, '/new-folder'))).toBe(false);
    });

    it('answers 404 for HEAD, PATCH and DELETE without an upload', async () => {
      expect((await headUpload(server, alice.token, '/none.bin')).status).toBe(404);
      expect((await patchChunk(server, alice.token, '/none.bin', 0, Buffer.from('a'))).status).toBe(
        404,
      );
      const del = await server.fetch('/api/tus/none.bin', {
        method: 'DELETE',
        token: alice.token,
        headers: TUS,
      });
      expect(del.status).toBe(404);
    });

    it('terminates an upload with DELETE: 204, staging removed, then 404', async () => {
      await createUpload(server, alice.token, '/gone/terminate.bin', 10);
      await patchChunk(server, alice.token, '/gone/terminate.bin', 0, Buffer.from('abc'));
      expect(await stagingFiles(realOf(server.root, '/gone'))).toHaveLength(1);
      const del = await server.fetch('/api/tus/gone/terminate.bin', {
        method: 'DELETE',
        token: alice.token,
        headers: TUS,
      });
      expect(del.status).toBe(204);
      expect(await stagingFiles(realOf(server.root, '/gone'))).toEqual([]);
      expect(await exists(realOf(server.root, '/gone/terminate.bin'))).toBe(false);
      expect((await headUpload(server, alice.token, '/gone/terminate.bin')).status).toBe(404);
    });

    it('honours X-HTTP-Method-Override for PATCH and DELETE sent as POST', async () => {
      await createUpload(server, alice.token, '/override-method.bin', 3);
      const patch = await server.fetch('/api/tus/override-method.bin', {
        method: 'POST',
        token: alice.token,
        headers: {
          ...TUS,
          'X-HTTP-Method-Override': 'PATCH',
          'Content-Type': OFFSET_CT,
          'Upload-Offset': '0',
        },
        body: 'abc',
      });
      expect(patch.status).toBe(204);
      expect(await readFile(realOf(server.root, '/override-method.bin'), 'utf8')).toBe('abc');
    });

    it('accepts data in the creation request (creation-with-upload)', async () => {
      const res = await server.fetch('/api/tus/with-data.txt', {
        method: 'POST',
        token: alice.token,
        headers: { ...TUS, 'Upload-Length': '11', 'Content-Type': OFFSET_CT },
        body: 'hello world',
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('upload-offset')).toBe('11');
      expect(await readFile(realOf(server.root, '/with-data.txt'), 'utf8')).toBe('hello world');

      const partial = await server.fetch('/api/tus/with-part.txt', {
        method: 'POST',
        token: alice.token,
        headers: { ...TUS, 'Upload-Length': '11', 'Content-Type': OFFSET_CT },
        body: 'hello',
      });
      expect(partial.headers.get('upload-offset')).toBe('5');
      expect(await exists(realOf(server.root, '/with-part.txt'))).toBe(false);

      const tooMuch = await server.fetch('/api/tus/with-too-much.txt', {
        method: 'POST',
        token: alice.token,
        headers: { ...TUS, 'Upload-Length': '2', 'Content-Type': OFFSET_CT },
        body: 'hello',
      });
      expect(tooMuch.status).toBe(413);
      expect(await stagingFiles(server.root)).not.toContainEqual(
        expect.stringContaining('with-too-much'),
      );
      expect((await headUpload(server, alice.token, '/with-too-much.txt')).status).toBe(404);
    });

    it('creates an empty file right away for Upload-Length 0', async () => {
      const res = await createUpload(server, alice.token, '/empty/zero.bin', 0);
      expect(res.status).toBe(201);
      expect(await readFile(realOf(server.root, '/empty/zero.bin'))).toEqual(Buffer.alloc(0));
      expect(await stagingFiles(realOf(server.root, '/empty'))).toEqual([]);
    });

    it('refuses an upload larger than the free space with 413 before creating anything', async () => {
      const res = await createUpload(
        server,
        alice.token,
        '/huge/file.bin',
        Number.MAX_SAFE_INTEGER,
      );
      expect(res.status).toBe(413);
      expect(await exists(realOf(server.root, '/huge'))).toBe(false);
    });
  });
});
