import { describe, expect, it } from 'vitest';
import { createStore } from '../store/store.ts';
import { DatabaseEventBus, type EventWakeups } from './database-event-bus.ts';
import type { BusEvent } from './event-bus.ts';
import { silentLog } from './log.ts';
import { MemoryEventBus } from './memory-event-bus.ts';
import { oneDatabasePerTest } from './one-database.fixture.ts';
import type { Timers } from './timers.ts';

const { connect } = oneDatabasePerTest();

/** Timers moved by hand: `tick()` runs every wait that is due, whatever its length. */
function manualTimers(): Timers & { tick(): Promise<void> } {
  let due: (() => void)[] = [];
  return {
    after(_ms, fn) {
      due.push(fn);
      return () => {
        due = due.filter((f) => f !== fn);
      };
    },
    sleep: () => Promise.resolve(),
    async tick() {
      const now = due;
      due = [];
      for (const fn of now) fn();
      // Each poll schedules the next once its queries are done: wait for that.
      while (due.length < now.length) await new Promise((r) => setImmediate(r));
    },
  };
}

describe('memory event bus', () => {
  it('numbers events, replays those of one user and forgets past its capacity', async () => {
    const bus = new MemoryEventBus({ capacity: 3, now: () => 5000 });
    const seen: BusEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    const start = await bus.latestId();
    expect(start).toBe(5000);
    const first = await bus.publish(1, 'job', { n: 1 });
    await bus.publish(2, 'job', { n: 2 });
    await bus.publish(1, 'job', { n: 3 });
    expect(seen.map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect((await bus.since(1, start))!.map((e) => e.data)).toEqual([{ n: 1 }, { n: 3 }]);
    expect(await bus.since(2, first)).toEqual([seen[1]]);
    await bus.publish(1, 'job', { n: 4 });
    // The first event is forgotten: a stream that saw nothing since the start must resync.
    expect(await bus.since(1, start)).toBeNull();
    expect((await bus.since(1, first))!.map((e) => e.data)).toEqual([{ n: 3 }, { n: 4 }]);
    // An id this bus never handed out (a previous run's, or a later one's) also asks to resync.
    expect(await bus.since(1, 10)).toBeNull();
    expect(await bus.since(1, 99_999)).toBeNull();
  });
});

describe('database event bus', () => {
  it('hands events appended by one instance to the listeners of another, in order', async () => {
    const timers = manualTimers();
    let clock = 1_000;
    const options = { now: () => clock, timers, log: silentLog };
    const a = new DatabaseEventBus({ ...options, events: createStore(await connect()).events });
    const b = new DatabaseEventBus({ ...options, events: createStore(await connect()).events });
    // Published before b started: only reachable by replay.
    const before = await a.publish(7, 'job', { n: 0 });
    await a.start();
    await b.start();
    const seenByB: BusEvent[] = [];
    b.subscribe((event) => seenByB.push(event));
    const one = await a.publish(7, 'job', { n: 1 });
    const two = await a.publish(8, 'job', { n: 2 });
    await timers.tick();
    expect(seenByB).toEqual([
      { id: one, userId: 7, type: 'job', data: { n: 1 } },
      { id: two, userId: 8, type: 'job', data: { n: 2 } },
    ]);
    expect(two).toBeGreaterThan(one);
    expect(await b.latestId()).toBe(two);
    expect((await b.since(7, before - 1))!.map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }]);
    expect(await b.since(7, two + 5)).toBeNull();

    // Minutes later the old events are pruned on a poll; the newest stays to keep the numbering.
    clock += 10 * 60_000;
    await a.publish(7, 'job', { n: 3 });
    clock += 10 * 60_000;
    await timers.tick();
    expect(await b.since(7, before)).toBeNull();
    const newest = await b.latestId();
    expect(await b.since(7, newest - 1)).toEqual([
      { id: newest, userId: 7, type: 'job', data: { n: 3 } },
    ]);
    await a.close();
    await b.close();
  });

  it('wakes the other instances on a publish, without waiting for their poll', async () => {
    // The notification channel as PostgreSQL's NOTIFY is: every listener hears every publish.
    const woken = new Set<() => void>();
    const wakeups: EventWakeups = {
      listen: (wake) => {
        woken.add(wake);
        return Promise.resolve({ close: () => Promise.resolve(void woken.delete(wake)) });
      },
      notify: () => Promise.resolve(woken.forEach((wake) => wake())),
    };
    // Timers that never fire on their own: only a wake-up can deliver.
    const timers = manualTimers();
    const options = { now: () => 1_000, timers, log: silentLog, wakeups };
    const a = new DatabaseEventBus({ ...options, events: createStore(await connect()).events });
    const b = new DatabaseEventBus({ ...options, events: createStore(await connect()).events });
    await a.start();
    await b.start();
    const seenByB: unknown[] = [];
    b.subscribe((event) => seenByB.push(event.data));
    await a.publish(7, 'job', { n: 1 });
    await a.publish(7, 'job', { n: 2 });
    await expect.poll(() => seenByB).toEqual([{ n: 1 }, { n: 2 }]);
    // Closed, b listens no more; a's own stream still hears its publishes.
    await b.close();
    expect(woken.size).toBe(1);
    const seenByA: unknown[] = [];
    a.subscribe((event) => seenByA.push(event.data));
    await a.publish(7, 'job', { n: 3 });
    await expect.poll(() => seenByA).toEqual([{ n: 3 }]);
    await a.close();
  });

  it('delivers a row that became visible after a newer one, once', async () => {
    const timers = manualTimers();
    const db = await connect();
    const bus = new DatabaseEventBus({
      events: createStore(db).events,
      now: () => 1_000,
      timers,
      log: silentLog,
    });
    // Rows from before the start are never delivered live, even those inside the lookback.
    await bus.publish(1, 'job', { n: 'old' });
    await bus.start();
    const seen: unknown[] = [];
    bus.subscribe((event) => seen.push(event.data));
    const first = await bus.publish(1, 'job', { n: 1 });
    const second = await bus.publish(1, 'job', { n: 2 });
    // As if the first insert committed late: invisible at the first poll, visible at the next.
    await db.deleteFrom('events').where('id', '=', first).execute();
    await timers.tick();
    expect(seen).toEqual([{ n: 2 }]);
    await db
      .insertInto('events')
      .values({ id: first, user_id: 1, type: 'job', data: '{"n":1}', created_at: 1_000 })
      .execute();
    await timers.tick();
    await timers.tick();
    expect(seen).toEqual([{ n: 2 }, { n: 1 }]);
    expect(second).toBeGreaterThan(first);
    await bus.close();
  });
});
