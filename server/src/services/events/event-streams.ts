import type { SettingsRepo } from '../../store/settings.repo.ts';
import type { FileRoot } from '../../fs/file-root.ts';
import type { NameIndex } from '../../tree/index/name-index.ts';
import type { FastifyBaseLogger } from 'fastify';
import {
  realTimers,
  repeat,
  systemClock,
  type BusEvent,
  type Clock,
  type EventBus,
  type Timers,
} from '../../coordination/index.ts';
import { ScopedFs } from '../../fs/scoped-fs.ts';
import type { SessionsService, SessionUser } from '../sessions.service.ts';
import { visibleChanges } from './changed-paths.ts';
import { SSE_HEARTBEAT, SSE_RETRY_MS, sseEvent } from './sse-format.ts';

/** Where a stream's text goes (the HTTP response). */
export interface StreamSink {
  write(chunk: string): void;
  end(): void;
}

export interface EventStreamsOptions {
  /** Between keep-alive comments (default 25 s, under the usual 30–60 s proxy idle timeouts). */
  heartbeatMs?: number;
  /** Changed paths are gathered this long and then sent together (default 150 ms). */
  changeDelayMs?: number;
  /** Changes this recent are told to a stream that opens after them (default 30 s). */
  recentMs?: number;
  /** The clock of the recent changes (default the system's). */
  now?: Clock;
  /** The waits of the keep-alive beat and of gathering changes (default real timers). */
  timers?: Timers;
}

/** Most changes kept for streams that open after them; past this, "anything may have changed". */
const RECENT_MAX = 256;

/** A changed real path, and when this instance heard of it. */
interface RecentChange {
  readonly real: string;
  readonly at: number;
}

interface Connection {
  token: string;
  userId: number;
  sink: StreamSink;
  /** Bus events that arrived while the replay was read, sent after it; null once live. */
  held: BusEvent[] | null;
  /**
   * The last id its replay sent: an event the bus delivers later with an id no greater was in
   * the replay already. Database mode hears of events after they are stored, so one published
   * just before a reconnect can come both from the replay and, a moment later, live.
   */
  replayedUpTo: number;
}

/** What this uses of the runtime's context, by name (runtime.ts passes it; docs/architecture.md). */
export interface EventStreamsDeps {
  files: FileRoot;
  settings: SettingsRepo;
  search: Pick<NameIndex, 'onPathChanged'>;
  log: FastifyBaseLogger;
}

/**
 * The event streams of this instance (`GET /api/events`, docs/jobs.md): each signed-in page holds
 * one. Two kinds of events reach it:
 *
 * - bus events (`job`, …) addressed to its user, numbered by the bus: each carries its id, and a
 *   stream opened with a Last-Event-ID first replays what its user missed (or gets `resync`);
 * - `changed` (a path in the user's scope changed on disk), seen by this instance's folder watches
 *   and by its own writes; no id, since a reconnecting page re-reads its folder anyway.
 *
 * Every batch of changes re-authenticates each stream's token, so a revoked session or a deleted
 * user stops receiving at once, and a changed scope or rule set applies to the next batch.
 */
export class EventStreams {
  private readonly connections = new Set<Connection>();
  private readonly heartbeatMs: number;
  private readonly changeDelayMs: number;
  private pending = new Set<string>();
  /** Cancels the pending send of gathered changes. */
  private flushTimer: (() => void) | null = null;
  /** Stops the keep-alive beat. */
  private heartbeat: (() => void) | null = null;
  private unsubscribe: (() => void)[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private readonly recentMs: number;
  private readonly now: Clock;
  private readonly timers: Timers;
  /** The latest changes, oldest first, at most RECENT_MAX. */
  private recent: RecentChange[] = [];
  /** When the newest change that fell out of `recent` was heard of. */
  private forgottenAt = -Infinity;

  constructor(
    private readonly ctx: EventStreamsDeps,
    private readonly bus: EventBus,
    private readonly sessions: SessionsService,
    options: EventStreamsOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 25_000;
    this.changeDelayMs = options.changeDelayMs ?? 150;
    this.recentMs = options.recentMs ?? 30_000;
    this.now = options.now ?? systemClock;
    this.timers = options.timers ?? realTimers;
  }

  /** Number of open streams on this instance. */
  get size(): number {
    return this.connections.size;
  }

  /** Starts listening to the bus and the folder watches, and the keep-alive beat. */
  async start(): Promise<void> {
    if (this.heartbeat) return;
    await this.bus.start();
    this.unsubscribe.push(
      this.bus.subscribe((event) => this.deliver(event)),
      this.ctx.search.onPathChanged((real) => this.changed(real)),
    );
    this.heartbeat = repeat(this.timers, this.heartbeatMs, async () => {
      for (const connection of this.connections) connection.sink.write(SSE_HEARTBEAT);
    });
  }

  /**
   * Opens a stream for a signed-in user. With `lastEventId` (what the browser last received) the
   * user's events since then are replayed first, or `resync` is sent when they are no longer all
   * known. Returns the function that closes the stream (the client went away).
   */
  async open(
    user: SessionUser,
    token: string,
    lastEventId: number | null,
    sink: StreamSink,
  ): Promise<() => void> {
    const connection: Connection = {
      token,
      userId: user.id,
      sink,
      held: [],
      replayedUpTo: -Infinity,
    };
    // Registered before the replay is read, so nothing published meanwhile falls in between.
    this.connections.add(connection);
    sink.write(`retry: ${SSE_RETRY_MS}\n\n`);
    try {
      if (lastEventId === null) {
        sink.write(sseEvent('ready', {}, await this.bus.latestId()));
        await this.tellRecent(user, sink);
        // What arrived while the stream opened is news to the page (a grant revoked just then):
        // sent rather than dropped. One the page already knew of costs it a re-read, no more.
        for (const event of connection.held ?? []) {
          sink.write(sseEvent(event.type, event.data, event.id));
        }
      } else {
        const missed = Number.isNaN(lastEventId)
          ? null
          : await this.bus.since(user.id, lastEventId);
        if (missed === null) {
          sink.write(sseEvent('resync', {}, await this.bus.latestId()));
        } else {
          for (const event of missed) sink.write(sseEvent(event.type, event.data, event.id));
        }
        const sent = missed?.at(-1)?.id ?? lastEventId;
        if (!Number.isNaN(sent)) connection.replayedUpTo = sent;
        for (const event of connection.held ?? []) {
          if (event.id > connection.replayedUpTo) {
            sink.write(sseEvent(event.type, event.data, event.id));
          }
        }
      }
    } catch (error) {
      this.connections.delete(connection);
      throw error;
    }
    connection.held = null;
    return () => {
      this.connections.delete(connection);
    };
  }

  /** Ends every stream (shutdown): browsers reconnect to another instance or after the restart. */
  closeAll(): void {
    for (const connection of this.connections) connection.sink.end();
    this.connections.clear();
  }

  /** Stops listening and ends every stream. */
  async stop(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.unsubscribe = [];
    this.heartbeat?.();
    this.heartbeat = null;
    this.flushTimer?.();
    this.flushTimer = null;
    this.closeAll();
    await this.flushing;
  }

  private deliver(event: BusEvent): void {
    for (const connection of this.connections) {
      if (connection.userId !== event.userId || event.id <= connection.replayedUpTo) continue;
      if (connection.held) connection.held.push(event);
      else connection.sink.write(sseEvent(event.type, event.data, event.id));
    }
  }

  /**
   * A new stream hears of the changes of the last moments. The page read its folder before it
   * opened the stream (a page load, a renewed session), and a change in between would otherwise
   * never reach it: the folder would stay stale until something else changed there.
   */
  private async tellRecent(user: SessionUser, sink: StreamSink): Promise<void> {
    const since = this.now() - this.recentMs;
    const recent = this.recent.filter((change) => change.at >= since).map((change) => change.real);
    if (recent.length === 0 && this.forgottenAt < since) return;
    const fs = await ScopedFs.forUser(this.ctx, user);
    const paths = this.forgottenAt >= since ? ['/'] : await visibleChanges(fs, recent);
    for (const path of paths) sink.write(sseEvent('changed', { path }));
  }

  private remember(real: string): void {
    const at = this.now();
    const since = at - this.recentMs;
    let old = 0;
    while (old < this.recent.length && this.recent[old]!.at < since) old++;
    if (old > 0 || this.recent.length >= RECENT_MAX) {
      const kept = this.recent.slice(old);
      if (kept.length >= RECENT_MAX) this.forgottenAt = kept.shift()!.at;
      this.recent = kept;
    }
    this.recent.push({ real, at });
  }

  private changed(real: string): void {
    this.remember(real);
    if (this.connections.size === 0) return;
    this.pending.add(real);
    if (this.flushTimer) return;
    this.flushTimer = this.timers.after(this.changeDelayMs, () => {
      this.flushTimer = null;
      const batch = this.pending;
      this.pending = new Set();
      this.flushing = this.flushing
        .then(() => this.sendChanges(batch))
        .catch((error: unknown) =>
          this.ctx.log.warn({ err: error }, 'event streams: sending folder changes failed'),
        );
    });
  }

  private async sendChanges(reals: Set<string>): Promise<void> {
    // One view per token per batch: the session and the user as they are now.
    const views = new Map<string, ScopedFs | null>();
    for (const connection of [...this.connections]) {
      let fs = views.get(connection.token);
      if (fs === undefined) {
        try {
          const { user } = await this.sessions.authenticate(connection.token);
          fs = user.id === connection.userId ? await ScopedFs.forUser(this.ctx, user) : null;
        } catch {
          fs = null;
        }
        views.set(connection.token, fs);
      }
      if (!this.connections.has(connection)) continue;
      if (!fs) {
        // The session ended (revoked, expired, user deleted): the stream ends with it.
        this.connections.delete(connection);
        connection.sink.end();
        continue;
      }
      const paths = await visibleChanges(fs, reals);
      if (!this.connections.has(connection)) continue;
      for (const path of paths) {
        connection.sink.write(sseEvent('changed', { path }));
      }
    }
  }
}
