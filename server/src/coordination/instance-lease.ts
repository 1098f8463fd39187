import os from 'node:os';
import type { InstancesRepo } from '../store/instances.repo.ts';
import type { CoordinationMode } from './coordination.ts';
import { realTimers, repeat, type Timers } from './timers.ts';

/**
 * This instance's identity among those sharing a data folder, and the judge of whether another
 * one still runs. Process ids and host names cannot tell: a second container in its own PID
 * namespace may share both, and a restarted one is PID 1 again (docs/runtime.md).
 */
export interface InstanceLease {
  readonly id: string;
  /** True when the instance `id` is provably gone: its temp files may be removed. */
  isGone(id: string): Promise<boolean>;
  /** Starts renewing the lease (database mode). */
  start(): void;
  /** Stops renewing and gives the lease back: this instance is gone. */
  close(): Promise<void>;
}

/** Lease lifetime without a renewal: how long a crashed instance's temp files wait. */
export const INSTANCE_LEASE_TTL_MS = 2 * 60_000;

export interface InstanceLeaseOptions {
  id: string;
  mode: CoordinationMode;
  instances: InstancesRepo;
  now?: () => number;
  timers?: Timers;
  ttlMs?: number;
}

/**
 * `database`: a row per instance whose lease it renews every third of its lifetime; another
 * instance is gone once its row expired (or is missing). `process`: this process is the only
 * instance on its data folder and database (what `--shared-state process` promises), so any other
 * id is a predecessor that stopped.
 */
export async function openInstanceLease(options: InstanceLeaseOptions): Promise<InstanceLease> {
  if (options.mode === 'process') return processLease(options.id);
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  const ttl = options.ttlMs ?? INSTANCE_LEASE_TTL_MS;
  const { instances, id } = options;
  await instances.register({
    id,
    host: os.hostname(),
    pid: process.pid,
    startedAt: now(),
    expiresAt: now() + ttl,
  });
  let stop: (() => void) | undefined;
  return {
    id,
    async isGone(other) {
      if (other === id) return false;
      const row = await instances.get(other);
      return row === undefined || row.expiresAt <= now();
    },
    start() {
      stop ??= repeat(timers, Math.floor(ttl / 3), async () => {
        // A row pruned while this process was stalled past its lease is written again.
        if (!(await instances.renew(id, now() + ttl))) {
          await instances.register({
            id,
            host: os.hostname(),
            pid: process.pid,
            startedAt: now(),
            expiresAt: now() + ttl,
          });
        }
      });
    },
    async close() {
      stop?.();
      await instances.remove(id);
    },
  };
}

function processLease(id: string): InstanceLease {
  return {
    id,
    isGone: (other) => Promise.resolve(other !== id),
    start() {},
    close: () => Promise.resolve(),
  };
}
