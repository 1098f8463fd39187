/** The right to work on one upload, held by one request at a time. */
export interface UploadLease {
  /** Aborted when a newer request for the same upload takes over, on this instance or another. */
  readonly signal: AbortSignal;
  /** Gives the upload back; safe to call more than once. */
  release(): void;
}

/**
 * Serialises requests on one upload. The tus protocol forbids parallel PATCHes on one upload, so
 * a new request means its client gave up on the old one (a dropped connection the server has not
 * noticed yet, a retry): the newcomer aborts the holder and waits until it has flushed and
 * fsynced what it received, then reads a stable offset.
 */
export interface UploadLeases {
  /**
   * Takes upload `id`, aborting and awaiting its current holder first. If a still newer request
   * takes over while this one waits, the lease comes back already aborted.
   */
  acquire(id: string): Promise<UploadLease>;
  /** True while a request (of any instance) works on upload `id`; the sweeper skips such uploads. */
  isHeld(id: string): Promise<boolean>;
  /** Aborts every holder of this instance (shutdown) and waits until all have released. */
  abortAll(): Promise<void>;
}
