import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { oneDatabasePerTest } from './one-database.fixture.ts';
import { LeasesRepo } from '../store/leases.repo.ts';
import { DatabaseNamedLock } from './database-named-lock.ts';
import { MemoryNamedLock } from './memory-named-lock.ts';
import type { NamedLock } from './named-lock.ts';
import { realTimers, type Timers } from './timers.ts';

const { connect, connections } = oneDatabasePerTest();

/**
 * Runs `count` tasks of `name` spread over `locks`, all at once; each task yields several times
 * while it holds the lock, so that a task of another holder would run in between if it could.
 * Returns the most tasks of the name seen running at the same time, and the order they ran in.
 */
async function overlap(locks: NamedLock[], name: string, count: number) {
  let running = 0;
  let most = 0;
  const order: number[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      locks[i % locks.length]!.run(name, async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        for (let turn = 0; turn < 3; turn++) await nextTurn();
        running--;
      }),
    ),
  );
  return { most, order };
}

describe('named lock in memory', () => {
  it('runs the tasks of one name one at a time, in order', async () => {
    const lock = new MemoryNamedLock();
    const { most, order } = await overlap([lock], 'users', 8);
    expect(most).toBe(1);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('runs tasks of different names side by side', async () => {
    const lock = new MemoryNamedLock();
    let release!: () => void;
    const held = lock.run('a', () => new Promise<void>((resolve) => (release = resolve)));
    // "b" does not wait for "a" to end.
    expect(await lock.run('b', () => Promise.resolve('b done'))).toBe('b done');
    release();
    await held;
  });

  it('hands the result or the error back, and a failure does not block the next task', async () => {
    const lock = new MemoryNamedLock();
    const failed = lock.run('a', () => Promise.reject(new Error('boom')));
    const next = lock.run('a', () => Promise.resolve(42));
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe(42);
  });

  it('forgets a name once its last task ended', async () => {
    const lock = new MemoryNamedLock();
    await Promise.all([lock.run('a', () => nextTurn()), lock.run('b', () => nextTurn())]);
    await expect.poll(() => lock.size).toBe(0);
  });
});

describe('named lock in the database', () => {
  it('never runs tasks of one name at once on two instances', async () => {
    const a = new DatabaseNamedLock({ leases: new LeasesRepo(await connect()), instanceId: 'A' });
    const b = new DatabaseNamedLock({ leases: new LeasesRepo(await connect()), instanceId: 'B' });
    const { most, order } = await overlap([a, b], 'provisioning', 12);
    expect(most).toBe(1);
    expect([...order].sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    // Every lease was given back.
    expect(await new LeasesRepo(connections[0]!).isLive('lock:provisioning', Date.now())).toBe(
      false,
    );
  });

  it('hands the result or the error back and releases the lease either way', async () => {
    const leases = new LeasesRepo(await connect());
    const lock = new DatabaseNamedLock({ leases, instanceId: 'A' });
    await expect(lock.run('x', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await lock.run('x', () => Promise.resolve('ok'))).toBe('ok');
    expect(await leases.isLive('lock:x', Date.now())).toBe(false);
  });

  it('takes over the lease of a holder that died once it expired', async () => {
    let clock = 1_000_000;
    const leases = new LeasesRepo(await connect());
    // An instance took the lock and crashed: its row stays until it expires.
    expect(await leases.tryAcquire('lock:sweep', 'dead:1', clock, clock + 30_000)).toBe(true);
    let polls = 0;
    const timers: Timers = {
      ...realTimers,
      sleep: (ms) => {
        polls++;
        return realTimers.sleep(ms);
      },
    };
    const lock = new DatabaseNamedLock({
      leases: new LeasesRepo(await connect()),
      instanceId: 'B',
      now: () => clock,
      timers,
    });
    let ran = false;
    const run = lock.run('sweep', () => {
      ran = true;
      return Promise.resolve('swept');
    });
    await expect.poll(() => polls).toBeGreaterThanOrEqual(3);
    expect(ran).toBe(false);
    clock += 30_000;
    expect(await run).toBe('swept');
    expect(await leases.isLive('lock:sweep', clock)).toBe(false);
  });

  it('takes the lock of a killed instance at once, and never that of a live one', async () => {
    const clock = 1_000_000;
    const leases = new LeasesRepo(await connect());
    // Instance `dead` was killed holding one lock, `alive` holds another; neither lease expired.
    expect(await leases.tryAcquire('lock:a', 'host:1:dead:u1', clock, clock + 30_000)).toBe(true);
    expect(await leases.tryAcquire('lock:b', 'host:2:alive:u2', clock, clock + 30_000)).toBe(true);
    const asked: string[] = [];
    const lock = new DatabaseNamedLock({
      leases: new LeasesRepo(await connect()),
      instanceId: 'host:3:new',
      now: () => clock,
      isGone: (id) => {
        asked.push(id);
        return Promise.resolve(id === 'host:1:dead');
      },
    });
    expect(await lock.run('a', () => Promise.resolve('taken'))).toBe('taken');
    expect(asked).toContain('host:1:dead');
    let ran = false;
    const waiting = lock.run('b', () => {
      ran = true;
      return Promise.resolve();
    });
    await expect.poll(() => asked.filter((id) => id === 'host:2:alive').length).toBeGreaterThan(2);
    expect(ran).toBe(false);
    expect(await leases.release('lock:b', 'host:2:alive:u2')).toBe(true);
    await waiting;
    expect(ran).toBe(true);
  });

  it('keeps the lease alive while the task runs', async () => {
    let clock = 1_000_000;
    const leases = new LeasesRepo(await connect());
    const lock = new DatabaseNamedLock({
      leases,
      instanceId: 'A',
      now: () => clock,
      // Refreshed every 10 ms of real time; the clock says how far.
      ttlMs: 30,
    });
    const other = new DatabaseNamedLock({
      leases: new LeasesRepo(await connect()),
      instanceId: 'B',
      now: () => clock,
      ttlMs: 30,
    });
    let otherRan = false;
    await lock.run('long', async () => {
      clock += 1000;
      // Long past the first expiry, the lease was pushed forward from the new time.
      await expect.poll(() => leases.isLive('lock:long', clock)).toBe(true);
      const waiting = other.run('long', () => {
        otherRan = true;
        return Promise.resolve();
      });
      await nextTurn();
      expect(otherRan).toBe(false);
      void waiting;
    });
    await expect.poll(() => otherRan).toBe(true);
  });

  it('tells the task through its signal when the lease was lost', async () => {
    const db = await connect();
    const lock = new DatabaseNamedLock({ leases: new LeasesRepo(db), instanceId: 'A', ttlMs: 30 });
    const reason = await lock.run('stolen', async (signal) => {
      // Someone else took the row (as after an expiry during a long stall).
      await db
        .updateTable('leases')
        .set({ holder: 'thief' })
        .where('name', '=', 'lock:stolen')
        .execute();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return (signal.reason as Error).message;
    });
    expect(reason).toBe('lost the lease lock:stolen');
    // The thief's row was not ours to delete.
    const rows = await db.selectFrom('leases').select('holder').execute();
    expect(rows).toEqual([{ holder: 'thief' }]);
  });
});
