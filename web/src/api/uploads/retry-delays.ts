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
