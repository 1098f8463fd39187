import type { BusEvent, BusListener, EventBus } from './event-bus.ts';

export interface MemoryEventBusOptions {
  /** Events kept for replay (default 1000). */
  capacity?: number;
  now?: () => number;
}

/**
 * The event bus of one instance (`process` mode): a ring of the most recent events. Ids start at
 * the clock's milliseconds, so the ids of a restarted server are above what its clients saw
 * before and their Last-Event-ID asks for a resync instead of replaying the wrong events.
 */
export class MemoryEventBus implements EventBus {
  private readonly listeners = new Set<BusListener>();
  private readonly recent: BusEvent[] = [];
  private readonly capacity: number;
  private readonly firstId: number;
  private lastId: number;

  constructor(options: MemoryEventBusOptions = {}) {
    this.capacity = options.capacity ?? 1000;
    this.firstId = (options.now ?? Date.now)();
    this.lastId = this.firstId;
  }

  publish(userId: number, type: string, data: unknown): Promise<number> {
    const event: BusEvent = { id: ++this.lastId, userId, type, data };
    this.recent.push(event);
    if (this.recent.length > this.capacity) this.recent.shift();
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken stream must not keep the event from the others.
      }
    }
    return Promise.resolve(event.id);
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  since(userId: number, afterId: number): Promise<BusEvent[] | null> {
    const oldest = this.recent[0]?.id ?? this.lastId + 1;
    // Outside what this instance handed out and still keeps: a previous run's id, or forgotten.
    if (afterId < this.firstId || afterId > this.lastId || afterId < oldest - 1) {
      return Promise.resolve(null);
    }
    return Promise.resolve(this.recent.filter((e) => e.id > afterId && e.userId === userId));
  }

  latestId(): Promise<number> {
    return Promise.resolve(this.lastId);
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
