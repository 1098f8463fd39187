import type { LeasesRepo } from '../store/leases.repo.ts';

/**
 * Whether the instance `id` is provably gone (`InstanceLease.isGone`): its process ended on this
 * host and boot, or its instance row expired.
 */
export type InstanceGone = (id: string) => Promise<boolean>;

/** The instance in a lease holder `<instance id>:<uuid>` (instance ids hold colons too). */
export function instanceOfHolder(holder: string): string {
  const colon = holder.lastIndexOf(':');
  return colon < 0 ? holder : holder.slice(0, colon);
}

/**
 * Takes the lease `name` for `holder`: when it is free or expired, or at once when its holder's
 * instance is gone. Without the last, a lease of a killed server would keep waiters (the restarted
 * server resuming an upload, a lock taken in the crash) until its lifetime ran out, 30 s.
 */
export async function tryAcquireLease(
  leases: LeasesRepo,
  name: string,
  holder: string,
  now: number,
  expiresAt: number,
  isGone: InstanceGone | undefined,
): Promise<boolean> {
  if (await leases.tryAcquire(name, holder, now, expiresAt)) return true;
  if (!isGone) return false;
  const current = await leases.holderOf(name);
  // Released meanwhile: the next try takes it.
  if (current === undefined) return false;
  if (!(await isGone(instanceOfHolder(current)))) return false;
  return leases.takeFrom(name, current, holder, expiresAt);
}
