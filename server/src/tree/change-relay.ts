import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Timers } from '../coordination/timers.ts';
import type { FileChange, FileChanges } from './changes.ts';
import type { NoticeHandlers, NoticeListener } from '../store/notices.ts';

/** The channel every instance's changes travel on. */
export const TREE_CHANNEL = 'cabinet_tree';
/** NOTIFY payloads must stay under 8000 bytes; a longer change is told as "anything changed". */
const MAX_PAYLOAD = 7900;
/** Longest wait for this instance's own sync notice before it stops trusting what it holds. */
const SYNC_TIMEOUT_MS = 5_000;
/** Waits before the listening connection is opened again after it broke. */
const RECONNECT_MS = 1_000;

/** How the relay reaches the database (store/notices.ts over PostgreSQL; tests may pass others). */
export interface RelayTransport {
  listen(channels: readonly string[], handlers: NoticeHandlers): Promise<NoticeListener>;
  notify(channel: string, payload: string): Promise<void>;
}

export interface ChangeRelayOptions {
  transport: RelayTransport;
  /** ScopedFs's change feed: what this instance writes, and where others' writes are told. */
  changes: FileChanges;
  /** This instance's real root; paths travel relative to it (hosts may mount the root elsewhere). */
  realRoot: string;
  log: FastifyBaseLogger;
  timers: Timers;
  /**
   * Notices may have been missed (the connection broke, a change too long to tell): everything
   * kept from watches and notices must be read again (the listing cache cleared, the index rebuilt).
   */
  resync(): void;
}

/** What a listing waits for: the changes other instances committed before it are applied. */
export interface InstanceChanges {
  synced(): Promise<void>;
}

/** One change as it travels: relative paths, and the sending instance's tag. */
interface Notice {
  /** The sender's tag: an instance skips its own. */
  i: string;
  k?: FileChange['kind'];
  p?: string;
  t?: string;
  r?: boolean;
  /** Anything may have changed (a change too long for one notice). */
  all?: boolean;
}

/**
 * Carries the changes made through one instance to every other instance on the same PostgreSQL
 * database at once (`LISTEN`/`NOTIFY`, docs/deploy.md), where they are told to ScopedFs's change
 * feed as if made there: the listing cache drops the folders, the search index re-checks the
 * paths, live folders (the event stream) send `changed`.
 *
 * Read-your-writes across instances: a write's reply waits until its notice is committed
 * (`flushed`), and a listing first waits for a notice it sends itself on a channel of its own
 * (`synced`): PostgreSQL delivers notices in commit order, so every change committed before is
 * applied when its own comes back.
 */
export class ChangeRelay implements InstanceChanges {
  private readonly tag = randomBytes(8).toString('hex');
  private readonly syncChannel = `${TREE_CHANNEL}_sync_${this.tag}`;
  private listener: NoticeListener | null = null;
  /** Telling a received change to the feed: the feed's listener must not send it back out. */
  private delivering = false;
  private readonly sending = new Set<Promise<void>>();
  private syncCount = 0;
  /** A sync not sent yet, which callers may still join. */
  private nextSync: Promise<void> | null = null;
  private readonly syncWaiters = new Map<string, () => void>();
  private unsubscribe: (() => void) | null = null;
  private cancelReconnect: (() => void) | null = null;
  private closed = false;
  /** The listening connection broke and is not back yet. */
  private down = false;

  constructor(private readonly options: ChangeRelayOptions) {}

  /**
   * Whether notices reach this instance now. While not, nothing kept from notices can be trusted
   * (the listing cache serves no folder).
   */
  get connected(): boolean {
    return this.listener !== null;
  }

  /** Starts listening, then sends this instance's own changes out. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.options.changes.on((change) => {
      if (!this.delivering) this.send(change);
    });
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.cancelReconnect?.();
    await this.flushed();
    await this.listener?.close();
    this.listener = null;
    for (const wake of this.syncWaiters.values()) wake();
    this.syncWaiters.clear();
  }

  /** Resolves when every change told so far is committed (a write's reply waits for this). */
  async flushed(): Promise<void> {
    while (this.sending.size > 0) await Promise.all(this.sending);
  }

  /** Whether changes of this instance are still on their way out. */
  get busy(): boolean {
    return this.sending.size > 0;
  }

  /**
   * Resolves once every change another instance committed before this call was applied here (a
   * listing waits for this). Not connected, it resolves at once: nothing is trusted meanwhile.
   */
  synced(): Promise<void> {
    if (!this.listener) return Promise.resolve();
    // Listings asked for together share one notice, sent after each of them began.
    this.nextSync ??= Promise.resolve().then(() => {
      this.nextSync = null;
      return this.syncOnce();
    });
    return this.nextSync;
  }

  private async syncOnce(): Promise<void> {
    if (!this.listener) return;
    const token = `${++this.syncCount}`;
    const arrived = new Promise<void>((resolve) => this.syncWaiters.set(token, resolve));
    let cancel = (): void => undefined;
    const timedOut = new Promise<void>((resolve) => {
      cancel = this.options.timers.after(SYNC_TIMEOUT_MS, () => {
        if (!this.syncWaiters.delete(token)) return;
        this.options.log.warn('instance changes: no answer from the database; reading afresh');
        this.options.resync();
        resolve();
      });
    });
    try {
      await this.options.transport.notify(this.syncChannel, token);
    } catch (error) {
      this.syncWaiters.delete(token);
      cancel();
      // The database is unreachable: nothing kept can be vouched for.
      this.options.resync();
      this.options.log.warn({ err: error }, 'instance changes: sync notice failed');
      return;
    }
    await Promise.race([arrived, timedOut]);
    cancel();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    try {
      this.listener = await this.options.transport.listen([TREE_CHANNEL, this.syncChannel], {
        notice: (channel, payload) => this.received(channel, payload),
        lost: (error) => this.lost(error),
      });
    } catch (error) {
      this.lost(error);
    }
  }

  private lost(error: unknown): void {
    const was = this.listener;
    this.listener = null;
    void was?.close();
    if (this.closed) return;
    // Said once per outage, not at every attempt to reconnect.
    if (!this.down) {
      this.down = true;
      this.options.log.warn(
        { err: error },
        'instance changes: listening to the database failed; reading afresh until it is back',
      );
    }
    for (const wake of this.syncWaiters.values()) wake();
    this.syncWaiters.clear();
    this.options.resync();
    this.cancelReconnect?.();
    this.cancelReconnect = this.options.timers.after(RECONNECT_MS, () => {
      this.cancelReconnect = null;
      // Whatever was sent while away is unknown: read afresh once more when back.
      void this.connect().then(() => {
        if (!this.listener) return;
        this.down = false;
        this.options.log.info('instance changes: listening to the database again');
        this.options.resync();
      });
    });
  }

  private send(change: FileChange): void {
    const p = this.relative(change.real);
    if (p === null) return;
    const notice: Notice = { i: this.tag, k: change.kind, p, r: change.recursive };
    if (change.to !== undefined) {
      const t = this.relative(change.to);
      if (t === null) return;
      notice.t = t;
    }
    let payload = JSON.stringify(notice);
    if (Buffer.byteLength(payload) > MAX_PAYLOAD)
      payload = JSON.stringify({ i: this.tag, all: true });
    const sent: Promise<void> = this.options.transport
      .notify(TREE_CHANNEL, payload)
      .catch((error: unknown) => {
        // The others cannot hear of it: they find out at their next reconciliation.
        this.options.log.warn({ err: error }, 'instance changes: could not tell other instances');
      })
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private received(channel: string, payload: string): void {
    if (channel === this.syncChannel) {
      const wake = this.syncWaiters.get(payload);
      this.syncWaiters.delete(payload);
      wake?.();
      return;
    }
    if (channel !== TREE_CHANNEL) return;
    let notice: Notice;
    try {
      notice = JSON.parse(payload) as Notice;
    } catch {
      return;
    }
    if (notice.i === this.tag) return;
    if (notice.all) return this.options.resync();
    if (typeof notice.p !== 'string' || !notice.k) return;
    const change: FileChange = {
      kind: notice.k,
      real: this.absolute(notice.p),
      recursive: notice.r === true,
    };
    if (typeof notice.t === 'string') change.to = this.absolute(notice.t);
    this.delivering = true;
    try {
      this.options.changes.emit(change);
    } finally {
      this.delivering = false;
    }
  }

  /** A real path as it travels: relative to the root, `/`-separated; null outside the root. */
  private relative(real: string): string | null {
    const relative = path.relative(this.options.realRoot, real);
    if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
      return null;
    }
    return relative.split(path.sep).join('/');
  }

  private absolute(relative: string): string {
    // A notice never leads out of the root, whatever it holds.
    const parts = relative
      .split('/')
      .filter((part) => part !== '' && part !== '.' && part !== '..');
    return path.join(this.options.realRoot, ...parts);
  }
}
