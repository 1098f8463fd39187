import os from 'node:os';
import type { InstancesRepo } from '../store/instances.repo.ts';
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
  /** Starts renewing the lease. */
  start(): void;
  /** Stops renewing and gives the lease back: this instance is gone. */
  close(): Promise<void>;
}

/** Lease lifetime without a renewal: how long a crashed instance's temp files wait. */
export const INSTANCE_LEASE_TTL_MS = 2 * 60_000;

/** Where this process's pid can be checked, and how (fs/pid-space.ts, fs/temp-files.ts). */
export interface PidPlace {
  /** Boot id and PID namespace, or null when unknown (then only leases tell). */
  space: string | null;
  /** Whether a process with this pid runs in that space. */
  runs(pid: number): boolean;
}

export interface InstanceLeaseOptions {
  id: string;
  /** Default: unknown, so that only leases tell. */
  place?: PidPlace;
  instances: InstancesRepo;
  now?: () => number;
  timers?: Timers;
  ttlMs?: number;
}

/**
 * A row per instance in the database, in both coordination modes, whose lease the instance renews
 * every third of its lifetime. Another instance is gone once its row expired (or is missing), or
 * at once when it ran in this process's PID namespace of this boot and its pid no longer runs (a
 * server restarted by systemd, a killed test server). The database is what every process on one
 * data folder shares, even in `process` mode (the SQLite file lives in the data folder): an admin
 * command run beside the server, or a second server started there by mistake, keeps the running
 * one's temp files.
 */
export async function openInstanceLease(options: InstanceLeaseOptions): Promise<InstanceLease> {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? realTimers;
  const ttl = options.ttlMs ?? INSTANCE_LEASE_TTL_MS;
  const { instances, id } = options;
  const place = options.place ?? { space: null, runs: () => true };
  const space = place.space;
  const register = () =>
    instances.register({
      id,
      host: os.hostname(),
      pid: process.pid,
      pidSpace: space,
      startedAt: now(),
      expiresAt: now() + ttl,
    });
  await register();
  let stop: (() => void) | undefined;
  return {
    id,
    async isGone(other) {
      if (other === id) return false;
      const row = await instances.get(other);
      if (row === undefined || row.expiresAt <= now()) return true;
      // Only where its pid means what it means here: never across PID namespaces or machines.
      return space !== null && row.pidSpace === space && !place.runs(row.pid);
    },
    start() {
      stop ??= repeat(timers, Math.floor(ttl / 3), async () => {
        // A row pruned while this process was stalled past its lease is written again.
        if (!(await instances.renew(id, now() + ttl))) await register();
      });
    },
    async close() {
      stop?.();
      await instances.remove(id);
    },
  };
}
