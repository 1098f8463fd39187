import { afterEach, describe, expect, it } from 'vitest';
import { oneDatabasePerTest } from './one-database.fixture.ts';
import { LeasesRepo } from '../store/leases.repo.ts';
import {
  DatabaseUploadLeases,
  type DatabaseUploadLeasesOptions,
} from './database-upload-leases.ts';
import { MemoryUploadLeases } from './memory-upload-leases.ts';
import type { UploadLease, UploadLeases } from './upload-leases.ts';

const { connect } = oneDatabasePerTest();
const instances: DatabaseUploadLeases[] = [];

afterEach(async () => {
  await Promise.all(instances.splice(0).map((leases) => leases.close()));
});

/** An instance's upload leases over its own connection; takeover requests are looked for often. */
async function instance(
  instanceId: string,
  options: Partial<DatabaseUploadLeasesOptions> = {},
): Promise<DatabaseUploadLeases> {
  const leases = new DatabaseUploadLeases({
    leases: new LeasesRepo(await connect()),
    instanceId,
    watchMs: 5,
    ...options,
  });
  instances.push(leases);
  return leases;
}

/** Records the holder's abort and gives the upload back one turn later, as a flushing PATCH does. */
function releaseOnAbort(lease: UploadLease, name: string, events: string[]): void {
  lease.signal.addEventListener('abort', () => {
    events.push(`${name} aborted`);
    setImmediate(() => {
      events.push(`${name} released`);
      lease.release();
    });
  });
}

describe.each([
  ['in memory', () => Promise.resolve(new MemoryUploadLeases())],
  ['in the database', () => instance('A')],
] as const)('upload leases %s', (_name, make: () => Promise<UploadLeases>) => {
  it('lets a newcomer abort the holder and wait until it has released', async () => {
    const leases = await make();
    const first = await leases.acquire('u1');
    const events: string[] = [];
    releaseOnAbort(first, 'first', events);
    const second = await leases.acquire('u1');
    events.push('second acquired');
    expect(events).toEqual(['first aborted', 'first released', 'second acquired']);
    expect(second.signal.aborted).toBe(false);
    expect(await leases.isHeld('u1')).toBe(true);
    second.release();
    second.release();
    await expect.poll(() => leases.isHeld('u1')).toBe(false);
  });

  it('keeps different uploads independent and aborts all at shutdown', async () => {
    const leases = await make();
    const a = await leases.acquire('a');
    const b = await leases.acquire('b');
    expect(a.signal.aborted || b.signal.aborted).toBe(false);
    a.signal.addEventListener('abort', () => a.release());
    b.signal.addEventListener('abort', () => b.release());
    await leases.abortAll();
    expect(a.signal.aborted && b.signal.aborted).toBe(true);
    expect((await leases.isHeld('a')) || (await leases.isHeld('b'))).toBe(false);
  });
});

describe('upload leases across instances', () => {
  it('aborts the holder on one instance when the upload is asked for on another', async () => {
    const a = await instance('A');
    const b = await instance('B');
    const held = await a.acquire('u1');
    expect(await b.isHeld('u1')).toBe(true);
    const events: string[] = [];
    releaseOnAbort(held, 'A', events);
    const taken = await b.acquire('u1');
    events.push('B acquired');
    expect(events).toEqual(['A aborted', 'A released', 'B acquired']);
    expect(taken.signal.aborted).toBe(false);
    expect(await a.isHeld('u1')).toBe(true);
    // And back again: B's holder is now the one asked to give up.
    const events2: string[] = [];
    releaseOnAbort(taken, 'B', events2);
    const back = await a.acquire('u1');
    events2.push('A acquired');
    expect(events2).toEqual(['B aborted', 'B released', 'A acquired']);
    back.release();
    await expect.poll(() => b.isHeld('u1')).toBe(false);
    expect(await a.isHeld('u1')).toBe(false);
  });

  it('waits for a crashed instance’s lease to expire, then takes it', async () => {
    let clock = 1_000_000;
    const repo = new LeasesRepo(await connect());
    // An instance took the upload and died: nobody answers the takeover request.
    expect(await repo.tryAcquire('upload:u2', 'dead:1', clock, clock + 30_000)).toBe(true);
    const b = await instance('B', { now: () => clock });
    expect(await b.isHeld('u2')).toBe(true);
    const pending = b.acquire('u2');
    await expect.poll(async () => (await repo.heldBy(['dead:1']))[0]?.takeover).toBe(true);
    clock += 30_000;
    const lease = await pending;
    expect(lease.signal.aborted).toBe(false);
    expect(await b.isHeld('u2')).toBe(true);
    lease.release();
  });

  it('takes a killed instance’s upload at once, without waiting for its lease to expire', async () => {
    const clock = 1_000_000;
    const repo = new LeasesRepo(await connect());
    // The server was killed mid-upload; restarted, it resumes the upload as a new instance.
    expect(await repo.tryAcquire('upload:u3', 'host:1:killed:u', clock, clock + 30_000)).toBe(true);
    const b = await instance('host:2:restarted', {
      now: () => clock,
      isGone: (id) => Promise.resolve(id === 'host:1:killed'),
    });
    const lease = await b.acquire('u3');
    expect(lease.signal.aborted).toBe(false);
    expect(await repo.heldBy(['host:1:killed:u'])).toEqual([]);
    expect(await b.isHeld('u3')).toBe(true);
    lease.release();
  });

  it('hands a waiting request its lease already aborted when a newer one came meanwhile', async () => {
    let clock = 1_000_000;
    const repo = new LeasesRepo(await connect());
    expect(await repo.tryAcquire('upload:u3', 'dead:1', clock, clock + 30_000)).toBe(true);
    const b = await instance('B', { now: () => clock });
    const older = b.acquire('u3');
    await expect.poll(async () => (await repo.heldBy(['dead:1']))[0]?.takeover).toBe(true);
    const newer = b.acquire('u3');
    const olderLease = await older;
    expect(olderLease.signal.aborted).toBe(true);
    olderLease.release();
    clock += 30_000;
    const newerLease = await newer;
    expect(newerLease.signal.aborted).toBe(false);
    newerLease.release();
  });

  it('keeps its leases alive while it holds them, and aborts a holder whose row was lost', async () => {
    let clock = 1_000_000;
    const db = await connect();
    const repo = new LeasesRepo(db);
    const a = await instance('A', { now: () => clock, ttlMs: 300 });
    const lease = await a.acquire('u4');
    clock += 1000;
    // Long past the first expiry, the row was pushed forward from the new time.
    await expect.poll(() => repo.isLive('upload:u4', clock)).toBe(true);
    await db.deleteFrom('leases').execute();
    await new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
    lease.release();
  });

  it('gives the row back at shutdown', async () => {
    const a = await instance('A');
    const b = await instance('B');
    const lease = await a.acquire('u5');
    lease.signal.addEventListener('abort', () => lease.release());
    await a.close();
    expect(lease.signal.aborted).toBe(true);
    expect(await b.isHeld('u5')).toBe(false);
  });
});
