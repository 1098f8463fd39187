import type { Scheduler } from '../../src/coordination/scheduler.ts';
import { eventually } from './eventually.ts';

/**
 * Runs a job of `kind` now, as the scheduler would when one is due, and waits until it has run.
 * The server's own scheduler polls too and may claim the due job first (then `runDue` here finds
 * nothing and returns at once), so this waits until the job is gone, wherever it ran.
 */
export async function runJobNow(scheduler: Scheduler, kind: string): Promise<void> {
  const id = await scheduler.schedule(kind, Date.now() - 1);
  await scheduler.runDue();
  await eventually(
    async () => (await scheduler.list(kind)).some((job) => job.id === id),
    (pending) => !pending,
  );
}
