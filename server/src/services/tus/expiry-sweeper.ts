import type { FastifyBaseLogger } from 'fastify';
import type { UploadPlace } from '../../fs/scoped-fs.ts';
import type { UploadsRepo } from '../../store/uploads.repo.ts';
import type { UploadLocks } from './upload-locks.ts';

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

/**
 * Runs `sweep` once at start and then periodically. Runs never overlap, failures are logged and
 * retried at the next tick, and the timer never keeps the process alive on its own.
 */
export class ExpirySweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly sweep: () => Promise<number>,
    private readonly intervalMs: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Sweeps now (awaited, so a restarted server starts clean) and schedules the next runs. */
  async start(): Promise<void> {
    await this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the schedule and waits for a sweep in progress. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep, unless one is already under way (then that one is awaited). */
  runOnce(): Promise<void> {
    this.running ??= this.sweep()
      .then((removed) => {
        if (removed > 0) this.log.info({ removed }, 'removed abandoned uploads');
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'upload expiry sweep failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}

/** What a sweep works with. */
export interface SweepDeps {
  uploads: UploadsRepo;
  /** Removes a staging file by its recorded place, without following symlinks. */
  discard: (place: UploadPlace) => Promise<boolean>;
  locks: UploadLocks;
  log: FastifyBaseLogger;
}

/**
 * Removes uploads idle past their expiry, on any instance's behalf: each session is claimed by a
 * conditional delete, so an upload touched meanwhile is kept and two sweepers never both act;
 * uploads a request is working on here are skipped. Staging files are removed by their recorded
 * path without following symlinks (GHSA-m9f5-2232-frp6). Returns how many staging files went.
 */
export async function sweepExpiredUploads(deps: SweepDeps, now: number): Promise<number> {
  let removed = 0;
  for (;;) {
    const expired = (await deps.uploads.listExpired(now)).filter(
      (session) => !deps.locks.isHeld(session.id),
    );
    let claimed = 0;
    for (const session of expired) {
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
