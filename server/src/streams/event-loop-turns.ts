/**
 * Long synchronous work on the event loop lets other requests in: once `everyMs` of it has gone
 * by since the last turn, `due()` says so and `take()` gives the event loop one turn (after I/O
 * callbacks, so a waiting request is read and answered) before the work goes on. A reply written
 * from a generator needs this even when its client reads fast: pulling the next chunk only waits
 * for microtasks, and a loopback socket rarely pushes back.
 */
export class EventLoopTurns {
  private since = performance.now();

  constructor(private readonly everyMs = 20) {}

  /** Whether `everyMs` of work has gone by since the last turn. */
  due(): boolean {
    return performance.now() - this.since > this.everyMs;
  }

  /** One turn of the event loop. */
  async take(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.since = performance.now();
  }
}
