/** What happened to a path on disk. */
export interface FileChange {
  kind: 'write' | 'remove' | 'rename';
  /** The real (on-disk) path that changed; for `rename` the old location. */
  real: string;
  /** For `rename`: the new real path. */
  to?: string;
  /** True when `real` may be a folder whose whole subtree changed. */
  recursive: boolean;
}

export type FileChangeListener = (change: FileChange) => void;

/**
 * A tiny synchronous emitter for changes made through ScopedFs. Caches keyed by real path
 * (thumbnails, the search index) subscribe to drop stale entries. Listeners must not throw and must
 * not block: heavy work is queued by the listener itself.
 */
export class FileChanges {
  private readonly listeners = new Set<FileChangeListener>();

  /** Subscribes; returns the function that unsubscribes. */
  on(listener: FileChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; a failing listener is isolated from the others and from the caller. */
  emit(change: FileChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A broken cache must never fail a user's write; the cache only loses an invalidation.
      }
    }
  }
}
