/** One event addressed to one user. `id` orders the events of the whole bus. */
export interface BusEvent {
  id: number;
  userId: number;
  /** The SSE event name (`job`, …). */
  type: string;
  data: unknown;
}

export type BusListener = (event: BusEvent) => void;

/**
 * Events for users, handed to every instance's event streams (docs/jobs.md): a job running on one
 * instance reaches the browser connected to another. Implementations keep a bounded window of
 * recent events so a reconnecting stream can replay what it missed.
 */
export interface EventBus {
  /** Sends an event to every stream of `userId` on every instance; resolves with its id. */
  publish(userId: number, type: string, data: unknown): Promise<number>;
  /** Every event of every user, as it arrives, in id order; returns the unsubscribe function. */
  subscribe(listener: BusListener): () => void;
  /**
   * The events of `userId` after `afterId`, oldest first, or null when some of them may have been
   * forgotten (or `afterId` was never handed out): the stream then tells the client to resync.
   */
  since(userId: number, afterId: number): Promise<BusEvent[] | null>;
  /** The newest id handed out (0 before the first): a new stream's starting point. */
  latestId(): Promise<number>;
  /**
   * Starts delivering (database mode: from the newest event now, polling for later ones). Events
   * published before are only reachable through `since`.
   */
  start(): Promise<void>;
  /** Stops the polling (database mode). */
  close(): Promise<void>;
}
