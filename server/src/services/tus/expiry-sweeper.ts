import type { FastifyBaseLogger } from 'fastify';
import type { UploadLeases } from '../../coordination/index.ts';
import type { UploadPlace } from '../../fs/scoped-fs.ts';
import type { UploadsRepo } from '../../store/uploads.repo.ts';

/** Shortest and longest pause between two sweeps. */
const MIN_INTERVAL_MS = 1000;
const MAX_INTERVAL_MS = 10 * 60 * 1000;

/**
 * How often abandoned uploads are looked for: a quarter of their lifetime, so an upload is gone at
 * most 25 % after it expired, but never more often than every second nor less than every 10 min.
 */
export function sweepInterval(expiryMs: number): number {
  return Math.min(MAX_INTERVAL_MS, Math.max(MIN_INTERVAL_MS, Math.floor(expiryMs / 4)));
}

/** What a sweep works with. */
export interface SweepDeps {
  uploads: UploadsRepo;
  /** Removes a staging file by its recorded place, without following symlinks. */
  discard: (place: UploadPlace) => Promise<boolean>;
  locks: UploadLeases;
  log: FastifyBaseLogger;
}

/**
 * Removes uploads idle past their expiry, on any instance's behalf: each session is claimed by a
 * conditional delete, so an upload touched meanwhile is kept and two sweepers never both act;
 * uploads a request is working on (on any instance) are skipped. Staging files are removed by their recorded
 * path without following symlinks (GHSA-m9f5-2232-frp6). Returns how many staging files went.
 */
export async function sweepExpiredUploads(deps: SweepDeps, now: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = await deps.uploads.listExpired(now);
    let claimed = 0;
    for (const session of expired) {
      if (await deps.locks.isHeld(session.id)) continue;
      if (!(await deps.uploads.deleteIfExpired(session.id, now))) continue;
      claimed++;
      if (session.completed) continue;
      try {
        if (await deps.discard(session)) removed++;
      } catch (error) {
        deps.log.warn({ err: error, upload: session.id }, 'could not remove a staging file');
      }
    }
    if (claimed === 0) return removed;
  }
}
