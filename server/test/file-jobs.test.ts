// Background file jobs (docs/jobs.md): progress events in order and only to the owner, cancel
// mid-way without a partial target, the conflict question, refusals, quotas, move and delete
// jobs, the wire PATCH kept, and a server killed mid-copy that resumes after its restart.
import { readdir, readFile, stat } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileJob, NewFileJob } from '@cabinet/protocol';
import { FileJobHold } from '../testing/file-job-hold.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { testDatabaseFor } from '../testing/test-database.ts';
import { freePort, loginAdmin, SpawnedServers } from '../testing/spawned-server.ts';
import { openReady, type StreamEvent } from './helpers/event-stream.ts';
import { filesUnder } from './helpers/resources.ts';
import { runJobNow } from './helpers/run-job-now.ts';

let server: TestServer;
let ann: TestUser;
let bob: TestUser;
const hold = new FileJobHold();
const files = filesUnder(() => server.root);
const isJob = (id: string) => (event: StreamEvent) =>
  event.type === 'job' && (event.data as FileJob).id === id;
const isEnded = (id: string) => (event: StreamEvent) =>
  isJob(id)(event) &&
  ['done', 'failed', 'cancelled', 'waiting'].includes((event.data as FileJob).state);

beforeAll(async () => {
  server = await startTestServer({ afterJobFile: hold.afterFile });
  ann = await server.createUser({ scope: '/ann' });
  bob = await server.createUser({ scope: '/bob' });
  await files.put('bob/.keep', '');
});
afterAll(() => server.close());

function post(user: TestUser, route: string, body?: unknown): Promise<Response> {
  return server.fetch(route, {
    method: 'POST',
    token: user.token,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

async function startJob(user: TestUser, body: NewFileJob): Promise<string> {
  const response = await post(user, '/api/jobs', body);
  expect(response.status).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

async function jobOf(user: TestUser, id: string): Promise<FileJob> {
  const response = await server.fetch(`/api/jobs/${id}`, { token: user.token });
  expect(response.status).toBe(200);
  return (await response.json()) as FileJob;
}

/** Writes `count` files of `size` bytes (each filled with its own byte) under `folder`. */
async function tree(folder: string, count: number, size: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    await files.put(
      `${folder}/sub${n % 3}/f${String(n).padStart(3, '0')}.bin`,
      Buffer.alloc(size, n % 251),
    );
  }
}

/** Every regular file under a real folder, relative, with its size; temp names too. */
async function listTree(real: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else found.set(`${prefix}${entry.name}`, (await stat(full)).size);
    }
  };
  await walk(real, '');
  return found;
}

describe('a copy job', () => {
  it('copies a tree with progress events in order, to its owner only', async () => {
    await tree('ann/photos', 30, 4096);
    const mine = await openReady(server.url, { token: ann.token });
    const other = await openReady(server.url, { token: bob.token });
    const id = await startJob(ann, { kind: 'copy', items: [{ from: '/photos', to: '/copy' }] });
    const last = await mine.next(
      (event) => isJob(id)(event) && (event.data as FileJob).state === 'done',
    );
    const updates = mine.events.filter(isJob(id)).map((event) => event.data as FileJob);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    for (let n = 1; n < updates.length; n++) {
      expect(updates[n]!.filesDone).toBeGreaterThanOrEqual(updates[n - 1]!.filesDone);
      expect(updates[n]!.bytesDone).toBeGreaterThanOrEqual(updates[n - 1]!.bytesDone);
    }
    expect(last.data).toMatchObject({
      kind: 'copy',
      state: 'done',
      filesTotal: 30,
      filesDone: 30,
      bytesTotal: 30 * 4096,
      bytesDone: 30 * 4096,
      error: null,
      first: { from: '/photos', to: '/copy' },
    });
    const copied = await listTree(path.join(server.root, 'ann/copy'));
    expect(copied).toEqual(await listTree(path.join(server.root, 'ann/photos')));
    expect(await readFile(path.join(server.root, 'ann/copy/sub1/f001.bin'))).toEqual(
      Buffer.alloc(4096, 1),
    );
    expect(await jobOf(ann, id)).toMatchObject({ state: 'done', filesDone: 30 });
    const listed = (await (
      await server.fetch('/api/jobs', { token: ann.token })
    ).json()) as FileJob[];
    expect(listed.map((job) => job.id)).toContain(id);
    // Bob never hears of Ann's job, nor may he read it.
    const bobs = (await (
      await server.fetch('/api/jobs', { token: bob.token })
    ).json()) as FileJob[];
    expect(bobs.map((job) => job.id)).not.toContain(id);
    expect((await server.fetch(`/api/jobs/${id}`, { token: bob.token })).status).toBe(404);
    expect((await post(bob, `/api/jobs/${id}/cancel`)).status).toBe(404);
    await other.next((event) => event.type === 'ready');
    expect(other.events.filter((event) => event.type === 'job')).toHaveLength(0);
    mine.close();
    other.close();
  });

  it('stops at a cancel mid-way, leaving whole files only, and finishes on retry', async () => {
    const FILES = 40;
    await tree('ann/big', FILES, 64 * 1024);
    // From the fourth landed file on, every copy in flight is held after it lands.
    let reached!: () => void;
    const held = new Promise<void>((resolve) => (reached = resolve));
    const holding: Array<() => void> = [];
    let releasing = false;
    const release = () => {
      releasing = true;
      for (const resume of holding.splice(0)) resume();
    };
    let count = 0;
    hold.each = async () => {
      count += 1;
      if (count < 4 || releasing) return;
      if (count === 4) reached();
      await new Promise<void>((resolve) => holding.push(resolve));
    };
    try {
      const stream = await openReady(server.url, { token: ann.token });
      const id = await startJob(ann, { kind: 'copy', items: [{ from: '/big', to: '/big-copy' }] });
      await held;
      const cancelled = await post(ann, `/api/jobs/${id}/cancel`);
      expect(cancelled.status).toBe(200);
      release();
      const end = await stream.next(isEnded(id));
      const stopped = end.data as FileJob;
      expect(stopped.state).toBe('cancelled');
      const landed = await listTree(path.join(server.root, 'ann/big-copy'));
      // Stopped mid-way: the held files and those in flight landed, no file started after.
      expect(landed.size).toBeGreaterThanOrEqual(4);
      expect(landed.size).toBeLessThan(FILES);
      for (const [name, size] of landed) {
        expect(name).toMatch(/^sub\d\/f\d{3}\.bin$/);
        expect(size).toBe(64 * 1024);
      }
      // Counted by the unbroken run of landed files: never more than landed.
      expect(stopped.filesDone).toBeLessThanOrEqual(landed.size);
      expect(stopped.bytesDone).toBe(stopped.filesDone * 64 * 1024);
      // A second cancel finds it ended.
      expect((await post(ann, `/api/jobs/${id}/cancel`)).status).toBe(409);

      hold.each = undefined;
      expect((await post(ann, `/api/jobs/${id}/retry`)).status).toBe(200);
      const done = await stream.next(
        (event) => isJob(id)(event) && (event.data as FileJob).state === 'done',
      );
      expect(done.data).toMatchObject({ filesDone: FILES, bytesDone: FILES * 64 * 1024 });
      expect(await listTree(path.join(server.root, 'ann/big-copy'))).toEqual(
        await listTree(path.join(server.root, 'ann/big')),
      );
      expect(await readFile(path.join(server.root, 'ann/big-copy/sub2/f005.bin'))).toEqual(
        Buffer.alloc(64 * 1024, 5),
      );
      stream.close();
    } finally {
      hold.each = undefined;
      release();
    }
  });
});

describe('conflicts', () => {
  it('asks once, and "apply to all" answers the later clashes', async () => {
    await files.put('ann/c/a.txt', 'new a');
    await files.put('ann/c/b.txt', 'new b');
    await files.put('ann/c/c.txt', 'new c');
    await files.put('ann/d/a.txt', 'old a');
    await files.put('ann/d/b.txt', 'old b');
    const stream = await openReady(server.url, { token: ann.token });
    const id = await startJob(ann, {
      kind: 'copy',
      items: ['a', 'b', 'c'].map((n) => ({ from: `/c/${n}.txt`, to: `/d/${n}.txt` })),
    });
    const waiting = await stream.next(isEnded(id));
    expect(waiting.data).toMatchObject({ state: 'waiting', question: { path: '/d/a.txt' } });
    expect((await post(ann, `/api/jobs/${id}/answer`, { choice: 'nonsense' })).status).toBe(400);
    const answered = await post(ann, `/api/jobs/${id}/answer`, {
      choice: 'keep-both',
      applyToAll: true,
    });
    expect(answered.status).toBe(200);
    const done = await stream.next(
      (event) => isJob(id)(event) && (event.data as FileJob).state === 'done',
    );
    expect(done.data).toMatchObject({ onConflict: 'keep-both', filesDone: 3 });
    expect(files.read('ann/d/a.txt')).toBe('old a');
    expect(files.read('ann/d/a(1).txt')).toBe('new a');
    expect(files.read('ann/d/b(1).txt')).toBe('new b');
    expect(files.read('ann/d/c.txt')).toBe('new c');
    // Only one question was asked.
    const questions = stream.events
      .filter(isJob(id))
      .filter((event) => (event.data as FileJob).state === 'waiting');
    expect(questions).toHaveLength(1);
    expect((await post(ann, `/api/jobs/${id}/answer`, { choice: 'skip' })).status).toBe(409);
    stream.close();
  });

  it('replaces or skips as asked up front', async () => {
    await files.put('ann/r/x.txt', 'new x');
    await files.put('ann/r2/x.txt', 'old x');
    await files.put('ann/r3/x.txt', 'old x');
    const stream = await openReady(server.url, { token: ann.token });
    const skip = await startJob(ann, {
      kind: 'copy',
      items: [{ from: '/r/x.txt', to: '/r2/x.txt' }],
      onConflict: 'skip',
    });
    await stream.next(isEnded(skip));
    expect(files.read('ann/r2/x.txt')).toBe('old x');
    const replace = await startJob(ann, {
      kind: 'copy',
      items: [{ from: '/r/x.txt', to: '/r3/x.txt' }],
      onConflict: 'replace',
    });
    expect((await stream.next(isEnded(replace))).data).toMatchObject({ state: 'done' });
    expect(files.read('ann/r3/x.txt')).toBe('new x');
    stream.close();
  });

  it("counts what it skipped and replaced, and takes an item's own answer first", async () => {
    for (const n of ['p', 'q', 'r', 's']) await files.put(`ann/k/${n}.txt`, `new ${n}`);
    for (const n of ['p', 'q', 'r']) await files.put(`ann/k2/${n}.txt`, `old ${n}`);
    const stream = await openReady(server.url, { token: ann.token });
    // p is replaced by its own answer; the job's "skip" leaves q and r; s had no clash.
    const id = await startJob(ann, {
      kind: 'copy',
      items: [
        { from: '/k/p.txt', to: '/k2/p.txt', onConflict: 'replace' },
        ...['q', 'r', 's'].map((n) => ({ from: `/k/${n}.txt`, to: `/k2/${n}.txt` })),
      ],
      onConflict: 'skip',
    });
    const done = await stream.next(isEnded(id));
    expect(done.data).toMatchObject({ state: 'done', skipped: 2, replaced: 1, filesDone: 2 });
    expect(files.read('ann/k2/p.txt')).toBe('new p');
    expect(files.read('ann/k2/q.txt')).toBe('old q');
    expect(files.read('ann/k2/s.txt')).toBe('new s');
    // A reloaded page reads the same counts from the database.
    expect(await jobOf(ann, id)).toMatchObject({ skipped: 2, replaced: 1, filesTotal: 2 });
    stream.close();
  });
});

describe('refusals', () => {
  it('refuses ".." paths, paths outside the scope, bad bodies and foreign ids', async () => {
    await files.put('bob/secret.txt', 'bob only');
    const climb = await post(ann, '/api/jobs', {
      kind: 'copy',
      items: [{ from: '/../bob/secret.txt', to: '/stolen.txt' }],
    });
    expect(climb.status).toBe(400);
    const climbTo = await post(ann, '/api/jobs', {
      kind: 'copy',
      items: [{ from: '/photos', to: '/x/../../bob/in' }],
    });
    expect(climbTo.status).toBe(400);
    // Without "..", Bob's folder is simply not in Ann's scope.
    expect(
      (await post(ann, '/api/jobs', { kind: 'delete', items: [{ from: '/bob/secret.txt' }] }))
        .status,
    ).toBe(404);
    expect((await post(ann, '/api/jobs', { kind: 'rename', items: [] })).status).toBe(400);
    expect((await post(ann, '/api/jobs', { kind: 'copy', items: [] })).status).toBe(400);
    expect(
      (await post(ann, '/api/jobs', { kind: 'copy', items: [{ from: '/photos' }] })).status,
    ).toBe(400);
    expect((await post(ann, '/api/jobs', { kind: 'delete', items: [{ from: '/' }] })).status).toBe(
      403,
    );
    expect((await server.fetch('/api/jobs')).status).toBe(401);
    expect((await server.fetch('/api/jobs/unknown-id', { token: ann.token })).status).toBe(404);
    expect(files.read('bob/secret.txt')).toBe('bob only');
    expect(files.exists('ann/stolen.txt')).toBe(false);
  });

  it('refuses a rule-blocked source and a user without the permission', async () => {
    const ruled = await server.createUser({
      scope: '/ruled',
      rules: [{ regex: false, allow: false, path: '/blocked', regexp: null }],
    });
    await files.put('ruled/blocked/inner.txt', 'hidden');
    await files.put('ruled/open/a.txt', 'a');
    expect(
      (await post(ruled, '/api/jobs', { kind: 'copy', items: [{ from: '/blocked', to: '/out' }] }))
        .status,
    ).toBe(403);
    expect(
      (
        await post(ruled, '/api/jobs', {
          kind: 'copy',
          items: [{ from: '/open', to: '/blocked/in' }],
        })
      ).status,
    ).toBe(403);
    expect(files.exists('ruled/out')).toBe(false);

    const noCreate = await server.createUser({ scope: '/ruled', perm: { create: false } });
    const noRename = await server.createUser({ scope: '/ruled', perm: { rename: false } });
    const noDelete = await server.createUser({ scope: '/ruled', perm: { delete: false } });
    const copy = { kind: 'copy', items: [{ from: '/open', to: '/open2' }] } as const;
    expect((await post(noCreate, '/api/jobs', copy)).status).toBe(403);
    expect((await post(noRename, '/api/jobs', { ...copy, kind: 'move' })).status).toBe(403);
    expect(
      (await post(noDelete, '/api/jobs', { kind: 'delete', items: [{ from: '/open' }] })).status,
    ).toBe(403);
    expect(files.exists('ruled/open2')).toBe(false);
    expect(files.exists('ruled/open/a.txt')).toBe(true);
  });

  it('fails a copy over the quota with 507 in words, copying nothing', async () => {
    await files.put('tight/data.bin', Buffer.alloc(3000, 7));
    const tight = await server.createUser({ scope: '/tight', quota: 4096 });
    const stream = await openReady(server.url, { token: tight.token });
    const id = await startJob(tight, {
      kind: 'copy',
      items: [{ from: '/data.bin', to: '/data2.bin' }],
    });
    const end = await stream.next(isEnded(id));
    expect(end.data).toMatchObject({ state: 'failed', error: { status: 507 } });
    expect((end.data as FileJob).error!.message).toMatch(/quota/);
    expect(files.exists('tight/data2.bin')).toBe(false);
    stream.close();
  });
});

describe('move and delete jobs', () => {
  it('moves items and deletes into the trash', async () => {
    await files.put('ann/m/one.txt', '1');
    await files.put('ann/m/two/deep.txt', '22');
    const stream = await openReady(server.url, { token: ann.token });
    const move = await startJob(ann, {
      kind: 'move',
      items: [
        { from: '/m/one.txt', to: '/moved/one.txt' },
        { from: '/m/two', to: '/moved/two' },
      ],
    });
    expect((await stream.next(isEnded(move))).data).toMatchObject({
      state: 'done',
      filesDone: 2,
      bytesDone: 3,
    });
    expect(files.read('ann/moved/two/deep.txt')).toBe('22');
    expect(files.exists('ann/m/one.txt')).toBe(false);

    const del = await startJob(ann, { kind: 'delete', items: [{ from: '/moved' }] });
    expect((await stream.next(isEnded(del))).data).toMatchObject({ state: 'done' });
    expect(files.exists('ann/moved')).toBe(false);
    const trash = (await (await server.fetch('/api/trash', { token: ann.token })).json()) as Array<{
      path: string;
    }>;
    expect(trash.map((item) => item.path)).toContain('/moved');
    stream.close();
  });

  it('keeps the wire PATCH copy and rename answering when done', async () => {
    await files.put('ann/wire/a.txt', 'wire');
    const copy = await server.fetch(
      `/api/resources/wire?action=copy&destination=${encodeURIComponent(encodeURIComponent('/wire2'))}`,
      { method: 'PATCH', token: ann.token },
    );
    expect(copy.status).toBe(200);
    expect(files.read('ann/wire2/a.txt')).toBe('wire');
    const rename = await server.fetch(
      `/api/resources/wire2?action=rename&destination=${encodeURIComponent(encodeURIComponent('/wire3'))}`,
      { method: 'PATCH', token: ann.token },
    );
    expect(rename.status).toBe(200);
    expect(files.read('ann/wire3/a.txt')).toBe('wire');
  });
});

describe('pruning', () => {
  it('forgets jobs a week after they ended, never one still waiting', async () => {
    let clock = Date.now();
    const DAY = 24 * 60 * 60 * 1000;
    const own = await startTestServer({ now: () => clock });
    try {
      const carl = await own.createUser({ scope: '/carl' });
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(path.join(own.root, 'carl/p'), { recursive: true });
      await writeFile(path.join(own.root, 'carl/p/a.txt'), 'a');
      await writeFile(path.join(own.root, 'carl/taken.txt'), 'taken');
      const stream = await openReady(own.url, { token: carl.token });
      const start = async (body: NewFileJob) => {
        const response = await own.fetch('/api/jobs', {
          method: 'POST',
          token: carl.token,
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(202);
        const { id } = (await response.json()) as { id: string };
        await stream.next(isEnded(id));
        return id;
      };
      const done = await start({ kind: 'copy', items: [{ from: '/p', to: '/q' }] });
      const waiting = await start({
        kind: 'copy',
        items: [{ from: '/p/a.txt', to: '/taken.txt' }],
      });
      stream.close();
      const statusOf = async (id: string) =>
        (await own.fetch(`/api/jobs/${id}`, { token: carl.token })).status;
      const prune = () => runJobNow(own.runtime.coordination.scheduler, 'files.jobs.prune');
      clock += 6 * DAY;
      await prune();
      expect(await statusOf(done)).toBe(200);
      clock += 2 * DAY;
      await prune();
      expect(await statusOf(done)).toBe(404);
      expect(await statusOf(waiting)).toBe(200);
      // The copy itself stays: only the record goes.
      expect(await readFile(path.join(own.root, 'carl/q/a.txt'), 'utf8')).toBe('a');
    } finally {
      await own.close();
    }
  });
});

describe('a server killed during a copy job', () => {
  it('resumes the job after a restart, never leaving a partial file under its name', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-jobs-kill-'));
    const root = path.join(base, 'files');
    const dataDir = path.join(base, 'data');
    const database = await testDatabaseFor(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const servers = new SpawnedServers();
    // Enough files that the copy is still going when its first file lands, whatever the disk.
    const FILES = 400;
    const SIZE = 256 * 1024;
    const start = () =>
      servers.start({
        root,
        dataDir,
        database: database.database,
        port,
        env: { CABINET_FROM_SOURCES: '1' },
      });
    try {
      const { mkdir, writeFile } = await import('node:fs/promises');
      await mkdir(path.join(root, 'src'), { recursive: true });
      for (let n = 0; n < FILES; n++) {
        await writeFile(
          path.join(root, 'src', `part${String(n).padStart(3, '0')}.bin`),
          Buffer.alloc(SIZE, n + 1),
        );
      }
      const first = await start();
      const token = await loginAdmin(url);
      const created = await fetch(`${url}/api/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-Auth': token },
        body: JSON.stringify({ kind: 'copy', items: [{ from: '/src', to: '/dst' }] }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      // Killed as soon as a first file stands under its final name: mid-copy, by a condition on
      // disk rather than on an event, which a polled event bus delivers later than a fast disk copies.
      const finalName = /^part\d{3}\.bin$/;
      const dst = path.join(root, 'dst');
      const { readdir } = await import('node:fs/promises');
      while (!(await readdir(dst).catch(() => [] as string[])).some((name) => finalName.test(name)))
        await new Promise((resolve) => setImmediate(resolve));
      await servers.kill(first);

      // Whatever is under its final name is whole.
      const landed = await listTree(path.join(root, 'dst'));
      const finals = [...landed.entries()].filter(([name]) => finalName.test(name));
      expect(finals.length).toBeGreaterThanOrEqual(1);
      expect(finals.length).toBeLessThan(FILES);
      for (const [, size] of finals) expect(size).toBe(SIZE);

      await start();
      const token2 = await loginAdmin(url);
      const resumed = await openReady(url, { token: token2 });
      let job = (await (
        await fetch(`${url}/api/jobs/${id}`, { headers: { 'X-Auth': token2 } })
      ).json()) as FileJob;
      if (job.state !== 'done') {
        const end = await resumed.next(isEnded(id));
        job = end.data as FileJob;
      }
      expect(job).toMatchObject({ state: 'done', filesDone: FILES, bytesDone: FILES * SIZE });
      resumed.close();
      const copied = await listTree(path.join(root, 'dst'));
      expect(copied).toEqual(await listTree(path.join(root, 'src')));
      expect(await readFile(path.join(root, 'dst/part007.bin'))).toEqual(Buffer.alloc(SIZE, 8));
    } finally {
      await servers.killAll();
      await database.drop();
      await rm(base, { recursive: true, force: true });
    }
  }, 240_000);
});
