import { create } from 'zustand';
import type { FileJob } from '@cabinet/protocol';
import { UI_LIMITS } from '../config/ui-limits.ts';

/** Where the ids of the finished jobs the user closed are kept, so they stay closed on reload. */
const DISMISSED_KEY = 'cabinet.jobs.dismissed';
/** Where the panel's open or collapsed state is kept (the user's last choice). */
const COLLAPSED_KEY = 'cabinet.jobs.collapsed';

function readDismissed(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The remembered choice; without one, collapsed on a phone (one line at the foot of a small
 * screen) and open beside the sidebar on a wide one.
 */
function readCollapsed(): boolean {
  try {
    const value = localStorage.getItem(COLLAPSED_KEY);
    if (value === 'true' || value === 'false') return value === 'true';
  } catch {
    // Private mode: the default below.
  }
  return (
    typeof window !== 'undefined' &&
    window.matchMedia(`(max-width: ${UI_LIMITS.mobileBreakpointPx}px)`).matches
  );
}

interface FileJobsState {
  /** The user's jobs by id, as the server last told (GET /api/jobs and `job` events). */
  jobs: Record<string, FileJob>;
  /**
   * When this page saw a job end successfully (Date.now()): the panel shows it for a moment,
   * then lets it go. Jobs that had already ended when the list was read count from their end.
   */
  doneSeenAt: Record<string, number>;
  /** Finished jobs the user closed in the panel. */
  dismissed: string[];
  isCollapsed: boolean;
  /** Whether the panel lists the recently ended jobs instead of the current ones. */
  showsRecent: boolean;
  /** Takes a job's state unless an older one (updates can cross a list read). */
  put(job: FileJob): void;
  putAll(jobs: FileJob[]): void;
  dismiss(ids: string[]): void;
  setCollapsed(value: boolean): void;
  setShowsRecent(value: boolean): void;
  /** Whose jobs these are (the signed-in user's id), once the panel has said. */
  owner: number | undefined;
  /** Takes the signed-in user: another one than before starts from nothing (their own list). */
  own(owner: number): void;
}

/** The moment a job that ended well was seen end: now, unless it was known done already. */
function doneSeen(state: FileJobsState, job: FileJob, now: number): number | undefined {
  if (job.state !== 'done') return undefined;
  return state.doneSeenAt[job.id] ?? now;
}

/** The Jobs panel's state (docs/jobs.md). */
export const useFileJobsStore = create<FileJobsState>((set) => ({
  jobs: {},
  doneSeenAt: {},
  dismissed: readDismissed(),
  isCollapsed: readCollapsed(),
  showsRecent: false,
  owner: undefined,
  put: (job) =>
    set((state) => {
      const known = state.jobs[job.id];
      if (known && known.updatedAt > job.updatedAt) return state;
      const seen = doneSeen(state, job, Date.now());
      return {
        jobs: { ...state.jobs, [job.id]: job },
        doneSeenAt: seen === undefined ? state.doneSeenAt : { ...state.doneSeenAt, [job.id]: seen },
      };
    }),
  putAll: (jobs) =>
    set((state) => {
      const next = { ...state.jobs };
      const doneSeenAt = { ...state.doneSeenAt };
      const now = Date.now();
      for (const job of jobs) {
        const known = next[job.id];
        if (known && known.updatedAt > job.updatedAt) continue;
        next[job.id] = job;
        // A job this page never saw running ended before it looked: from the moment the server
        // says it ended (a page opened long after sees it as history, one opened just then as news).
        const seen = doneSeen(state, job, known ? now : Math.min(job.updatedAt, now));
        if (seen !== undefined) doneSeenAt[job.id] = seen;
      }
      return { jobs: next, doneSeenAt };
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
  setCollapsed: (isCollapsed) => {
    try {
      localStorage.setItem(COLLAPSED_KEY, String(isCollapsed));
    } catch {
      // Private mode: remembered until the reload.
    }
    set({ isCollapsed });
  },
  setShowsRecent: (showsRecent) => set({ showsRecent }),
  own: (owner) =>
    set((state) => {
      if (state.owner === owner) return state;
      if (state.owner === undefined) return { owner };
      return { owner, jobs: {}, doneSeenAt: {}, showsRecent: false };
    }),
}));

/** Whether a job has ended (its row offers Retry or Close, not Cancel). */
export function hasEnded(job: FileJob): boolean {
  return job.state === 'done' || job.state === 'failed' || job.state === 'cancelled';
}
