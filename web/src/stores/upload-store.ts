import { create } from 'zustand';

/** Where a job is in its life: waiting, sending, or finished one way or another. */
export type UploadStatus = 'queued' | 'running' | 'done' | 'failed';

/** One entry of the upload panel: a file or a folder to create, with its progress. */
export interface UploadJob {
  id: number;
  /** Scope path of the target ("/docs/a.txt", folders end with "/"). */
  path: string;
  /** What the panel shows: the path relative to the folder the user uploaded into. */
  label: string;
  isDir: boolean;
  /** Bytes to send (0 for folders and empty files). */
  size: number;
  /** Bytes the server has taken so far (refreshed at most every 100 ms). */
  loaded: number;
  /** Bytes per second over the last few seconds; 0 until measured. */
  speed: number;
  status: UploadStatus;
  /** Why the job failed (the server's text or the network error). */
  error?: string;
}

interface UploadState {
  /** Every job of the current run, in the order they were queued. */
  jobs: UploadJob[];
  /** The panel shows only its summary line. */
  isCollapsed: boolean;
  add(jobs: UploadJob[]): void;
  /** Changes several jobs at once (one render for a progress tick). */
  update(patches: ReadonlyMap<number, Partial<UploadJob>>): void;
  remove(ids: ReadonlySet<number>): void;
  setCollapsed(isCollapsed: boolean): void;
}

/**
 * What the upload panel shows. The queue (features/upload/upload-queue.ts) owns the running
 * uploads and writes their state here; components only read it.
 */
export const useUploadStore = create<UploadState>()((set) => ({
  jobs: [],
  isCollapsed: false,
  add(jobs) {
    set((s) => ({ jobs: [...s.jobs, ...jobs] }));
  },
  update(patches) {
    if (patches.size === 0) return;
    set((s) => ({
      jobs: s.jobs.map((job) => {
        const patch = patches.get(job.id);
        return patch ? { ...job, ...patch } : job;
      }),
    }));
  },
  remove(ids) {
    set((s) => ({ jobs: s.jobs.filter((job) => !ids.has(job.id)) }));
  },
  setCollapsed(isCollapsed) {
    set({ isCollapsed });
  },
}));
