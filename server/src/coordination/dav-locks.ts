import type { DavLockRow, DavLocksRepo } from '../store/dav-locks.repo.ts';
import type { NamedLock } from './named-lock.ts';

/** A WebDAV lock: paths are from the served root, so every user's view of a file sees its locks. */
export type DavLock = DavLockRow;

/** What LOCK asks for; the implementation adds the token and the expiry. */
export type DavLockRequest = Omit<DavLock, 'expiresAt'>;

/**
 * WebDAV locks (RFC 4918 class 2), which live longer than a request and must be seen by every
 * instance: in memory for one process, in the database when instances share it. Expired locks
 * vanish on their own. Creation checks conflicts under a named lock, so two instances never both
 * grant an exclusive lock on one path.
 */
export interface DavLocks {
  /** Every live lock. */
  live(): Promise<DavLock[]>;
  /**
   * Grants `request` unless `conflicts` (given the live locks) names a conflicting lock; returns
   * the granted lock or the conflicting ones.
   */
  acquire(
    request: DavLockRequest,
    conflicts: (live: DavLock[]) => DavLock[],
  ): Promise<{ granted: DavLock } | { conflicts: DavLock[] }>;
  /** Pushes a lock's expiry out by a new timeout; undefined when it is gone. */
  refresh(token: string, timeoutSeconds: number): Promise<DavLock | undefined>;
  remove(tokens: readonly string[]): Promise<void>;
}

const LOCK_NAME = 'dav-locks';

/** Locks of one process. */
export class MemoryDavLocks implements DavLocks {
  private readonly locks = new Map<string, DavLock>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Synchronous, so a check and the grant that follows it cannot interleave with another. */
  private liveNow(): DavLock[] {
    const at = this.now();
    for (const [token, lock] of this.locks) if (lock.expiresAt <= at) this.locks.delete(token);
    return [...this.locks.values()];
  }

  live(): Promise<DavLock[]> {
    return Promise.resolve(this.liveNow());
  }

  acquire(
    request: DavLockRequest,
    conflicts: (live: DavLock[]) => DavLock[],
  ): Promise<{ granted: DavLock } | { conflicts: DavLock[] }> {
    const found = conflicts(this.liveNow());
    if (found.length > 0) return Promise.resolve({ conflicts: found });
    const granted = { ...request, expiresAt: this.now() + request.timeoutSeconds * 1000 };
    this.locks.set(granted.token, granted);
    return Promise.resolve({ granted });
  }

  refresh(token: string, timeoutSeconds: number): Promise<DavLock | undefined> {
    this.liveNow();
    const lock = this.locks.get(token);
    if (!lock) return Promise.resolve(undefined);
    const refreshed = { ...lock, timeoutSeconds, expiresAt: this.now() + timeoutSeconds * 1000 };
    this.locks.set(token, refreshed);
    return Promise.resolve(refreshed);
  }

  remove(tokens: readonly string[]): Promise<void> {
    for (const token of tokens) this.locks.delete(token);
    return Promise.resolve();
  }
}

/** Locks in the database, for instances that share it. */
export class DatabaseDavLocks implements DavLocks {
  constructor(
    private readonly repo: DavLocksRepo,
    private readonly lock: NamedLock,
    private readonly now: () => number = Date.now,
  ) {}

  live(): Promise<DavLock[]> {
    return this.repo.live(this.now());
  }

  acquire(
    request: DavLockRequest,
    conflicts: (live: DavLock[]) => DavLock[],
  ): Promise<{ granted: DavLock } | { conflicts: DavLock[] }> {
    return this.lock.run(LOCK_NAME, async () => {
      const found = conflicts(await this.live());
      if (found.length > 0) return { conflicts: found };
      const granted = { ...request, expiresAt: this.now() + request.timeoutSeconds * 1000 };
      await this.repo.insert(granted);
      return { granted };
    });
  }

  async refresh(token: string, timeoutSeconds: number): Promise<DavLock | undefined> {
    const lock = (await this.live()).find((l) => l.token === token);
    if (!lock) return undefined;
    const expiresAt = this.now() + timeoutSeconds * 1000;
    await this.repo.refresh(token, timeoutSeconds, expiresAt);
    return { ...lock, timeoutSeconds, expiresAt };
  }

  remove(tokens: readonly string[]): Promise<void> {
    return this.repo.remove(tokens);
  }
}
