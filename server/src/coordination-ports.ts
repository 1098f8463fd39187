// Temporary: the shapes of the coordination primitives until server/src/coordination/ lands.
export interface NamedLock {
  run<T>(name: string, task: () => Promise<T>): Promise<T>;
}

export interface AttemptCounter {
  retryAfter(key: string, now?: number): Promise<number>;
  hit(key: string, now?: number): Promise<void>;
}

/** In-process promise chains per name. */
export class MemoryNamedLock implements NamedLock {
  private readonly tails = new Map<string, Promise<unknown>>();
  run<T>(name: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.tails.set(name, tail);
    void tail.then(() => {
      if (this.tails.get(name) === tail) this.tails.delete(name);
    });
    return run;
  }
}
