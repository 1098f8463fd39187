import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import {
  createUpload,
  eventually,
  exists,
  headUpload,
  namesIn,
  patchChunk,
  realOf,
  stagingFiles,
} from './helpers/tus.ts';

/** Resolves after `ms`: lets a one-second upload lifetime pass (the assertion is on the outcome). */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('abandoned uploads expire', () => {
  let server: TestServer;
  let user: TestUser;
  let outside: string;

  beforeAll(async () => {
    server = await startTestServer({ config: { uploadExpiry: 1 } });
    user = await server.createUser({ perm: { create: true, delete: true } });
    outside = await mkdtemp(path.join(os.tmpdir(), 'cabinet-expiry-outside-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('announces the expiry and pushes it forward on every PATCH', async () => {
    const created = await createUpload(server, user.token, '/announce.bin', 10);
    const createdExpiry = Date.parse(created.headers.get('upload-expires')!);
    expect(createdExpiry).toBeGreaterThan(Date.now() - 1000);
    const patched = await patchChunk(server, user.token, '/announce.bin', 0, Buffer.from('ab'));
    expect(Date.parse(patched.headers.get('upload-expires')!)).toBeGreaterThanOrEqual(
      createdExpiry,
    );
  });

  it('removes the staging file of an idle upload and forgets it (periodic sweep)', async () => {
    await createUpload(server, user.token, '/idle/partial.bin', 100);
    await patchChunk(server, user.token, '/idle/partial.bin', 0, Buffer.from('some bytes'));
    const folder = realOf(server.root, '/idle');
    expect(await stagingFiles(folder)).toHaveLength(1);
    await eventually(async () => (await stagingFiles(folder)).length === 0, 15_000, 'the sweep');
    expect((await headUpload(server, user.token, '/idle/partial.bin')).status).toBe(404);
    expect(await exists(realOf(server.root, '/idle/partial.bin'))).toBe(false);
  });

  it('never follows a symlink planted in place of the staging folder (GHSA-m9f5-2232-frp6)', async () => {
    await createUpload(server, user.token, '/planted/x.bin', 100);
    const folder = realOf(server.root, '/planted');
    const [name] = await stagingFiles(folder);
    expect(name).toBeDefined();
    // A local user swaps the folder for a link to somewhere else holding a file of the same name.
    await rename(folder, realOf(server.root, '/planted-moved'));
    await writeFile(path.join(outside, name!), 'not yours to delete');
    await symlink(outside, folder);
    const [session] = await server.ctx.store.uploads.listExpired(Number.MAX_SAFE_INTEGER);
    expect(session).toBeDefined();
    await eventually(
      async () =>
        (await server.ctx.store.uploads.byTarget(path.join(folder, 'x.bin'))) === undefined,
      15_000,
      'the sweep',
    );
    expect(await namesIn(outside)).toEqual([name]);
  });
});

describe('the expiry sweep at start', () => {
  it('removes uploads that expired while the server was stopped', async () => {
    const first = await startTestServer({ config: { uploadExpiry: 1 } });
    const { root, dataDir } = first;
    const user = await first.createUser({ perm: { create: true } });
    await createUpload(first, user.token, '/stopped/file.bin', 50);
    const folder = realOf(root, '/stopped');
    expect(await stagingFiles(folder)).toHaveLength(1);
    await first.close({ removeFiles: false });
    await pause(1200);

    const second = await startTestServer({ root, dataDir, config: { uploadExpiry: 3600 } });
    try {
      // Swept before the server answered its first request.
      expect(await stagingFiles(folder)).toEqual([]);
      expect(await second.ctx.store.uploads.listExpired(Number.MAX_SAFE_INTEGER)).toEqual([]);
    } finally {
      await second.close();
      await rm(path.dirname(root), { recursive: true, force: true });
    }
  });

  it('keeps uploads that have not expired across a restart', async () => {
    const first = await startTestServer();
    const { root, dataDir } = first;
    const user = await first.createUser({ perm: { create: true } });
    await mkdir(realOf(root, '/kept'), { recursive: true });
    await createUpload(first, user.token, '/kept/file.bin', 50);
    await first.close({ removeFiles: false });
    const second = await startTestServer({ root, dataDir });
    try {
      expect(await stagingFiles(realOf(root, '/kept'))).toHaveLength(1);
      const token = await second.tokenFor(user.user);
      expect((await headUpload(second, token, '/kept/file.bin')).headers.get('upload-offset')).toBe(
        '0',
      );
    } finally {
      await second.close();
      await rm(path.dirname(root), { recursive: true, force: true });
    }
  });
});
