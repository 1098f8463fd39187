// Two instances over one database serve one tree: what is changed through one reaches the other's
// listings, search and live folders at once (docs/deploy.md, "Changes between instances"). Under
// `npm test` this file runs twice. On SQLite the instances share a host and its root, whose folder
// watches see both instances' writes. On PostgreSQL each serves its own bindfs (FUSE) mount of one
// folder, as two hosts sharing a network file system do: a write through one raises no watch event
// on the other, so only the database (LISTEN/NOTIFY) can carry it.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Timers } from '../src/coordination/timers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { testEngine } from '../testing/test-database.ts';
import { until } from './helpers/eventually.ts';
import { openReady, type StreamEvent } from './helpers/event-stream.ts';
import { rawRequest } from './helpers/raw-http.ts';
import { searchedPaths } from './helpers/search.ts';

const run = promisify(execFile);
const onPostgres = testEngine() === 'postgres';

/** Timers that never fire: no periodic reconciliation can stand in for the instances' changes. */
const still: Timers = { after: () => () => undefined, sleep: () => Promise.resolve() };

let base: string;
let mounts: string[] = [];
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-hosts-'));
  const shared = path.join(base, 'shared');
  await mkdir(shared);
  let rootA = shared;
  let rootB = shared;
  if (onPostgres) {
    rootA = path.join(base, 'host-a');
    rootB = path.join(base, 'host-b');
    for (const mount of [rootA, rootB]) {
      await mkdir(mount);
      await run('bindfs', [shared, mount]);
      mounts.push(mount);
    }
  }
  const config = { sharedState: 'database' };
  a = await startTestServer({ root: rootA, config, timers: still });
  b = await startTestServer({ root: rootB, dataDir: a.dataDir, config, timers: still });
  await Promise.all([a.ctx.search.settled(), b.ctx.search.settled()]);
});

afterAll(async () => {
  await b?.close({ removeFiles: false });
  await a?.close();
  for (const mount of mounts) await run('fusermount', ['-u', mount]).catch(() => undefined);
  mounts = [];
  if (base) await rm(base, { recursive: true, force: true });
});

const token = () => a.admin.token;

async function names(server: TestServer, folder: string): Promise<string[]> {
  const res = await server.fetch(`/api/resources${folder}`, { token: token() });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name).sort();
}

async function upload(server: TestServer, file: string, body = 'x'): Promise<void> {
  const res = await server.fetch(`/api/resources${file}?override=true`, {
    method: 'POST',
    token: token(),
    body,
  });
  expect(res.status).toBe(200);
}

describe(`two instances on ${onPostgres ? 'two hosts (PostgreSQL)' : 'one host (SQLite)'}`, () => {
  it('list a file written through the other at once, after listing the folder before', async () => {
    const made = await a.fetch('/api/resources/work/', { method: 'POST', token: token() });
    expect(made.status).toBe(200);
    await upload(a, '/work/one.txt');
    // Listed twice on b, so a cache there would hold the folder.
    expect(await names(b, '/work/')).toEqual(['one.txt']);
    expect(await names(b, '/work/')).toEqual(['one.txt']);
    await upload(a, '/work/two.txt');
    expect(await names(b, '/work/')).toEqual(['one.txt', 'two.txt']);
    const res = await a.fetch('/api/resources/work/one.txt', { method: 'DELETE', token: token() });
    expect(res.status).toBe(204);
    expect(await names(b, '/work/')).toEqual(['two.txt']);
  });

  it('find a file uploaded through the other without a reconciliation', async () => {
    await upload(a, '/work/quokka-report.txt');
    await until(async () =>
      (await searchedPaths(b, 'quokka', token())).includes('work/quokka-report.txt'),
    );
  });

  it('tell the other instance’s live folders of a change', async () => {
    const stream = await openReady(b.url, { token: token() });
    await upload(a, '/work/live.txt');
    await stream.next(
      (event: StreamEvent) =>
        event.type === 'changed' && (event.data as { path: string }).path === '/work/live.txt',
    );
    stream.close();
  });

  it('list a shared folder on the other without a file deleted through one', async () => {
    await upload(a, '/work/shared-doc.txt');
    const created = await a.fetch('/api/share/work/', {
      method: 'POST',
      token: token(),
      body: JSON.stringify({}),
    });
    expect(created.status).toBe(200);
    const { hash } = (await created.json()) as { hash: string };
    const listed = async () =>
      (
        JSON.parse((await rawRequest(b.url, 'GET', `/api/public/share/${hash}`)).body) as {
          items: { name: string }[];
        }
      ).items.map((item) => item.name);
    expect(await listed()).toContain('shared-doc.txt');
    expect(await listed()).toContain('shared-doc.txt');
    const res = await a.fetch('/api/resources/work/shared-doc.txt', {
      method: 'DELETE',
      token: token(),
    });
    expect(res.status).toBe(204);
    expect(await listed()).not.toContain('shared-doc.txt');
  });

  it('say in the health details how the other instances’ changes arrive', async () => {
    const health = (await (await b.fetch('/api/health')).json()) as {
      details: { instanceChanges: string; watchesTrusted: boolean };
    };
    expect(health.details.instanceChanges).toBe(onPostgres ? 'database' : 'host');
    expect(health.details.watchesTrusted).toBe(!onPostgres);
  });
});
