import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { oneDatabasePerTest } from './one-database.fixture.ts';
import { createStore, type Store } from '../store/store.ts';
import {
  createCoordination,
  newInstanceId,
  PRUNE_INTERVAL_MS,
  PRUNE_KIND,
  type Coordination,
  type CoordinationMode,
} from './coordination.ts';
import { DatabaseAttemptCounter } from './database-attempt-counter.ts';
import { DatabaseNamedLock } from './database-named-lock.ts';
import { DatabaseUploadLeases } from './database-upload-leases.ts';
import { MemoryAttemptCounter } from './memory-attempt-counter.ts';
import { MemoryNamedLock } from './memory-named-lock.ts';
import { MemoryUploadLeases } from './memory-upload-leases.ts';

const { connect } = oneDatabasePerTest();
let clock: number;
const opened: Coordination[] = [];

beforeEach(async () => {
  clock = 1_000_000;
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((coordination) => coordination.close()));
});

/** A store over a connection of its own to the one database of the test. */
async function store(): Promise<Store> {
  return createStore(await connect());
}

async function coordination(mode: CoordinationMode, instanceId: string): Promise<Coordination> {
  const created = createCoordination({ store: await store(), mode, instanceId, now: () => clock });
  opened.push(created);
  return created;
}

describe('coordination', () => {
  it('keeps counters, locks and upload leases in memory for one process', async () => {
    const c = await coordination('process', 'A');
    expect(c.attempts('login', 5, 60_000)).toBeInstanceOf(MemoryAttemptCounter);
    expect(c.lock).toBeInstanceOf(MemoryNamedLock);
    expect(c.uploadLeases).toBeInstanceOf(MemoryUploadLeases);
  });

  it('keeps them in the database for several instances', async () => {
    const c = await coordination('database', 'A');
    expect(c.attempts('login', 5, 60_000)).toBeInstanceOf(DatabaseAttemptCounter);
    expect(c.lock).toBeInstanceOf(DatabaseNamedLock);
    expect(c.uploadLeases).toBeInstanceOf(DatabaseUploadLeases);
  });

  it('hands out one counter per name, and refuses the name with other settings', async () => {
    const c = await coordination('process', 'A');
    const login = c.attempts('login', 5, 60_000);
    expect(c.attempts('login', 5, 60_000)).toBe(login);
    expect(c.attempts('signup', 5, 60_000)).not.toBe(login);
    expect(() => c.attempts('login', 6, 60_000)).toThrow(/other settings/);
  });

  it('shares attempt counts between two instances in database mode', async () => {
    const a = await coordination('database', 'A');
    const b = await coordination('database', 'B');
    await a.attempts('login', 1, 60_000).hit('ip:1');
    expect(await b.attempts('login', 1, 60_000).retryAfter('ip:1')).toBe(60);
  });

  it('prunes ended attempt windows and expired leases with a recurring job', async () => {
    for (const mode of ['process', 'database'] as const) {
      const s = await store();
      const c = createCoordination({ store: s, mode, instanceId: mode, now: () => clock });
      opened.push(c);
      const counter = c.attempts('login', 5, 1000);
      await counter.hit('ip:old');
      await s.leases.tryAcquire('lock:dead', 'dead:1', clock, clock + 1000);
      await c.start();
      const [job] = await c.scheduler.list(PRUNE_KIND);
      expect(job).toMatchObject({
        intervalMs: PRUNE_INTERVAL_MS,
        runAt: clock + PRUNE_INTERVAL_MS,
      });
      await counter.hit('ip:new', clock + PRUNE_INTERVAL_MS - 1);
      clock += PRUNE_INTERVAL_MS;
      expect(await c.scheduler.runDue()).toBe(1);
      // The old window went, the new one counts on.
      expect(await counter.prune(clock)).toBe(0);
      expect(await counter.retryAfter('ip:new')).toBe(0);
      expect(await s.leases.isLive('lock:dead', 0)).toBe(false);
      await c.close();
      await s.jobs.deleteByKey(`every:${PRUNE_KIND}`);
    }
  });

  it('names instances apart', () => {
    expect(newInstanceId()).not.toBe(newInstanceId());
    expect(newInstanceId()).toContain(`:${process.pid}:`);
  });
});
