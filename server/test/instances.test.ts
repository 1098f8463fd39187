// Instances know each other by id and lease, not by process id (docs/runtime.md). Every server
// here runs in this one process, so all share one pid and one host name: exactly the case of two
// containers in their own PID namespaces with a shared host name, and of a restarted container
// that is PID 1 again. Under `npm test` this file runs on SQLite and on PostgreSQL.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INSTANCE_LEASE_TTL_MS } from '../src/coordination/instance-lease.ts';
import type { Timers } from '../src/coordination/timers.ts';
import { ScopedFs } from '../src/fs/scoped-fs.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { until } from './helpers/eventually.ts';
import { runJobNow } from './helpers/run-job-now.ts';

/** Timers that fire only when told: a lease is renewed exactly when the test says so. */
function manualTimers(): Timers & { fire(): void } {
  let due: Array<() => void> = [];
  return {
    after(_ms, fn) {
      due.push(fn);
      return () => {
        due = due.filter((one) => one !== fn);
      };
    },
    sleep: () => Promise.resolve(),
    fire() {
      const now = due;
      due = [];
      for (const fn of now) fn();
    },
  };
}

let clock = Date.now();
const now = () => clock;
const started: TestServer[] = [];

afterEach(async () => {
  // The first server made the folders and its database: it goes last.
  const [first, ...others] = started.splice(0);
  for (const server of others.reverse()) await server.close({ removeFiles: false });
  await first?.close();
});

async function start(id: string, timers: Timers, shareWith?: TestServer, sharedState = 'database') {
  const server = await startTestServer({
    ...(shareWith && { root: shareWith.root, dataDir: shareWith.dataDir }),
    config: { sharedState },
    instance: { id, now, timers },
  });
  started.push(server);
  return server;
}

/** Begins an atomic write of `name` at the root and leaves it running; its temp file's path. */
async function writeInFlight(server: TestServer, name: string) {
  const fs = await ScopedFs.open(server.ctx.files, { scope: '/', rules: [], hideDotfiles: false });
  const { write } = await fs.createWriteAtomic(`/${name}`);
  await write.pour('the first half');
  expect(existsSync(write.tempPath)).toBe(true);
  return write;
}

describe('instances judge each other by lease', () => {
  it('keeps the live temp file of another instance with the same pid and host name', async () => {
    const first = await start('box:1:first', manualTimers());
    const write = await writeInFlight(first, 'big.bin');
    const second = await start('box:1:second', manualTimers(), first);
    expect(existsSync(write.tempPath)).toBe(true);
    // The first instance's write then completes as if no one had started next door.
    await write.pour(' and the rest');
    await write.commit();
    expect(existsSync(path.join(first.root, 'big.bin'))).toBe(true);
    expect(second.ctx.instance.id).toBe('box:1:second');
    expect(await second.ctx.instance.isGone('box:1:first')).toBe(false);
  });

  it("removes a gone instance's temp file at start, though its pid is ours, and keeps the living's", async () => {
    const crashedTimers = manualTimers();
    const crashed = await start('box:1:before-restart', crashedTimers);
    const lost = await writeInFlight(crashed, 'lost.bin');
    const neighbourTimers = manualTimers();
    const neighbour = await start('box:1:neighbour', neighbourTimers, crashed);
    const kept = await writeInFlight(neighbour, 'kept.bin');

    // The first instance stops renewing (it crashed); the neighbour renews; the lease runs out.
    clock += INSTANCE_LEASE_TTL_MS - 1;
    neighbourTimers.fire();
    const renewed = async () =>
      ((await neighbour.ctx.store.instances.get('box:1:neighbour'))?.expiresAt ?? 0) > clock;
    await until(renewed);
    clock += 2;
    expect(await neighbour.ctx.instance.isGone('box:1:before-restart')).toBe(true);

    // The restarted container: the same host name and pid as its predecessor, a new id.
    await start('box:1:after-restart', manualTimers(), crashed);
    expect(existsSync(lost.tempPath)).toBe(false);
    expect(existsSync(kept.tempPath)).toBe(true);
    expect((await readdir(path.join(crashed.dataDir, 'temp-journal'))).sort()).toEqual([
      '@box%3A1%3Aafter-restart',
      '@box%3A1%3Aneighbour',
    ]);
  });

  it("sweeps a crashed instance's temp file once its lease ran out, with no start needed", async () => {
    const crashed = await start('box:1:crashed', manualTimers());
    const lost = await writeInFlight(crashed, 'lost.bin');
    const survivorTimers = manualTimers();
    const survivor = await start('box:1:survivor', survivorTimers, crashed);
    const sweep = () => runJobNow(survivor.runtime.coordination.scheduler, 'files.temp.sweep');
    await sweep();
    expect(existsSync(lost.tempPath)).toBe(true);
    clock += INSTANCE_LEASE_TTL_MS - 1;
    survivorTimers.fire();
    await until(
      async () =>
        ((await survivor.ctx.store.instances.get('box:1:survivor'))?.expiresAt ?? 0) > clock,
    );
    clock += 2;
    await sweep();
    expect(existsSync(lost.tempPath)).toBe(false);
    // The crashed instance's emptied journal folder went with it.
    expect(await readdir(path.join(crashed.dataDir, 'temp-journal'))).toEqual([
      '@box%3A1%3Asurvivor',
    ]);
  });

  it('removes at once the temp file of a predecessor whose process is gone from our PID namespace', async () => {
    const killed = await start('box:1:killed', manualTimers());
    const lost = await writeInFlight(killed, 'lost.bin');
    // Its lease still runs, but its row names a pid of this namespace that no longer runs (a
    // service restarted by systemd, a server killed with SIGKILL).
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    await killed.ctx.store.db
      .updateTable('instances')
      .set({ pid: gone.pid! })
      .where('id', '=', 'box:1:killed')
      .execute();
    await start('box:1:next', manualTimers(), killed);
    expect(existsSync(lost.tempPath)).toBe(false);
  });

  it('in process mode too: a second process keeps the live temp file, a restart after the lease removes it', async () => {
    const before = await start('box:1:old', manualTimers(), undefined, 'process');
    const lost = await writeInFlight(before, 'lost.bin');
    // An admin command, or a second server started on the same folder by mistake.
    await start('box:1:beside', manualTimers(), before, 'process');
    expect(existsSync(lost.tempPath)).toBe(true);
    clock += INSTANCE_LEASE_TTL_MS + 1;
    await start('box:1:restarted', manualTimers(), before, 'process');
    expect(existsSync(lost.tempPath)).toBe(false);
  });
});
