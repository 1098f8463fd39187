// Resumable uploads (tus 1.0): targets and conflicts, permissions and rules, interruptions.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expectSameBytes } from './helpers/bytes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../testing/test-server.ts';
import {
  TUS,
  createUpload,
  eventually,
  exists,
  headUpload,
  namesIn,
  patchChunk,
  patchAndHang,
  patchThenDrop,
  randomContent,
  rawRequest,
  realOf,
  stagingFiles,
  startTusServer,
} from './helpers/tus.ts';

describe('tus resumable uploads over raw HTTP', () => {
  let server: TestServer;
  let alice: TestUser;
  let outside: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ server, alice, outside, close } = await startTusServer());
  });
  afterAll(() => close());

  describe('targets and conflicts', () => {
    it('answers 400 for an existing folder and for the root', async () => {
      await mkdir(realOf(server.root, '/a-folder'), { recursive: true });
      expect((await createUpload(server, alice.token, '/a-folder', 3)).status).toBe(400);
      expect(
        (await createUpload(server, alice.token, '/a-folder', 3, {}, '?override=true')).status,
      ).toBe(400);
      const root = await server.fetch('/api/tus/', {
        method: 'POST',
        token: alice.token,
        headers: { ...TUS, 'Upload-Length': '1' },
      });
      expect(root.status).toBe(400);
    });

    it('answers 409 for an existing file and replaces it with override, intact until the end', async () => {
      const real = realOf(server.root, '/existing.txt');
      await writeFile(real, 'old content');
      expect((await createUpload(server, alice.token, '/existing.txt', 3)).status).toBe(409);
      const created = await createUpload(
        server,
        alice.token,
        '/existing.txt',
        6,
        {},
        '?override=true',
      );
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('/api/tus/existing.txt');
      await patchChunk(server, alice.token, '/existing.txt', 0, Buffer.from('new'));
      expect(await readFile(real, 'utf8')).toBe('old content');
      await patchChunk(server, alice.token, '/existing.txt', 3, Buffer.from('!!!'));
      expect(await readFile(real, 'utf8')).toBe('new!!!');
    });

    it('refuses to finish when a file appeared meanwhile and override was not asked', async () => {
      await createUpload(server, alice.token, '/race/race.txt', 3);
      await writeFile(realOf(server.root, '/race/race.txt'), 'someone else');
      const res = await patchChunk(server, alice.token, '/race/race.txt', 0, Buffer.from('abc'));
      expect(res.status).toBe(409);
      expect(await readFile(realOf(server.root, '/race/race.txt'), 'utf8')).toBe('someone else');
      expect(await stagingFiles(realOf(server.root, '/race'))).toEqual([]);
      expect((await headUpload(server, alice.token, '/race/race.txt')).status).toBe(404);
    });

    it('lets the same user restart an upload and keeps other users out of it', async () => {
      const bob = await server.createUser({ perm: { create: true } });
      await createUpload(server, alice.token, '/shared/target.bin', 10);
      await patchChunk(server, alice.token, '/shared/target.bin', 0, Buffer.from('abc'));
      expect((await createUpload(server, bob.token, '/shared/target.bin', 10)).status).toBe(409);
      expect((await headUpload(server, bob.token, '/shared/target.bin')).status).toBe(404);
      const again = await createUpload(server, alice.token, '/shared/target.bin', 4);
      expect(again.status).toBe(201);
      const head = await headUpload(server, alice.token, '/shared/target.bin');
      expect(head.headers.get('upload-offset')).toBe('0');
      expect(head.headers.get('upload-length')).toBe('4');
      expect(await stagingFiles(realOf(server.root, '/shared'))).toHaveLength(1);
      await server.fetch('/api/tus/shared/target.bin', { method: 'DELETE', token: alice.token });
    });

    it('hides staging files from the user: their names are refused as paths', async () => {
      await createUpload(server, alice.token, '/hidden-check.bin', 5);
      const [name] = await stagingFiles(server.root);
      expect(name).toBeDefined();
      expect((await createUpload(server, alice.token, `/${name}`, 1)).status).toBe(403);
      expect((await headUpload(server, alice.token, `/${name}`)).status).toBe(403);
      await server.fetch('/api/tus/hidden-check.bin', { method: 'DELETE', token: alice.token });
    });
  });

  describe('permissions, rules and scope', () => {
    it('needs the create permission for every step (403) and creates nothing', async () => {
      const viewer = await server.createUser({
        perm: { create: false, modify: true, delete: true },
      });
      expect((await createUpload(server, viewer.token, '/nope/x.bin', 3)).status).toBe(403);
      expect(await exists(realOf(server.root, '/nope'))).toBe(false);
      await createUpload(server, alice.token, '/perm.bin', 3);
      expect((await headUpload(server, viewer.token, '/perm.bin')).status).toBe(403);
      expect(
        (await patchChunk(server, viewer.token, '/perm.bin', 0, Buffer.from('a'))).status,
      ).toBe(403);
    });

    it('needs the modify permission to override (403)', async () => {
      const creator = await server.createUser({ perm: { create: true, modify: false } });
      await writeFile(realOf(server.root, '/keep.txt'), 'keep');
      expect(
        (await createUpload(server, creator.token, '/keep.txt', 3, {}, '?override=true')).status,
      ).toBe(403);
      expect((await createUpload(server, creator.token, '/keep.txt', 3)).status).toBe(409);
      expect(await readFile(realOf(server.root, '/keep.txt'), 'utf8')).toBe('keep');
    });

    it('needs the delete permission to terminate (403)', async () => {
      const creator = await server.createUser({ perm: { create: true, delete: false } });
      await createUpload(server, creator.token, '/no-delete.bin', 3);
      const res = await server.fetch('/api/tus/no-delete.bin', {
        method: 'DELETE',
        token: creator.token,
        headers: TUS,
      });
      expect(res.status).toBe(403);
      expect((await headUpload(server, creator.token, '/no-delete.bin')).status).toBe(200);
    });

    it('refuses paths blocked by a rule (403) and creates nothing', async () => {
      const ruled = await server.createUser({
        perm: { create: true },
        rules: [{ regex: false, allow: false, path: '/private' }],
      });
      expect((await createUpload(server, ruled.token, '/private/x.bin', 3)).status).toBe(403);
      expect((await createUpload(server, ruled.token, '/Private-not/x.bin', 3)).status).toBe(201);
      expect(await exists(realOf(server.root, '/private'))).toBe(false);
      await createUpload(server, alice.token, '/private/alice.bin', 3);
      expect((await headUpload(server, ruled.token, '/private/alice.bin')).status).toBe(403);
    });

    it('refuses hidden dotfiles for users who hide them', async () => {
      const tidy = await server.createUser({ perm: { create: true }, hideDotfiles: true });
      expect((await createUpload(server, tidy.token, '/.env', 3)).status).toBe(403);
    });

    it('keeps `..` inside the scope and refuses symlinks that lead outside (403)', async () => {
      const scoped = await server.createUser({ perm: { create: true }, scope: '/users/carol' });
      await mkdir(realOf(server.root, '/users/carol'), { recursive: true });
      const dotdot = await rawRequest(server, 'POST', '/api/tus/..%2F..%2Fescape.bin', {
        ...TUS,
        'X-Auth': scoped.token,
        'Upload-Length': '3',
      });
      // Cleaned lexically inside the scope (or redirected to the clean path): never above it.
      expect([201, 301, 403]).toContain(dotdot.status);
      if (dotdot.status === 201) expect(dotdot.headers.location).toBe('/api/tus/escape.bin');
      expect(await exists(realOf(server.root, '/escape.bin'))).toBe(false);
      expect(await stagingFiles(realOf(server.root, '/users'))).toEqual([]);

      await symlink(outside, realOf(server.root, '/users/carol/out-dir'));
      await writeFile(path.join(outside, 'target.txt'), 'outside');
      await symlink(path.join(outside, 'target.txt'), realOf(server.root, '/users/carol/out-file'));
      await symlink(
        path.join(outside, 'missing.txt'),
        realOf(server.root, '/users/carol/dangling'),
      );
      for (const virtual of ['/out-dir/x.bin', '/out-file', '/dangling', '/out-dir/new/x.bin']) {
        const res = await createUpload(server, scoped.token, virtual, 3, {}, '?override=true');
        expect(res.status, virtual).toBe(403);
      }
      expect(await namesIn(outside)).toEqual(['target.txt']);
      expect(await readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('outside');
    });
  });

  describe('interruptions', () => {
    it('keeps the bytes of a chunk cut off mid-way and resumes with HEAD + PATCH', async () => {
      const virtual = '/cut/movie.bin';
      const content = randomContent(200_000);
      await createUpload(server, alice.token, virtual, content.length);
      await patchThenDrop(
        server,
        alice.token,
        virtual,
        0,
        content.length,
        content.subarray(0, 70_000),
      );
      const folder = realOf(server.root, '/cut');
      const [staging] = await stagingFiles(folder);
      // The server notices the hang-up on its own and fsyncs what arrived.
      await eventually(
        async () => (await readFile(path.join(folder, staging!))).length === 70_000,
        10_000,
        'the received bytes to be kept',
      );
      const head = await headUpload(server, alice.token, virtual);
      expect(head.status).toBe(200);
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBe(70_000);
      const rest = await patchChunk(server, alice.token, virtual, offset, content.subarray(offset));
      expect(rest.status).toBe(204);
      expectSameBytes(await readFile(realOf(server.root, virtual)), content);
    });

    it('lets a new request take over from a PATCH whose client silently went away', async () => {
      const virtual = '/stale/half-open.bin';
      const content = randomContent(120_000);
      await createUpload(server, alice.token, virtual, content.length);
      // The old request stays open mid-body, as with a dead network path and no FIN.
      const stale = await patchAndHang(
        server,
        alice.token,
        virtual,
        0,
        content.length,
        content.subarray(0, 40_000),
      );
      // The client resumes as tus clients do: HEAD, PATCH from there, and on 409 ask again.
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 3 && statuses.at(-1) !== 204; attempt++) {
        const head = await headUpload(server, alice.token, virtual);
        expect(head.status).toBe(200);
        const offset = Number(head.headers.get('upload-offset'));
        expect(offset).toBeLessThanOrEqual(40_000);
        const res = await patchChunk(
          server,
          alice.token,
          virtual,
          offset,
          content.subarray(offset),
        );
        statuses.push(res.status);
      }
      expect(statuses.at(-1)).toBe(204);
      expect(statuses.filter((status) => status === 409).length).toBeLessThanOrEqual(1);
      // The server ended the stale request rather than leaving it to hold the upload.
      await stale.ended;
      expectSameBytes(await readFile(realOf(server.root, virtual)), content);
    });
  });
});
