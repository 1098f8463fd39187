// Two instances over one database, one root and one data folder behave as one (docs/runtime.md,
// docs/deploy.md). Under `npm test` this file runs twice: on one SQLite file shared by both
// instances, and on PostgreSQL (the server-postgresql suite), the deployment it stands for.
import http from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { login } from './helpers/auth.ts';
import { fakeDist } from './helpers/web-dist.ts';
import {
  OFFSET_CT,
  TUS,
  createUpload,
  encodePath,
  headUpload,
  patchChunk,
  realOf,
  stagingFiles,
} from './helpers/tus.ts';

let a: TestServer;
let b: TestServer;
let dist: string;

beforeAll(async () => {
  dist = await fakeDist();
  const config = { sharedState: 'database', rateLimitMax: 6, webDist: dist };
  a = await startTestServer({ config });
  b = await startTestServer({ root: a.root, dataDir: a.dataDir, config });
});

afterAll(async () => {
  await b?.close({ removeFiles: false });
  await a?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

async function signIn(server: TestServer, username: string, password: string): Promise<string> {
  const res = await login(server, { username, password });
  expect(res.status).toBe(200);
  return res.text();
}

const listRoot = (server: TestServer, token: string) =>
  server.fetch('/api/resources/', { token }).then((res) => res.status);

describe('two instances over one database', () => {
  it('accept each other’s tokens', async () => {
    const token = await signIn(a, 'admin', ADMIN_PASSWORD);
    expect(await listRoot(b, token)).toBe(200);
    const fromB = await signIn(b, 'admin', ADMIN_PASSWORD);
    expect(await listRoot(a, fromB)).toBe(200);
  });

  it('revoke a session on both as soon as it is logged out on one', async () => {
    const token = await signIn(a, 'admin', ADMIN_PASSWORD);
    expect(await listRoot(b, token)).toBe(200);
    expect((await a.fetch('/api/logout', { method: 'POST', token })).status).toBe(200);
    expect(await listRoot(b, token)).toBe(401);
  });

  it('end the other sessions on both when a password changes on one', async () => {
    const user = await a.createUser({ password: 'first-password-long-enough' });
    const kept = await signIn(a, user.user.username, 'first-password-long-enough');
    const other = await signIn(b, user.user.username, 'first-password-long-enough');
    const res = await a.fetch(`/api/users/${user.user.id}`, {
      method: 'PUT',
      token: kept,
      body: JSON.stringify({
        what: 'user',
        which: ['password'],
        current_password: 'first-password-long-enough',
        data: { id: user.user.id, password: 'second-password-long-enough' },
      }),
    });
    expect(res.status).toBe(200);
    expect(await listRoot(b, other)).toBe(401);
    expect(await listRoot(b, kept)).toBe(200);
    await signIn(b, user.user.username, 'second-password-long-enough');
  });

  it('open a share made on one on the other, counting its download limit across both', async () => {
    await writeFile(path.join(a.root, 'shared.txt'), 'shared across instances');
    const made = await a.fetch('/api/share/shared.txt', {
      method: 'POST',
      token: a.admin.token,
      body: JSON.stringify({ downloadLimit: 2 }),
    });
    expect(made.status).toBe(200);
    const { hash } = (await made.json()) as { hash: string };
    const onB = await b.fetch(`/api/public/share/${hash}`);
    expect(onB.status).toBe(200);
    const first = await a.fetch(`/api/public/dl/${hash}`);
    expect(await first.text()).toBe('shared across instances');
    expect((await b.fetch(`/api/public/dl/${hash}`)).status).toBe(200);
    expect((await a.fetch(`/api/public/dl/${hash}`)).status).toBe(410);
    expect((await b.fetch(`/api/public/dl/${hash}`)).status).toBe(410);
  });

  it('count one download per share-page visit, whichever instance serves its requests', async () => {
    await writeFile(path.join(a.root, 'visited.txt'), 'one visit, one copy');
    const made = await a.fetch('/api/share/visited.txt', {
      method: 'POST',
      token: a.admin.token,
      body: JSON.stringify({ downloadLimit: 1 }),
    });
    const { hash } = (await made.json()) as { hash: string };
    const { visit } = (await (await a.fetch(`/api/public/share/${hash}`)).json()) as {
      visit: string;
    };
    const url = `/api/public/dl/${hash}?visit=${encodeURIComponent(visit)}`;
    const replies = await Promise.all([a.fetch(url), b.fetch(url), a.fetch(url), b.fetch(url)]);
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    expect(await replies[1]!.text()).toBe('one visit, one copy');
    expect((await b.fetch(`/api/public/share/${hash}`)).status).toBe(410);
    expect((await a.ctx.store.shares.get(hash))?.downloads).toBe(1);
  });

  it('see a setting saved on one on the other', async () => {
    const settings = (await (
      await a.fetch('/api/settings', { token: a.admin.token })
    ).json()) as Record<string, unknown> & { branding: Record<string, unknown> };
    const saved = await a.fetch('/api/settings', {
      method: 'PUT',
      token: a.admin.token,
      body: JSON.stringify({
        ...settings,
        branding: { ...settings.branding, name: 'One Cabinet' },
      }),
    });
    expect(saved.status).toBe(200);
    const onB = (await (await b.fetch('/api/settings', { token: b.admin.token })).json()) as {
      branding: { name: string };
    };
    expect(onB.branding.name).toBe('One Cabinet');
    // The page B serves names the instance as A's administrator just did.
    const page = await (await b.fetch('/')).text();
    expect(page).toContain('One Cabinet');
  });

  it('resume on one a resumable upload started on the other', async () => {
    const content = Buffer.from('0123456789abcdefghij');
    expect((await createUpload(a, a.admin.token, '/moved/upload.bin', content.length)).status).toBe(
      201,
    );
    expect(
      (await patchChunk(a, a.admin.token, '/moved/upload.bin', 0, content.subarray(0, 8))).status,
    ).toBe(204);
    const head = await headUpload(b, b.admin.token, '/moved/upload.bin');
    expect(head.headers.get('upload-offset')).toBe('8');
    expect(
      (await patchChunk(b, b.admin.token, '/moved/upload.bin', 8, content.subarray(8))).status,
    ).toBe(204);
    expect(await readFile(realOf(a.root, '/moved/upload.bin'))).toEqual(content);
    expect(await stagingFiles(realOf(a.root, '/moved'))).toEqual([]);
  });

  it('hand an upload over to the other instance when its client moves there mid-chunk', async () => {
    const virtual = '/moved/handover.bin';
    const content = Buffer.from('the first part|and the rest of the upload');
    expect((await createUpload(a, a.admin.token, virtual, content.length)).status).toBe(201);
    // A PATCH on A that sends its first part and then stalls: a client whose connection hangs.
    const stalled = stalledPatch(
      a,
      a.admin.token,
      virtual,
      content.length,
      content.subarray(0, 15),
    );
    try {
      // The client retries on B: its HEAD takes the upload over from A's stalled request, which
      // stops after keeping what it received.
      await expect
        .poll(async () =>
          (await headUpload(b, b.admin.token, virtual)).headers.get('upload-offset'),
        )
        .toBe('15');
      const rest = await patchChunk(b, b.admin.token, virtual, 15, content.subarray(15));
      expect(rest.status).toBe(204);
      expect(await readFile(realOf(a.root, virtual))).toEqual(content);
    } finally {
      stalled.destroy();
    }
  });

  it('sweep an abandoned upload once, whichever instance sweeps', async () => {
    expect((await createUpload(a, a.admin.token, '/abandoned/file.bin', 100)).status).toBe(201);
    const folder = realOf(a.root, '/abandoned');
    expect(await stagingFiles(folder)).toHaveLength(1);
    const later = Date.now() + 48 * 3600 * 1000;
    const removed = await Promise.all([
      a.runtime.services.tus.sweep(later),
      b.runtime.services.tus.sweep(later),
    ]);
    expect(removed[0] + removed[1]).toBe(1);
    expect(await stagingFiles(folder)).toEqual([]);
  });

  it('run each scheduled job once, on one of them', async () => {
    const ran: string[] = [];
    for (const [name, server] of [
      ['a', a],
      ['b', b],
    ] as const) {
      server.runtime.coordination.scheduler.handle('test.once', async () => {
        ran.push(name);
      });
    }
    await a.runtime.coordination.scheduler.schedule('test.once', Date.now(), { n: 1 });
    await Promise.all([
      a.runtime.coordination.scheduler.runDue(),
      b.runtime.coordination.scheduler.runDue(),
    ]);
    await expect.poll(() => ran.length).toBe(1);
    await Promise.all([
      a.runtime.coordination.scheduler.runDue(),
      b.runtime.coordination.scheduler.runDue(),
    ]);
    expect(ran).toHaveLength(1);
    // The upload sweep is one recurring job for the pair, not one per instance.
    expect(await a.runtime.coordination.scheduler.list('uploads.sweep')).toHaveLength(1);
  });

  // Last: failed logins from this address are counted on both instances from here on.
  it('count failed logins on both against one limit', async () => {
    const user = await a.createUser({ password: 'throttled-password-long' });
    const wrong = { username: user.user.username, password: 'not-the-password' };
    for (const server of [a, b, a, b, a, b]) {
      expect((await login(server, wrong)).status).toBe(403);
    }
    expect((await login(a, wrong)).status).toBe(429);
    expect((await login(b, wrong)).status).toBe(429);
  });
});

describe('two instances starting together on a new database', () => {
  it('agree on one administrator and one signing key', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-pair-'));
    const shared = {
      root: path.join(base, 'files'),
      dataDir: path.join(base, 'data'),
      config: { sharedState: 'database' },
    };
    const [first, second] = await Promise.all([startTestServer(shared), startTestServer(shared)]);
    try {
      expect(await first.ctx.store.users.count()).toBe(1);
      const token = await signIn(first, 'admin', ADMIN_PASSWORD);
      expect(await listRoot(second, token)).toBe(200);
      const other = await signIn(second, 'admin', ADMIN_PASSWORD);
      expect(await listRoot(first, other)).toBe(200);
    } finally {
      await first.close({ removeFiles: false });
      await second.close();
      await rm(base, { recursive: true, force: true });
    }
  });
});

/** A PATCH that sends `part` of a `length`-byte body and then waits, until destroyed. */
function stalledPatch(
  server: TestServer,
  token: string,
  virtual: string,
  length: number,
  part: Buffer,
): http.ClientRequest {
  const request = http.request(new URL(`${server.url}/api/tus${encodePath(virtual)}`), {
    method: 'PATCH',
    headers: {
      ...TUS,
      'X-Auth': token,
      'Content-Type': OFFSET_CT,
      'Upload-Offset': '0',
      'Content-Length': String(length),
    },
  });
  request.on('error', () => undefined);
  request.flushHeaders();
  request.write(part);
  return request;
}
