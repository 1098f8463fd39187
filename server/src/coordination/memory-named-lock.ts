import type { NamedLock } from './named-lock.ts';

/**
 * Named locks within this process: a promise chain per name. A name's entry is dropped when its
 * last task ends, so idle names cost nothing.
 */
export class MemoryNamedLock implements NamedLock {
  private readonly tails = new Map<string, Promise<void>>();
  /** Never aborted: a lock in memory cannot be lost. */
  private readonly signal = new AbortController().signal;

  run<T>(name: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const result = previous.then(() => task(this.signal));
    // The next task waits for this one to settle, whether it succeeded or not.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(name, tail);
    void tail.then(() => {
      if (this.tails.get(name) === tail) this.tails.delete(name);
    });
    return result;
  }

  /** How many names have a task running or waiting (tests check that idle names are dropped). */
  get size(): number {
    return this.tails.size;
  }
}
