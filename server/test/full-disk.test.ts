/**
 * Full disks (docs/security.md, "Full disks"): the root or the data folder on a small tmpfs that the
 * test mounts (CI runs as root). A write that runs out of space answers 507 with the reason in
 * words, leaves the original intact, frees what it had written, and the server keeps serving.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTempName } from '../src/fs/temp-files.ts';
import {
  ADMIN_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/test-server.ts';

const MiB = 1024 * 1024;
const FULL_REASON = /disk.*full/i;

let base: string;
const mounts: string[] = [];

async function mountTmpfs(dir: string, bytes: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir]);
  mounts.push(dir);
}

async function freeBytes(dir: string): Promise<number> {
  const stats = await statfs(dir);
  return stats.bavail * stats.bsize;
}

/** Fills a folder's file system until `leave` bytes remain. */
async function fill(dir: string, leave: number, name = 'filler.bin'): Promise<string> {
  const filler = path.join(dir, name);
  await writeFile(filler, Buffer.alloc(Math.max(0, (await freeBytes(dir)) - leave)));
  return filler;
}

/** Every name under a folder (temp files included), to prove none is left behind. */
async function allNames(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-full-disk-'));
});
afterAll(async () => {
  for (const dir of mounts.reverse()) execFileSync('umount', ['-l', dir]);
  await rm(base, { recursive: true, force: true });
});

describe('a full root', () => {
  let server: TestServer;
  let alice: TestUser;
  let home: string;

  beforeAll(async () => {
    const root = path.join(base, 'root');
    await mountTmpfs(root, 8 * MiB);
    server = await startTestServer({ root, dataDir: path.join(base, 'data-1') });
    alice = await server.createUser({
      scope: '/alice',
      perm: { create: true, modify: true, rename: true, delete: true, download: true },
    });
    home = path.join(root, 'alice');
    await mkdir(home, { recursive: true });
    await writeFile(path.join(home, 'keep.txt'), 'the original');
    await writeFile(path.join(home, 'mid.bin'), Buffer.alloc(700 * 1024, 7));
    await fill(root, 512 * 1024);
  });
  afterAll(() => server.close({ removeFiles: false }));

  /** Runs a request that must fail for want of space, and checks what it left. */
  async function refusedForSpace(request: () => Promise<Response>): Promise<void> {
    const free = await freeBytes(home);
    const userNames = async () =>
      (await allNames(home)).filter((name) => !isTempName(path.basename(name)));
    const names = await userNames();
    const response = await request();
    const body = await response.text();
    expect(response.status, body).toBe(507);
    expect(body).toMatch(FULL_REASON);
    expect(await userNames()).toEqual(names);
    expect(await allNames(home)).toEqual(names);
    expect(await freeBytes(home)).toBeGreaterThanOrEqual(free);
    expect(await readFile(path.join(home, 'keep.txt'), 'utf8')).toBe('the original');
  }

  it('refuses a POST upload with 507 in words and frees its partial file', async () => {
    await refusedForSpace(() =>
      server.fetch('/api/resources/big.bin?override=false', {
        method: 'POST',
        token: alice.token,
        body: Buffer.alloc(2 * MiB, 1),
      }),
    );
  });

  it('refuses an editor save with 507 and keeps the original content', async () => {
    await refusedForSpace(() =>
      server.fetch('/api/resources/keep.txt', {
        method: 'PUT',
        token: alice.token,
        body: 'x'.repeat(2 * MiB),
      }),
    );
  });

  it('refuses a copy with 507 and leaves no partial copy', async () => {
    await refusedForSpace(() =>
      server.fetch(
        `/api/resources/mid.bin?action=copy&destination=${encodeURIComponent('/mid-copy.bin')}`,
        {
          method: 'PATCH',
          token: alice.token,
        },
      ),
    );
  });

  it('refuses a TUS upload up front with 413 when it cannot fit', async () => {
    const created = await server.fetch('/api/tus/t.bin', {
      method: 'POST',
      token: alice.token,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': String(2 * MiB) },
    });
    expect(created.status).toBe(413);
    expect(await allNames(home)).not.toContain('t.bin');
  });

  it('refuses a TUS chunk with 507 when the disk filled meanwhile, and frees its staging file', async () => {
    const headers = { 'tus-resumable': '1.0.0' };
    const created = await server.fetch('/api/tus/t.bin', {
      method: 'POST',
      token: alice.token,
      headers: { ...headers, 'upload-length': String(400 * 1024) },
    });
    expect(created.status).toBe(201);
    // Another program takes most of what was left after the upload was accepted.
    const other = await fill(path.dirname(home), 64 * 1024, 'other.bin');
    await refusedForSpace(() =>
      server.fetch('/api/tus/t.bin', {
        method: 'PATCH',
        token: alice.token,
        headers: {
          ...headers,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        body: Buffer.alloc(400 * 1024, 2),
      }),
    );
    const head = await server.fetch('/api/tus/t.bin', {
      method: 'HEAD',
      token: alice.token,
      headers,
    });
    expect(head.status).toBe(404);
    await rm(other);
  });

  it('keeps serving: listings, reads and small writes work on what space is left', async () => {
    const listing = await server.fetch('/api/resources/', { token: alice.token });
    expect(listing.status).toBe(200);
    const names = ((await listing.json()) as { items: { name: string }[] }).items.map(
      (i) => i.name,
    );
    expect(names.sort()).toEqual(['keep.txt', 'mid.bin']);
    const raw = await server.fetch('/api/raw/keep.txt', { token: alice.token });
    expect(await raw.text()).toBe('the original');
    const small = await server.fetch('/api/resources/small.txt?override=false', {
      method: 'POST',
      token: alice.token,
      body: 'fits',
    });
    expect(small.status).toBe(200);
  });
});

describe('a full data folder', () => {
  let server: TestServer;
  let dataDir: string;
  let filler: string;

  beforeAll(async () => {
    dataDir = path.join(base, 'data-2');
    await mountTmpfs(dataDir, 32 * MiB);
    // The database is the SQLite file in the data folder on both suites' runs: a PostgreSQL
    // database lives elsewhere, so only SQLite can fill up with the data folder.
    server = await startTestServer({
      root: path.join(base, 'root-2'),
      dataDir,
      config: { database: path.join(dataDir, 'cabinet.db') },
    });
    await mkdir(path.join(server.root, 'docs'), { recursive: true });
    await writeFile(path.join(server.root, 'docs', 'a.txt'), 'alpha');
    await writeFile(path.join(server.root, 'docs', 'b.txt'), 'bravo');
    filler = await fill(dataDir, 0);
  });
  afterAll(() => server.close({ removeFiles: false }));

  const admin = (pathAndQuery: string, init: RequestInit = {}) =>
    server.fetch(pathAndQuery, { token: server.admin.token, ...init });

  it('still takes uploads into the root, which has room', async () => {
    const upload = await admin('/api/resources/docs/c.txt?override=false', {
      method: 'POST',
      body: 'charlie',
    });
    expect(upload.status, await upload.text()).toBe(200);
    expect(await readFile(path.join(server.root, 'docs', 'c.txt'), 'utf8')).toBe('charlie');
  });

  it('refuses a delete it cannot move into the trash with 507, and keeps the file', async () => {
    const response = await admin('/api/resources/docs/b.txt', { method: 'DELETE' });
    const body = await response.text();
    expect(response.status, body).toBe(507);
    expect(body).toMatch(FULL_REASON);
    expect(await readFile(path.join(server.root, 'docs', 'b.txt'), 'utf8')).toBe('bravo');
  });

  it('answers a write to the database with 507 in words, and recovers once space is back', async () => {
    const share = () =>
      admin('/api/share/docs/a.txt', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ password: 'p'.repeat(200) }),
      });
    let refused = await share();
    // SQLite may still fit rows in free pages of its file: keep writing until it must grow.
    for (let i = 0; i < 500 && refused.status === 200; i++) refused = await share();
    const body = await refused.text();
    expect(refused.status, body).toBe(507);
    expect(body).toMatch(FULL_REASON);
    // Reads still work.
    expect((await admin('/api/resources/docs/')).status).toBe(200);
    await rm(filler);
    expect((await share()).status).toBe(200);
    const login = await server.fetch('/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const db = new Database(path.join(dataDir, 'cabinet.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      db.close();
    }
  });
});
