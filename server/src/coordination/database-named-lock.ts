import { randomUUID } from 'node:crypto';
import type { LeasesRepo } from '../store/leases.repo.ts';
import { tryAcquireLease, type InstanceGone } from './gone-holders.ts';
import { silentLog, type CoordinationLog } from './log.ts';
import { MemoryNamedLock } from './memory-named-lock.ts';
import type { NamedLock } from './named-lock.ts';
import {
  DEFAULT_BACKOFF,
  nextPause,
  realTimers,
  repeat,
  type Backoff,
  type Timers,
} from './timers.ts';

export interface DatabaseNamedLockOptions {
  leases: LeasesRepo;
  /** This instance, written into the lease rows it holds. */
  instanceId: string;
  now?: () => number;
  /** How long a lease outlives its last refresh: how soon a crashed holder's lock is taken over. */
  ttlMs?: number;
  /** How a waiter polls the lease row. */
  backoff?: Backoff;
  timers?: Timers;
  log?: CoordinationLog;
  /** Judges a holder's instance gone, so its lock is taken at once rather than when it expires. */
  isGone?: InstanceGone;
}

/** A crashed holder's lock is free again after this long. */
export const DEFAULT_LEASE_TTL_MS = 30_000;

/**
 * Named locks across every instance over one database: the lock of `name` is the lease row
 * `lock:<name>`. Acquiring inserts the row, or takes it over if its holder let it expire; a waiter
 * polls with a growing pause. While the task runs the lease is refreshed every third of its
 * lifetime; it is deleted when the task ends. Tasks of one name on this instance queue in memory
 * first, so only one of them at a time polls the database.
 */
export class DatabaseNamedLock implements NamedLock {
  private readonly local = new MemoryNamedLock();
  private readonly leases: LeasesRepo;
  private readonly instanceId: string;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly backoff: Backoff;
  private readonly timers: Timers;
  private readonly log: CoordinationLog;
  private readonly isGone: InstanceGone | undefined;

  constructor(options: DatabaseNamedLockOptions) {
    this.leases = options.leases;
    this.instanceId = options.instanceId;
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.timers = options.timers ?? realTimers;
    this.log = options.log ?? silentLog;
    this.isGone = options.isGone;
  }

  run<T>(name: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.local.run(name, () => this.runLeased(`lock:${name}`, task));
  }

  private async runLeased<T>(lease: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const holder = `${this.instanceId}:${randomUUID()}`;
    for (let pause = this.backoff.firstMs; ; pause = nextPause(pause, this.backoff)) {
      const now = this.now();
      const expiresAt = now + this.ttlMs;
      if (await tryAcquireLease(this.leases, lease, holder, now, expiresAt, this.isGone)) break;
      await this.timers.sleep(pause);
    }
    const lost = new AbortController();
    const stopRefreshing = repeat(this.timers, Math.floor(this.ttlMs / 3), async () => {
      try {
        const renewed = await this.leases.renew([holder], this.now() + this.ttlMs);
        if (renewed === 0) lost.abort(new Error(`lost the lease ${lease}`));
      } catch (error) {
        // The lease lives on until it expires; the next refresh tries again.
        this.log.warn({ err: error, lease }, 'could not refresh a lock lease');
      }
    });
    try {
      return await task(lost.signal);
    } finally {
      stopRefreshing();
      try {
        await this.leases.release(lease, holder);
      } catch (error) {
        // The row expires on its own; waiters take it over then.
        this.log.warn({ err: error, lease }, 'could not release a lock lease');
      }
    }
  }
}
