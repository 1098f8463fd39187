/**
 * Waits between attempts after a failure: 0, 1, 2, 4, 8 … seconds, at most 20, one entry per
 * retry the server's TusSettings allow. A connection that drops (or a server that restarts)
 * within that time resumes from the offset the server reports instead of starting over.
 */
export function retryDelays(retryCount: number): number[] {
  return Array.from({ length: Math.max(0, retryCount) }, (_, attempt) =>
    attempt === 0 ? 0 : Math.min(20_000, 1000 * 2 ** (attempt - 1)),
  );
}

/**
 * Whether a failed upload request is worth sending again: no reply (0), a proxy that cannot reach
 * the server (502, 504), or a server that is stopping (503; 423 to tus requests). Anything else
 * is an answer a retry cannot change (507 quota, 413 too large, 403, 409, other 4xx, a 500).
 */
export function isTransientStatus(status: number): boolean {
  // The same away statuses as connection-monitor's isServerAwayStatus (that module reads the page).
  return status === 0 || status === 423 || status === 502 || status === 503 || status === 504;
}
