import type { EventsRepo } from '../store/events.repo.ts';
import type { BusEvent, BusListener, EventBus } from './event-bus.ts';
import type { CoordinationLog } from './log.ts';
import { repeat, type Timers } from './timers.ts';

/**
 * Wake-ups between instances (PostgreSQL's LISTEN/NOTIFY, store/notices.ts): a publish notifies,
 * and every listening instance reads at once instead of at its next poll.
 */
export interface EventWakeups {
  /** Calls `wake` on every notification until closed; `lost` when the connection broke. */
  listen(wake: () => void, lost: (error: unknown) => void): Promise<{ close(): Promise<void> }>;
  notify(): Promise<void>;
}

export interface DatabaseEventBusOptions {
  events: EventsRepo;
  now: () => number;
  timers: Timers;
  log: CoordinationLog;
  /** How often the instance reads events others appended (default 200 ms). */
  pollMs?: number;
  /** How long events are kept for replay (default 5 minutes). */
  retentionMs?: number;
  /**
   * Notifications that make the instance read at once. The poll stays, as the safety net for a
   * lost notification or connection, every `wakeupPollMs` (default 2 s) while listening.
   */
  wakeups?: EventWakeups;
  wakeupPollMs?: number;
}

/** Rows read per poll; a longer backlog is read on the next polls. */
const BATCH = 500;
/**
 * Ids below the newest delivered that each poll reads again. On PostgreSQL an identity value is
 * taken when an insert starts, so a row with a lower id may become visible after a higher one
 * (two instances publishing at once): reading a little behind delivers it late instead of never.
 */
const LOOKBACK_IDS = 64;
/** Pruning runs at most this often. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The event bus of several instances over one database (`database` mode): publishing appends a
 * row to `events`; every instance with streams open polls for rows past the last it delivered and
 * hands them to its listeners, its own included, so every stream sees one order. Replay reads the
 * same rows.
 */
export class DatabaseEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();
  private readonly pollMs: number;
  private readonly retentionMs: number;
  private cursor = 0;
  /** Ids delivered within the lookback window, so a row read again is not delivered twice. */
  private delivered = new Set<number>();
  private stopPolling: (() => void) | null = null;
  private lastPrune = 0;
  private closed = false;
  /** The read in progress; a wake-up meanwhile asks for another after it (reads never overlap). */
  private reading: Promise<void> | undefined;
  private readAgain = false;
  private listener: { close(): Promise<void> } | null = null;

  constructor(private readonly options: DatabaseEventBusOptions) {
    this.pollMs = options.pollMs ?? 200;
    this.retentionMs = options.retentionMs ?? 5 * 60_000;
  }

  async publish(userId: number, type: string, data: unknown): Promise<number> {
    // Delivered by the polls of every instance, this one's included.
    const id = await this.options.events.append(userId, type, data, this.options.now());
    // The row is committed: a notification now wakes readers that will find it. A lost one only
    // delays the event until the next poll.
    this.options.wakeups?.notify().catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'event bus: could not notify the other instances');
    });
    return id;
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    if (this.stopPolling || this.closed) return;
    // Read before the first stream opens, so no event published after that is skipped.
    this.cursor = await this.latestId();
    // The rows already inside the lookback window were published before: not for this start.
    const known = await this.options.events.after(
      Math.max(0, this.cursor - LOOKBACK_IDS),
      LOOKBACK_IDS,
    );
    for (const event of known) this.delivered.add(event.id);
    let every = this.pollMs;
    if (this.options.wakeups) {
      try {
        this.listener = await this.options.wakeups.listen(
          () => void this.read(),
          (error?: unknown) =>
            this.options.log.warn(
              { err: error },
              'event bus: lost its notifications; polling only',
            ),
        );
        every = Math.max(this.pollMs, this.options.wakeupPollMs ?? 2_000);
      } catch (error) {
        this.options.log.warn({ err: error }, 'event bus: cannot listen; polling only');
      }
      if (this.closed) await this.listener?.close();
    }
    this.stopPolling = repeat(this.options.timers, every, () => this.read());
  }

  async since(userId: number, afterId: number): Promise<BusEvent[] | null> {
    const range = await this.options.events.range();
    if (!range) return afterId === 0 ? [] : null;
    if (afterId > range.newest || afterId < range.oldest - 1) return null;
    const found: BusEvent[] = [];
    let after = afterId;
    for (;;) {
      const page = await this.options.events.ofUserAfter(userId, after, BATCH);
      found.push(...page);
      if (page.length < BATCH) return found;
      after = page[page.length - 1]!.id;
    }
  }

  async latestId(): Promise<number> {
    return (await this.options.events.range())?.newest ?? 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopPolling?.();
    this.stopPolling = null;
    this.listeners.clear();
    const listener = this.listener;
    this.listener = null;
    await listener?.close();
    await this.reading;
  }

  /** Reads now, or right after the read in progress (which may have missed the newest row). */
  private read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        await this.poll();
      } while (this.readAgain && !this.closed);
    })().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async poll(): Promise<void> {
    try {
      const rows = await this.options.events.after(
        Math.max(0, this.cursor - LOOKBACK_IDS),
        BATCH + LOOKBACK_IDS,
      );
      for (const event of rows) {
        if (this.delivered.has(event.id)) continue;
        this.delivered.add(event.id);
        this.cursor = Math.max(this.cursor, event.id);
        for (const listener of this.listeners) {
          try {
            listener(event);
          } catch {
            // One broken stream must not keep the event from the others.
          }
        }
      }
      for (const id of this.delivered) {
        if (id <= this.cursor - LOOKBACK_IDS) this.delivered.delete(id);
      }
      const at = this.options.now();
      if (at - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = at;
        await this.options.events.prune(at - this.retentionMs);
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'event bus: reading new events failed');
    }
  }
}
