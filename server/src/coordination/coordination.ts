import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Store } from '../store/store.ts';
import type { AttemptCounter } from './attempt-counter.ts';
import { DatabaseDavLocks, MemoryDavLocks, type DavLocks } from './dav-locks.ts';
import type { EventBus } from './event-bus.ts';
import { DatabaseAttemptCounter } from './database-attempt-counter.ts';
import { DatabaseEventBus, type EventWakeups } from './database-event-bus.ts';
import { DatabaseNamedLock } from './database-named-lock.ts';
import { DatabaseScheduler, type DatabaseSchedulerOptions } from './database-scheduler.ts';
import { DatabaseUploadLeases } from './database-upload-leases.ts';
import type { InstanceGone } from './gone-holders.ts';
import { silentLog, type CoordinationLog } from './log.ts';
import { MemoryAttemptCounter } from './memory-attempt-counter.ts';
import { MemoryEventBus } from './memory-event-bus.ts';
import { MemoryNamedLock } from './memory-named-lock.ts';
import { MemoryUploadLeases } from './memory-upload-leases.ts';
import type { NamedLock } from './named-lock.ts';
import type { Scheduler } from './scheduler.ts';
import { realTimers, type Backoff, type Timers } from './timers.ts';
import type { UploadLeases } from './upload-leases.ts';

/**
 * `process`: one instance (the embedded SQLite default); counters, locks and upload leases live in
 * memory. `database`: several instances over one database (PostgreSQL); they live in it.
 */
export type CoordinationMode = 'process' | 'database';

export interface CoordinationOptions {
  store: Pick<Store, 'attempts' | 'leases' | 'jobs' | 'events' | 'instances' | 'davLocks'>;
  mode: CoordinationMode;
  /** Names this instance in lease rows and job claims (see `newInstanceId`). */
  instanceId: string;
  now?: () => number;
  timers?: Timers;
  log?: CoordinationLog;
  /** Lease lifetime without a refresh (database mode): how soon a crashed holder's leases free. */
  leaseTtlMs?: number;
  /** How often an instance holding upload leases looks for takeover requests (database mode). */
  uploadWatchMs?: number;
  /**
   * Whether another instance is provably gone (`InstanceLease.isGone`, database mode): a killed
   * instance's locks and upload leases are then taken at once instead of after `leaseTtlMs`.
   */
  isGone?: InstanceGone;
  /** How lock and upload waiters poll (database mode). */
  backoff?: Backoff;
  /** How often the database event bus reads new events (database mode; default 200 ms). */
  eventPollMs?: number;
  /**
   * Notifications between instances (database mode on PostgreSQL: LISTEN/NOTIFY): events reach
   * the other instances at once, the poll becomes a slower safety net.
   */
  eventWakeups?: EventWakeups;
  /** Scheduler tuning (poll interval, claim lifetime, retries). */
  scheduler?: Omit<DatabaseSchedulerOptions, 'jobs' | 'instanceId' | 'now' | 'timers' | 'log'>;
}

/** What lives longer than a request and must behave as one across instances. */
export interface Coordination {
  readonly mode: CoordinationMode;
  readonly instanceId: string;
  /**
   * The attempt counter `name` (`login`, `signup`, …): `max` attempts per key in a window of
   * `windowMs`. One counter per name; asking again with the same settings returns it.
   */
  attempts(name: string, max: number, windowMs: number): AttemptCounter;
  readonly lock: NamedLock;
  readonly uploadLeases: UploadLeases;
  /** Always database-backed: timed work must survive restarts. */
  readonly scheduler: Scheduler;
  /** Events for users' event streams, across instances in database mode (docs/jobs.md). */
  readonly events: EventBus;
  /** WebDAV locks, seen by every instance in database mode (docs/webdav.md). */
  readonly davLocks: DavLocks;
  /** Makes sure the prune job exists and starts the scheduler, once every handler is registered. */
  start(): Promise<void>;
  /** Stops the scheduler and aborts the uploads in progress, waiting for both. */
  close(): Promise<void>;
}

/** The job that forgets ended attempt windows and expired leases. */
export const PRUNE_KIND = 'coordination.prune';
export const PRUNE_INTERVAL_MS = 10 * 60_000;

export function createCoordination(options: CoordinationOptions): Coordination {
  const { store, mode, instanceId } = options;
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  const log = options.log ?? silentLog;
  const shared = { instanceId, now, timers, log, backoff: options.backoff, isGone: options.isGone };

  const counters = new Map<string, { counter: AttemptCounter; settings: string }>();
  const lock: NamedLock =
    mode === 'database'
      ? new DatabaseNamedLock({ ...shared, leases: store.leases, ttlMs: options.leaseTtlMs })
      : new MemoryNamedLock();
  const uploadLeases =
    mode === 'database'
      ? new DatabaseUploadLeases({
          ...shared,
          leases: store.leases,
          ttlMs: options.leaseTtlMs,
          watchMs: options.uploadWatchMs,
        })
      : new MemoryUploadLeases();
  const scheduler = new DatabaseScheduler({
    ...options.scheduler,
    jobs: store.jobs,
    instanceId,
    now,
    timers,
    log,
  });

  const events: EventBus =
    mode === 'database'
      ? new DatabaseEventBus({
          events: store.events,
          now,
          timers,
          log,
          pollMs: options.eventPollMs,
          wakeups: options.eventWakeups,
        })
      : new MemoryEventBus({ now });

  const davLocks: DavLocks =
    mode === 'database' ? new DatabaseDavLocks(store.davLocks, lock, now) : new MemoryDavLocks(now);

  scheduler.handle(PRUNE_KIND, async () => {
    const at = now();
    // In database mode one statement prunes every counter's windows.
    if (mode === 'database') await store.attempts.prune(at);
    else for (const { counter } of counters.values()) await counter.prune(at);
    await store.leases.prune(at);
    await store.instances.prune(at);
  });

  return {
    mode,
    instanceId,
    davLocks,
    attempts(name, max, windowMs) {
      const settings = `${max}/${windowMs}`;
      const known = counters.get(name);
      if (known) {
        if (known.settings !== settings) {
          throw new Error(`the attempt counter ${name} exists with other settings`);
        }
        return known.counter;
      }
      const counter =
        mode === 'database'
          ? new DatabaseAttemptCounter(store.attempts, name, max, windowMs, now)
          : new MemoryAttemptCounter(max, windowMs, now);
      counters.set(name, { counter, settings });
      return counter;
    },
    lock,
    uploadLeases,
    scheduler,
    events,
    async start() {
      await scheduler.every(PRUNE_KIND, PRUNE_INTERVAL_MS);
      scheduler.start();
    },
    async close() {
      await scheduler.stop();
      await events.close();
      if (uploadLeases instanceof DatabaseUploadLeases) await uploadLeases.close();
      else await uploadLeases.abortAll();
    },
  };
}

/**
 * A name for this process among instances: the host and process id (to find it in the rows it
 * holds) and a random part (a restarted process with the same pid is another instance).
 */
export function newInstanceId(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}
