// A root on a mount whose folder watches miss changes (docs/search.md, "Any file system"): two
// bindfs (FUSE) mounts of one folder stand for two hosts sharing a network file system. A write
// through mount B raises no inotify event on mount A, which the server serves.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Timers } from '../src/coordination/timers.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { until } from './helpers/eventually.ts';
import { captureLog } from './helpers/log-capture.ts';
import { searchedPaths } from './helpers/search.ts';

const run = promisify(execFile);
const FUSE = expect.stringMatching(/^fuse/) as unknown as string;

/** Timers the test fires itself: the reconciliation runs when the test says, never by waiting. */
function manualTimers() {
  const due = new Set<() => void>();
  const timers: Timers = {
    after(_ms, fn) {
      const call = () => {
        due.delete(call);
        fn();
      };
      due.add(call);
      return () => due.delete(call);
    },
    sleep: () => Promise.resolve(),
  };
  return {
    timers,
    /** Runs every call due now; returns how many ran. */
    fire(): number {
      const calls = [...due];
      for (const call of calls) call();
      return calls.length;
    },
  };
}

let base: string;
let mountA: string;
let mountB: string;
let server: TestServer;
const clock = manualTimers();
const captured = captureLog('info');

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-fuse-'));
  const shared = path.join(base, 'shared');
  mountA = path.join(base, 'a');
  mountB = path.join(base, 'b');
  await Promise.all([mkdir(shared), mkdir(mountA), mkdir(mountB)]);
  await mkdir(path.join(shared, 'docs'));
  await writeFile(path.join(shared, 'docs', 'first.txt'), 'first');
  await run('bindfs', [shared, mountA]);
  await run('bindfs', [shared, mountB]);
  server = await startTestServer({
    root: mountA,
    timers: clock.timers,
    log: captured.log,
    config: { untrustedReconcileInterval: 30 },
  });
  await server.ctx.search.settled();
});

afterAll(async () => {
  await server?.close();
  for (const mount of [mountA, mountB]) {
    if (mount) await run('fusermount', ['-u', mount]).catch(() => undefined);
  }
  if (base) await rm(base, { recursive: true, force: true });
});

async function names(folder: string): Promise<string[]> {
  const res = await server.fetch(`/api/resources${folder}`, { token: server.admin.token });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { items: { name: string }[] };
  return body.items.map((item) => item.name).sort();
}

describe('a root on a FUSE mount shared with another "host"', () => {
  it('is reported untrusted in the health details and the log', async () => {
    const res = await server.fetch('/api/health');
    expect(res.status).toBe(200);
    const health = (await res.json()) as {
      status: string;
      details: {
        mounts: { path: string; type: string; trusted: boolean }[];
        watchesTrusted: boolean;
        reconcileSeconds: number | null;
      };
    };
    expect(health.status).toBe('OK');
    // bindfs lists as `fuse` (or `fuse.bindfs` where it names its subtype).
    expect(health.details.mounts[0]).toEqual({ path: '/', type: FUSE, trusted: false });
    expect(health.details.watchesTrusted).toBe(false);
    expect(health.details.reconcileSeconds).toBe(30);
    const warnings = captured.lines.filter((line) => line.includes('miss changes made elsewhere'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ mount: '/', type: FUSE });
  });

  it('lists a file written through the other mount at once', async () => {
    expect(await names('/docs/')).toEqual(['first.txt']);
    // Listed twice: a cache trusted on this mount would hold the folder now.
    expect(await names('/docs/')).toEqual(['first.txt']);
    await writeFile(path.join(mountB, 'docs', 'second.txt'), 'second');
    expect(await names('/docs/')).toEqual(['first.txt', 'second.txt']);
    await rm(path.join(mountB, 'docs', 'first.txt'));
    expect(await names('/docs/')).toEqual(['second.txt']);
  });

  it('finds a file written through the other mount after the next reconciliation', async () => {
    await writeFile(path.join(mountB, 'docs', 'zebra-notes.txt'), 'z');
    // No watch of this mount reports it: until the reconciliation runs, search cannot know.
    expect(await searchedPaths(server, 'zebra-notes')).toEqual([]);
    expect(clock.fire()).toBeGreaterThan(0);
    await until(async () =>
      (await searchedPaths(server, 'zebra-notes')).includes('docs/zebra-notes.txt'),
    );
  });
});

describe('a local root with a FUSE mount below it', () => {
  let local: TestServer;
  let hostRoot: string;
  let remote: string;

  beforeAll(async () => {
    hostRoot = path.join(base, 'local-root');
    remote = path.join(hostRoot, 'remote');
    await mkdir(path.join(hostRoot, 'here'), { recursive: true });
    await mkdir(remote);
    // The same shared folder as above, mounted under a root on the machine's own disk.
    await run('bindfs', [path.join(base, 'shared'), remote]);
    local = await startTestServer({ root: hostRoot, timers: manualTimers().timers });
  });

  afterAll(async () => {
    await local?.close();
    if (remote) await run('fusermount', ['-u', remote]).catch(() => undefined);
  });

  it('trusts the root’s own disk and not the mount below it', async () => {
    const health = (await (await local.fetch('/api/health')).json()) as {
      details: { mounts: { path: string; type: string; trusted: boolean }[] };
    };
    expect(health.details.mounts).toEqual([
      { path: '/', type: expect.any(String) as string, trusted: true },
      { path: '/remote', type: FUSE, trusted: false },
    ]);
  });

  it('lists what another host wrote below the mount at once', async () => {
    const list = async (folder: string) => {
      const res = await local.fetch(`/api/resources${folder}`, { token: local.admin.token });
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: { name: string }[] }).items.map((i) => i.name);
    };
    await list('/remote/docs/');
    await list('/remote/docs/');
    await writeFile(path.join(mountB, 'docs', 'from-far.txt'), 'far');
    expect(await list('/remote/docs/')).toContain('from-far.txt');
  });
});
