import { create } from 'zustand';
import type { FileJob } from '@cabinet/protocol';

/** Where the ids of the finished jobs the user closed are kept, so they stay closed on reload. */
const DISMISSED_KEY = 'cabinet.jobs.dismissed';

function readDismissed(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

interface FileJobsState {
  /** The user's jobs by id, as the server last told (GET /api/jobs and `job` events). */
  jobs: Record<string, FileJob>;
  /** Finished jobs the user closed in the panel. */
  dismissed: string[];
  isCollapsed: boolean;
  /** Takes a job's state unless an older one (updates can cross a list read). */
  put(job: FileJob): void;
  putAll(jobs: FileJob[]): void;
  dismiss(ids: string[]): void;
  setCollapsed(value: boolean): void;
}

/** The Jobs panel's state (docs/jobs.md). */
export const useFileJobsStore = create<FileJobsState>((set) => ({
  jobs: {},
  dismissed: readDismissed(),
  isCollapsed: false,
  put: (job) =>
    set((state) => {
      const known = state.jobs[job.id];
      if (known && known.updatedAt > job.updatedAt) return state;
      return { jobs: { ...state.jobs, [job.id]: job } };
    }),
  putAll: (jobs) =>
    set((state) => {
      const next = { ...state.jobs };
      for (const job of jobs) {
        const known = next[job.id];
        if (!known || known.updatedAt <= job.updatedAt) next[job.id] = job;
      }
      return { jobs: next };
    }),
  dismiss: (ids) =>
    set((state) => {
      // Only the last few hundred are worth remembering: the server lists 50.
      const dismissed = [...state.dismissed, ...ids].slice(-500);
      try {
        localStorage.setItem(DISMISSED_KEY, JSON.stringify(dismissed));
      } catch {
        // Private mode: they stay closed until the reload.
      }
      return { dismissed };
    }),
  setCollapsed: (isCollapsed) => set({ isCollapsed }),
}));

/** Whether a job has ended (its row offers Retry or Close, not Cancel). */
export function hasEnded(job: FileJob): boolean {
  return job.state === 'done' || job.state === 'failed' || job.state === 'cancelled';
}
