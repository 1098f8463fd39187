import { FileJob } from '@cabinet/protocol';
import { getFileJob, listFileJobs } from '../../api/jobs/file-jobs.ts';
import { hasEnded, useFileJobsStore } from '../../stores/file-jobs-store.ts';

/** A `job` event of the stream: the job's new state (checked against the protocol). */
export function receiveJobEvent(data: unknown): void {
  const parsed = FileJob.safeParse(data);
  if (parsed.success) useFileJobsStore.getState().put(parsed.data);
}

/** Reads the user's recent jobs (at start, and after the stream missed events). */
export async function reloadJobs(): Promise<void> {
  try {
    useFileJobsStore.getState().putAll(await listFileJobs());
  } catch {
    // The panel keeps what it knows; the next stream event or reload brings the rest.
  }
}

/** How often a job is read while the page waits for its end, in case the stream is down. */
const POLL_MS = 2000;

/** Resolves with the job once it has ended or waits for an answer (the stream, or a read). */
export function waitForJob(id: string): Promise<FileJob> {
  const isSettled = (job: FileJob | undefined): job is FileJob =>
    job !== undefined && (hasEnded(job) || job.state === 'waiting');
  return new Promise((resolve) => {
    let poll: ReturnType<typeof setTimeout> | undefined;
    const finish = (job: FileJob) => {
      unsubscribe();
      if (poll) clearTimeout(poll);
      resolve(job);
    };
    const unsubscribe = useFileJobsStore.subscribe((state) => {
      const job = state.jobs[id];
      if (isSettled(job)) finish(job);
    });
    const read = async () => {
      try {
        const job = await getFileJob(id);
        useFileJobsStore.getState().put(job);
        if (isSettled(job)) return finish(job);
      } catch {
        // Offline for a moment: try again.
      }
      poll = setTimeout(() => void read(), POLL_MS);
    };
    poll = setTimeout(() => void read(), POLL_MS);
  });
}
