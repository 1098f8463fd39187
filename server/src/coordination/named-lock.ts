/**
 * Mutual exclusion by name: at most one task per name runs at a time across everything sharing
 * the implementation (one process, or every instance over one database). Tasks of one name wait
 * their turn; tasks of different names never wait for each other.
 */
export interface NamedLock {
  /**
   * Runs `task` once no other task of `name` runs, and resolves or rejects as it does. `signal`
   * aborts if the lock is lost while the task runs (the database-backed lock could not keep its
   * lease alive); a task that writes shared state may check it before committing.
   */
  run<T>(name: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
}
