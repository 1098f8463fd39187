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

/**
 * The clock uploads expire by, injected into the servers below: the tests move it past an expiry
 * instead of waiting for real time to pass. Whole seconds, as Upload-Expires is an HTTP date.
 */
function testClock(): { now: () => number; advance(ms: number): void } {
  // Years away from the real time, so nothing that reads the real clock could pass these tests.
  let time = Date.UTC(2031, 0, 1);
  return {
    now: () => time,
    advance(ms) {
      time += ms;
    },
  };
}

describe('abandoned uploads expire', () => {
  let server: TestServer;
  let user: TestUser;
  let outside: string;
  const clock = testClock();

  beforeAll(async () => {
    // A one-second lifetime: the periodic sweep then runs every second (see sweepInterval).
    server = await startTestServer({ config: { uploadExpiry: 1 }, now: clock.now });
    user = await server.createUser({ perm: { create: true, delete: true } });
    outside = await mkdtemp(path.join(os.tmpdir(), 'cabinet-expiry-outside-'));
  });
  afterAll(async () => {
    await server.close();
    await rm(outside, { recursive: true, force: true });
  });

  it('announces the expiry and pushes it forward on every PATCH', async () => {
    const own = testClock();
    const minute = await startTestServer({ config: { uploadExpiry: 60 }, now: own.now });
    try {
      const alice = await minute.createUser({ perm: { create: true } });
      const created = await createUpload(minute, alice.token, '/announce.bin', 10);
      expect(Date.parse(created.headers.get('upload-expires')!)).toBe(own.now() + 60_000);
      own.advance(30_000);
      const patched = await patchChunk(minute, alice.token, '/announce.bin', 0, Buffer.from('ab'));
      expect(patched.status).toBe(204);
      expect(Date.parse(patched.headers.get('upload-expires')!)).toBe(own.now() + 60_000);
      // Past the pushed expiry the upload is gone for its owner too.
      own.advance(60_000);
      expect((await headUpload(minute, alice.token, '/announce.bin')).status).toBe(404);
    } finally {
      await minute.close();
    }
  });

  it('removes the staging file of an idle upload and forgets it (periodic sweep)', async () => {
    await createUpload(server, user.token, '/idle/partial.bin', 100);
    await patchChunk(server, user.token, '/idle/partial.bin', 0, Buffer.from('some bytes'));
    const folder = realOf(server.root, '/idle');
    expect(await stagingFiles(folder)).toHaveLength(1);
    // Still alive just before its expiry: the sweeps that run meanwhile leave it alone.
    clock.advance(999);
    expect((await headUpload(server, user.token, '/idle/partial.bin')).status).toBe(200);
    clock.advance(1);
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
    clock.advance(2000);
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
    const clock = testClock();
    const first = await startTestServer({ config: { uploadExpiry: 1 }, now: clock.now });
    const { root, dataDir } = first;
    const user = await first.createUser({ perm: { create: true } });
    await createUpload(first, user.token, '/stopped/file.bin', 50);
    const folder = realOf(root, '/stopped');
    expect(await stagingFiles(folder)).toHaveLength(1);
    await first.close({ removeFiles: false });
    clock.advance(1000);

    const second = await startTestServer({
      root,
      dataDir,
      config: { uploadExpiry: 3600 },
      now: clock.now,
    });
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
    const clock = testClock();
    const first = await startTestServer({ config: { uploadExpiry: 3600 }, now: clock.now });
    const { root, dataDir } = first;
    const user = await first.createUser({ perm: { create: true } });
    await mkdir(realOf(root, '/kept'), { recursive: true });
    await createUpload(first, user.token, '/kept/file.bin', 50);
    await first.close({ removeFiles: false });
    // One second short of its expiry.
    clock.advance(3599_000);
    const second = await startTestServer({
      root,
      dataDir,
      config: { uploadExpiry: 3600 },
      now: clock.now,
    });
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
