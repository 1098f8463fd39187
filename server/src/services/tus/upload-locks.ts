/** The right to work on one upload, held by one request at a time. */
export interface UploadLease {
  /** Aborted when a newer request for the same upload takes over. */
  readonly signal: AbortSignal;
  /** Gives the upload back; safe to call more than once. */
  release(): void;
}

interface Holder {
  controller: AbortController;
  released: Promise<void>;
}

/**
 * Serialises requests on one upload within this process. The protocol forbids parallel PATCHes on
 * one upload, so a new request means its client gave up on the old one (a dropped connection that
 * the server has not noticed yet, a retry): the newcomer aborts the holder and waits until it has
 * flushed and fsynced what it received, then reads a stable offset.
 */
export class UploadLocks {
  private readonly holders = new Map<string, Holder>();

  /** Takes the lock of upload `id`, aborting and awaiting any current holder first. */
  async acquire(id: string): Promise<UploadLease> {
    for (let current = this.holders.get(id); current; current = this.holders.get(id)) {
      current.controller.abort();
      await current.released;
    }
    let resolve!: () => void;
    const holder: Holder = {
      controller: new AbortController(),
      released: new Promise<void>((r) => (resolve = r)),
    };
    this.holders.set(id, holder);
    return {
      signal: holder.controller.signal,
      release: () => {
        if (this.holders.get(id) === holder) this.holders.delete(id);
        resolve();
      },
    };
  }

  /** True while a request works on upload `id`; the sweeper leaves such uploads alone. */
  isHeld(id: string): boolean {
    return this.holders.has(id);
  }

  /** Aborts every holder (server shutdown) and waits until all have released. */
  async abortAll(): Promise<void> {
    const all = [...this.holders.values()];
    for (const holder of all) holder.controller.abort();
    await Promise.all(all.map((holder) => holder.released));
  }
}
