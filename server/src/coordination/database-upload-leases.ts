import { randomUUID } from 'node:crypto';
import type { LeasesRepo } from '../store/leases.repo.ts';
import { DEFAULT_LEASE_TTL_MS } from './database-named-lock.ts';
import { tryAcquireLease, type InstanceGone } from './gone-holders.ts';
import { silentLog, type CoordinationLog } from './log.ts';
import { DEFAULT_BACKOFF, nextPause, realTimers, type Backoff, type Timers } from './timers.ts';
import type { UploadLease, UploadLeases } from './upload-leases.ts';

export interface DatabaseUploadLeasesOptions {
  leases: LeasesRepo;
  /** This instance, written into the lease rows it holds. */
  instanceId: string;
  now?: () => number;
  /** How long a lease outlives its last refresh: how soon a crashed instance's uploads are free. */
  ttlMs?: number;
  /** How often a holding instance looks for takeover requests (and refreshes its leases). */
  watchMs?: number;
  /** How a newcomer polls for the row to go. */
  backoff?: Backoff;
  timers?: Timers;
  log?: CoordinationLog;
  /** Judges a holder's instance gone, so its upload is taken at once rather than when it expires. */
  isGone?: InstanceGone;
}

/** A takeover request is noticed within this long (plus one query). */
export const DEFAULT_WATCH_MS = 150;

interface Holder {
  id: string;
  /** The lease row's holder value: this instance and this acquisition. */
  token: string;
  controller: AbortController;
  released: Promise<void>;
  resolveReleased: () => void;
  /** The row is ours (until released or lost). */
  acquired: boolean;
  /** `release()` was called. */
  done: boolean;
}

const leaseName = (id: string): string => `upload:${id}`;

/**
 * Upload leases across every instance over one database. Locally a map of holders, as in
 * memory; each holder also owns the lease row `upload:<id>`. A newcomer whose upload is held by
 * another instance sets the row's `takeover` flag and polls until the row is gone (or expired),
 * then takes it (at once when the holder's instance is gone: `isGone`). While this instance holds any lease, a watch loop looks every `watchMs` for
 * takeover flags on its rows, aborts those holders (their release deletes the row) and refreshes
 * its rows every third of their lifetime, so the leases of a crashed instance expire.
 */
export class DatabaseUploadLeases implements UploadLeases {
  private readonly holders = new Map<string, Holder>();
  private readonly leases: LeasesRepo;
  private readonly instanceId: string;
  private readonly now: () => number;
  private readonly ttlMs: number;
  private readonly watchMs: number;
  private readonly backoff: Backoff;
  private readonly timers: Timers;
  private readonly log: CoordinationLog;
  private readonly isGone: InstanceGone | undefined;
  /** Cancels the next watch; undefined while the loop is not scheduled. */
  private cancelWatch: (() => void) | undefined;
  /** The watch in progress, awaited by `close()`. */
  private watching: Promise<void> | undefined;
  private refreshedAt = -Infinity;

  constructor(options: DatabaseUploadLeasesOptions) {
    this.leases = options.leases;
    this.instanceId = options.instanceId;
    this.now = options.now ?? Date.now;
    this.ttlMs = options.ttlMs ?? DEFAULT_LEASE_TTL_MS;
    this.watchMs = options.watchMs ?? DEFAULT_WATCH_MS;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.timers = options.timers ?? realTimers;
    this.log = options.log ?? silentLog;
    this.isGone = options.isGone;
  }

  async acquire(id: string): Promise<UploadLease> {
    for (let current = this.holders.get(id); current; current = this.holders.get(id)) {
      current.controller.abort();
      await current.released;
    }
    // Registered before the row is ours, so a still newer local request aborts this one.
    let resolveReleased!: () => void;
    const holder: Holder = {
      id,
      token: `${this.instanceId}:${randomUUID()}`,
      controller: new AbortController(),
      released: new Promise<void>((resolve) => (resolveReleased = resolve)),
      resolveReleased,
      acquired: false,
      done: false,
    };
    this.holders.set(id, holder);
    const lease: UploadLease = {
      signal: holder.controller.signal,
      release: () => this.release(holder),
    };
    try {
      await this.takeRow(holder);
    } catch (error) {
      lease.release();
      throw error;
    }
    if (holder.acquired) this.watchSoon();
    // Overtaken while waiting: nothing to give back, so the newer request need not wait for it.
    else lease.release();
    return lease;
  }

  async isHeld(id: string): Promise<boolean> {
    const local = this.holders.get(id);
    if (local?.acquired && !local.done) return true;
    return this.leases.isLive(leaseName(id), this.now());
  }

  async abortAll(): Promise<void> {
    const all = [...this.holders.values()];
    for (const holder of all) holder.controller.abort();
    await Promise.all(all.map((holder) => holder.released));
  }

  /** Aborts every holder, waits for their release and for the watch loop to end. */
  async close(): Promise<void> {
    await this.abortAll();
    this.cancelWatch?.();
    this.cancelWatch = undefined;
    await this.watching;
  }

  /** Polls until the row is this holder's, or until a newer local request aborts the wait. */
  private async takeRow(holder: Holder): Promise<void> {
    const name = leaseName(holder.id);
    for (let pause = this.backoff.firstMs; ; pause = nextPause(pause, this.backoff)) {
      if (holder.controller.signal.aborted) return;
      const now = this.now();
      const expiresAt = now + this.ttlMs;
      if (await tryAcquireLease(this.leases, name, holder.token, now, expiresAt, this.isGone)) {
        holder.acquired = true;
        return;
      }
      // Asked again on every try: the row may have changed hands to another newcomer meanwhile.
      await this.leases.requestTakeover(name, now);
      await this.timers.sleep(pause);
    }
  }

  private release(holder: Holder): void {
    if (holder.done) return;
    holder.done = true;
    if (this.holders.get(holder.id) === holder) this.holders.delete(holder.id);
    if (!holder.acquired) {
      holder.resolveReleased();
      return;
    }
    // `released` waits for the row to go, so a newcomer on this instance finds it free.
    void this.leases
      .release(leaseName(holder.id), holder.token)
      .catch((error: unknown) => {
        // The row expires on its own; a newcomer takes it over then.
        this.log.warn({ err: error, upload: holder.id }, 'could not release an upload lease');
      })
      .finally(holder.resolveReleased);
  }

  private held(): Holder[] {
    return [...this.holders.values()].filter((holder) => holder.acquired && !holder.done);
  }

  /** Schedules the next watch unless one is scheduled or running. */
  private watchSoon(): void {
    if (this.cancelWatch || this.watching) return;
    this.cancelWatch = this.timers.after(this.watchMs, () => {
      this.cancelWatch = undefined;
      this.watching = this.watch().finally(() => {
        this.watching = undefined;
        // The loop runs only while this instance holds a lease.
        if (this.held().length > 0) this.watchSoon();
      });
    });
  }

  /** Aborts the holders asked to give up (or whose row is gone) and refreshes the others. */
  private async watch(): Promise<void> {
    const held = this.held();
    if (held.length === 0) return;
    try {
      const rows = await this.leases.heldBy(held.map((holder) => holder.token));
      const byToken = new Map(rows.map((row) => [row.holder, row]));
      for (const holder of held) {
        const row = byToken.get(holder.token);
        // Aborting a holder that released during the query is harmless.
        if (!row || row.takeover) holder.controller.abort();
      }
      const now = this.now();
      if (now - this.refreshedAt >= this.ttlMs / 3) {
        // Flagged rows too: their holders are flushing, and the newcomer waits for their release.
        await this.leases.renew(
          rows.map((row) => row.holder),
          now + this.ttlMs,
        );
        this.refreshedAt = now;
      }
    } catch (error) {
      this.log.warn({ err: error }, 'could not watch the upload leases');
    }
  }
}
