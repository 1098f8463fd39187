import type { FastifyBaseLogger } from 'fastify';
import { repeat, type Timers } from '../../coordination/timers.ts';
import type { MountReport, MountTrust } from './mount-trust.ts';
import type { NameIndex } from '../index/name-index.ts';
import type { ListingCacheSource } from '../listing/listing-cache.ts';

/** What else must hold for watches to vouch for a folder: the relay of other instances is up. */
export interface TrustGate {
  readonly connected: boolean;
}

/**
 * The listing cache's view of the index's watches, narrowed to where they can be trusted: on a
 * mount whose watches miss changes (network, FUSE, overlay) no folder counts as watched, so it is
 * neither cached nor listed from the index's names, and every listing there reads the folder. With
 * several instances on PostgreSQL, nothing counts as watched while their changes cannot arrive.
 */
export function trustedWatches(
  index: NameIndex,
  mounts: MountTrust,
  relay?: TrustGate,
): ListingCacheSource {
  const trusted = (real: string) => (relay?.connected ?? true) && mounts.trusted(real);
  return {
    isWatched: (real, folder) => trusted(real) && index.isWatched(real, folder),
    onPathChanged: (listener) => index.onPathChanged(listener),
    onResync: (listener) => index.onResync(listener),
    childrenOf: (real, folder) => (trusted(real) ? index.childrenOf(real, folder) : null),
  };
}

export interface UntrustedReconcileOptions {
  index: Pick<NameIndex, 'rebuild' | 'settled'>;
  mounts: MountTrust;
  /** Seconds between reconciliations (`--untrusted-reconcile-interval`). */
  intervalSeconds: number;
  timers: Timers;
  log: FastifyBaseLogger;
}

/**
 * Keeps search right on mounts whose watches miss changes (docs/search.md, "Any file system"): the
 * index is reconciled with the disk every interval, so a file another host wrote there is found
 * within one interval. Nothing runs when every mount the root crosses is trusted.
 */
export class UntrustedReconcile {
  private stopRepeat: (() => void) | null = null;

  constructor(private readonly options: UntrustedReconcileOptions) {}

  /** The mounts that cannot be trusted, as health reports them. */
  get untrusted(): MountReport[] {
    return this.options.mounts.untrusted;
  }

  get intervalSeconds(): number {
    return Math.max(1, this.options.intervalSeconds);
  }

  /** Says in the log which mounts are not trusted (one line each) and starts the reconciliation. */
  start(): void {
    const untrusted = this.untrusted;
    if (untrusted.length === 0 || this.stopRepeat) return;
    for (const mount of untrusted) {
      this.options.log.warn(
        { mount: mount.path, type: mount.type },
        `folder watches on the ${mount.type} mount at ${mount.path} of the root miss changes ` +
          `made elsewhere: listings there are read each time, search reconciles every ` +
          `${this.intervalSeconds} s`,
      );
    }
    this.stopRepeat = repeat(this.options.timers, this.intervalSeconds * 1000, () =>
      this.reconcileNow(),
    );
  }

  /** Reconciles the index with the disk now; resolves when the new table answers searches. */
  async reconcileNow(): Promise<void> {
    this.options.index.rebuild();
    await this.options.index.settled();
  }

  stop(): void {
    this.stopRepeat?.();
    this.stopRepeat = null;
  }
}
