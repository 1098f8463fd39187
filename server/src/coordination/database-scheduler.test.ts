import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oneDatabasePerTest } from './one-database.fixture.ts';
import { JobsRepo } from '../store/jobs.repo.ts';
import { DatabaseScheduler, type DatabaseSchedulerOptions } from './database-scheduler.ts';
import type { Job } from './scheduler.ts';
import { realTimers, type Timers } from './timers.ts';

const { connect, connections, disconnect } = oneDatabasePerTest();
let clock: number;
const schedulers: DatabaseScheduler[] = [];

beforeEach(async () => {
  clock = 1_000_000;
});
afterEach(async () => {
  await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));
});

/** An instance's scheduler over its own connection, on the test's clock. */
async function scheduler(
  instanceId: string,
  options: Partial<DatabaseSchedulerOptions> = {},
): Promise<DatabaseScheduler> {
  const created = new DatabaseScheduler({
    jobs: new JobsRepo(await connect()),
    instanceId,
    now: () => clock,
    ...options,
  });
  schedulers.push(created);
  return created;
}

/** A promise with its resolve function outside, to hold a handler until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Timers the test fires by hand, to see when the poll loop asks to wake. */
class ManualTimers implements Timers {
  private readonly timers: { ms: number; fn: () => void; cancelled: boolean }[] = [];

  after(ms: number, fn: () => void): () => void {
    const timer = { ms, fn, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  sleep(ms: number): Promise<void> {
    return realTimers.sleep(ms);
  }

  /** The delays of the timers waiting to fire. */
  waiting(): number[] {
    return this.timers.filter((timer) => !timer.cancelled).map((timer) => timer.ms);
  }

  /** Fires the timer waiting with delay `ms`. */
  fire(ms: number): void {
    const timer = this.timers.find((candidate) => !candidate.cancelled && candidate.ms === ms);
    if (!timer) throw new Error(`no timer waits ${ms} ms`);
    timer.cancelled = true;
    timer.fn();
  }
}

/** Jobs whose due list goes stale before it is acted on: the test runs something in between. */
class StaleJobsRepo extends JobsRepo {
  beforeClaiming: (() => Promise<void>) | undefined;

  override async due(now: number, kinds: readonly string[], limit: number): Promise<string[]> {
    const ids = await super.due(now, kinds, limit);
    const between = this.beforeClaiming;
    this.beforeClaiming = undefined;
    await between?.();
    return ids;
  }
}

describe('scheduler, one instance', () => {
  it('runs a one-off job once it is due, with its payload, then forgets it', async () => {
    const s = await scheduler('A');
    const seen: Job[] = [];
    s.handle('mail', async (job) => {
      seen.push(job);
    });
    const id = await s.schedule('mail', clock + 1000, { to: 'ann' });
    expect(await s.runDue()).toBe(0);
    clock += 1000;
    expect(await s.runDue()).toBe(1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ id, kind: 'mail', payload: { to: 'ann' }, attempts: 0 });
    expect(await s.list()).toEqual([]);
    expect(await s.runDue()).toBe(0);
  });

  it('replaces the pending job of a key, and cancels by key', async () => {
    const s = await scheduler('A');
    const payloads: unknown[] = [];
    s.handle('publish', async (job) => {
      payloads.push(job.payload);
    });
    await s.schedule('publish', clock + 500, 'first', { key: 'site:1' });
    const second = await s.schedule('publish', clock + 100, 'second', { key: 'site:1' });
    await s.schedule('publish', clock + 100, 'other', { key: 'site:2' });
    const jobs = (await s.list('publish')).sort((x, y) =>
      String(x.key).localeCompare(String(y.key)),
    );
    expect(jobs.map((job) => [job.id === second, job.key, job.payload])).toEqual([
      [true, 'site:1', 'second'],
      [false, 'site:2', 'other'],
    ]);
    expect(await s.cancel('site:2')).toBe(true);
    expect(await s.cancel('site:2')).toBe(false);
    clock += 1000;
    expect(await s.runDue()).toBe(1);
    expect(payloads).toEqual(['second']);
  });

  it('runs a recurring job every interval, one row per kind however often it is declared', async () => {
    const s = await scheduler('A');
    let runs = 0;
    s.handle('sweep', async () => {
      runs++;
    });
    await s.every('sweep', 1000);
    await s.every('sweep', 1000);
    expect(await s.list()).toHaveLength(1);
    expect(await s.runDue()).toBe(0);
    clock += 1000;
    expect(await s.runDue()).toBe(1);
    const [job] = await s.list();
    expect(job).toMatchObject({ key: 'every:sweep', intervalMs: 1000, runAt: clock + 1000 });
    expect(job?.claimedBy).toBeNull();
    expect(await s.runDue()).toBe(0);
    clock += 1000;
    expect(await s.runDue()).toBe(1);
    expect(runs).toBe(2);
    // A shorter interval brings the next run forward; runAtStart makes it due now.
    await s.every('sweep', 100);
    expect((await s.list())[0]?.runAt).toBe(clock + 100);
    await s.every('sweep', 100, { runAtStart: true });
    expect(await s.runDue()).toBe(1);
    expect(runs).toBe(3);
  });

  it('retries a failing job with a growing pause, then marks it failed and keeps it', async () => {
    const s = await scheduler('A', { maxAttempts: 3, retryBaseMs: 100 });
    let calls = 0;
    s.handle('flaky', async () => {
      calls++;
      throw new Error(`failure ${calls}`);
    });
    await s.schedule('flaky', clock);
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]).toMatchObject({
      attempts: 1,
      lastError: 'failure 1',
      runAt: clock + 100,
      failedAt: null,
      claimedBy: null,
    });
    expect(await s.runDue()).toBe(0);
    clock += 100;
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]).toMatchObject({ attempts: 2, runAt: clock + 200 });
    clock += 200;
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]).toMatchObject({
      attempts: 3,
      lastError: 'failure 3',
      failedAt: clock,
    });
    clock += 10 * 60_000;
    expect(await s.runDue()).toBe(0);
    expect(calls).toBe(3);
    expect(await s.list()).toHaveLength(1);
  });

  it('keeps a failing recurring job going at its interval and clears the failure on success', async () => {
    const s = await scheduler('A', { maxAttempts: 2, retryBaseMs: 100 });
    let fail = true;
    s.handle('prune', async () => {
      if (fail) throw new Error('database unreachable');
    });
    await s.every('prune', 10_000, { runAtStart: true });
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]).toMatchObject({ attempts: 1, runAt: clock + 100 });
    clock += 100;
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]).toMatchObject({
      attempts: 2,
      failedAt: clock,
      runAt: clock + 10_000,
    });
    clock += 10_000;
    fail = false;
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]).toMatchObject({
      attempts: 0,
      lastError: null,
      failedAt: null,
      runAt: clock + 10_000,
    });
  });

  it('runs a job scheduled before a restart after it', async () => {
    const before = await scheduler('A');
    await before.schedule('report', clock + 500, { month: 11 });
    await before.stop();
    await disconnect(connections[0]!);
    const after = await scheduler('A-restarted');
    const payloads: unknown[] = [];
    after.handle('report', async (job) => {
      payloads.push(job.payload);
    });
    clock += 500;
    expect(await after.runDue()).toBe(1);
    expect(payloads).toEqual([{ month: 11 }]);
  });

  it('extends the claim while the handler runs, and aborts the run when the job is cancelled', async () => {
    const db = await connect();
    const jobs = new JobsRepo(db);
    // Extended every 10 ms of real time; the clock says how far.
    const s = await scheduler('A', { claimMs: 30 });
    s.handle('long', async (job, signal) => {
      clock += 1000;
      await expect.poll(async () => (await jobs.byId(job.id))?.claimedUntil).toBe(clock + 30);
      await s.cancel('long:1');
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    });
    await s.schedule('long', clock, null, { key: 'long:1' });
    expect(await s.runDue()).toBe(1);
    expect(await s.list()).toEqual([]);
  });

  it('gives the claims of running jobs back when it stops, so they run again', async () => {
    const s = await scheduler('A');
    const started = gate();
    s.handle('publish', async (_job, signal) => {
      started.open();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      throw signal.reason;
    });
    await s.schedule('publish', clock);
    const running = s.runDue();
    await started.promise;
    await s.stop();
    expect(await running).toBe(1);
    expect(await s.runDue()).toBe(0);
    expect((await s.list())[0]).toMatchObject({ claimedBy: null, attempts: 0, lastError: null });
    const next = await scheduler('B');
    let ran = false;
    next.handle('publish', async () => {
      ran = true;
    });
    expect(await next.runDue()).toBe(1);
    expect(ran).toBe(true);
  });

  it('records a payload that cannot be read as a failure', async () => {
    const db = await connect();
    const s = await scheduler('A', { maxAttempts: 1 });
    s.handle('mail', async () => {});
    await s.schedule('mail', clock);
    await db.updateTable('scheduled_jobs').set({ payload: '{oops' }).execute();
    expect(await s.runDue()).toBe(1);
    expect((await s.list())[0]?.failedAt).toBe(clock);
  });
});

describe('scheduler poll loop', () => {
  it('wakes when the next job is due, or after the poll interval', async () => {
    const timers = new ManualTimers();
    const s = await scheduler('A', { timers, pollMs: 30_000 });
    let runs = 0;
    s.handle('mail', async () => {
      runs++;
    });
    s.start();
    expect(timers.waiting()).toEqual([0]);
    timers.fire(0);
    // Nothing due: it sleeps the whole poll interval.
    await expect.poll(() => timers.waiting()).toEqual([30_000]);
    await s.schedule('mail', clock + 300);
    expect(timers.waiting()).toEqual([300]);
    clock += 300;
    timers.fire(300);
    await expect.poll(() => runs).toBe(1);
    // A run that ended may have moved a job on: it looks again at once.
    await expect.poll(() => timers.waiting()).toEqual([0]);
    timers.fire(0);
    await expect.poll(() => timers.waiting()).toEqual([30_000]);
    // A job scheduled by another instance is found at the next poll.
    const other = await scheduler('B');
    await other.schedule('mail', clock);
    await expect.poll(() => timers.waiting()).toEqual([30_000]);
    timers.fire(30_000);
    await expect.poll(() => runs).toBe(2);
  });

  it('runs due jobs on its own once started', async () => {
    const s = await scheduler('A', { pollMs: 20 });
    const done = gate();
    s.handle('mail', async () => done.open());
    s.start();
    // Due later by the clock: found by a poll after the clock moved.
    await s.schedule('mail', clock + 60_000);
    clock += 60_000;
    await done.promise;
    await expect.poll(() => s.list()).toEqual([]);
  });
});

describe('scheduler across instances', () => {
  it('runs each due job exactly once between two instances', async () => {
    const a = await scheduler('A');
    const b = await scheduler('B');
    const ran: string[] = [];
    const handler = (instance: string) => async (job: Job) => {
      ran.push(`${String(job.payload)}@${instance}`);
    };
    a.handle('mail', handler('A'));
    b.handle('mail', handler('B'));
    for (let i = 0; i < 20; i++) await a.schedule('mail', clock, i);
    const [byA, byB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(byA + byB).toBe(20);
    const payloads = ran.map((entry) => Number(entry.split('@')[0])).sort((x, y) => x - y);
    expect(payloads).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(await Promise.all([a.runDue(), b.runDue()])).toEqual([0, 0]);
  });

  it('claims nothing from a stale list of due jobs: not a job run meanwhile, nor one running', async () => {
    const a = await scheduler('A');
    const staleJobs = new StaleJobsRepo(await connect());
    const b = await scheduler('B', { jobs: staleJobs });
    const running = gate();
    const release = gate();
    let runs = 0;
    a.handle('sweep', async () => {
      runs++;
    });
    a.handle('publish', async () => {
      runs++;
      running.open();
      await release.promise;
    });
    b.handle('sweep', async () => {
      runs++;
    });
    b.handle('publish', async () => {
      runs++;
    });
    await a.every('sweep', 1000);
    clock += 1000;
    // B reads the due list, then A runs the job (it moves one interval on) before B claims.
    staleJobs.beforeClaiming = async () => void (await a.runDue());
    expect(await b.runDue()).toBe(0);
    expect(runs).toBe(1);
    // B reads the due list, then A claims the job and is still running it when B claims.
    await a.schedule('publish', clock);
    let runOnA: Promise<number> | undefined;
    staleJobs.beforeClaiming = async () => {
      runOnA = a.runDue();
      await running.promise;
    };
    expect(await b.runDue()).toBe(0);
    release.open();
    expect(await runOnA).toBe(1);
    expect(runs).toBe(2);
  });

  it('leaves a job to an instance that has its handler', async () => {
    const a = await scheduler('A');
    const b = await scheduler('B');
    let ranOn = '';
    b.handle('thumbnail', async () => {
      ranOn = 'B';
    });
    await a.schedule('thumbnail', clock);
    expect(await a.runDue()).toBe(0);
    expect(await b.runDue()).toBe(1);
    expect(ranOn).toBe('B');
  });

  it('runs the job of an instance that died mid-run once its claim lapsed', async () => {
    const claimMs = 60_000;
    const a = await scheduler('A', { claimMs });
    const b = await scheduler('B', { claimMs });
    const stuck = gate();
    const started = gate();
    a.handle('publish', async () => {
      started.open();
      // The instance hangs (or died): the claim is never extended nor released.
      await stuck.promise;
    });
    let ranOnB = 0;
    b.handle('publish', async () => {
      ranOnB++;
    });
    await a.schedule('publish', clock, { site: 1 });
    const runOnA = a.runDue();
    await started.promise;
    expect(await b.runDue()).toBe(0);
    clock += claimMs + 1;
    expect(await b.runDue()).toBe(1);
    expect(ranOnB).toBe(1);
    // The stale run ending later changes nothing.
    await b.schedule('publish', clock + 5000, { site: 2 }, { key: 'later' });
    stuck.open();
    expect(await runOnA).toBe(1);
    expect((await b.list()).map((job) => job.payload)).toEqual([{ site: 2 }]);
  });

  it('keeps one recurring job when every instance declares it', async () => {
    const a = await scheduler('A');
    const b = await scheduler('B');
    let runs = 0;
    a.handle('sweep', async () => {
      runs++;
    });
    b.handle('sweep', async () => {
      runs++;
    });
    await Promise.all([a.every('sweep', 1000), b.every('sweep', 1000)]);
    expect(await a.list()).toHaveLength(1);
    clock += 1000;
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
  });
});
