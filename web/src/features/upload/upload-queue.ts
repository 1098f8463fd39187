import i18next from 'i18next';
import { ApiError } from '../../api/api-error.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { useUploadStore, type UploadJob } from '../../stores/upload-store.ts';
import { askReplace } from './ask-replace.ts';
import { startPostTransfer } from '../../api/uploads/post-transfer.ts';
import { SpeedMeter } from './upload-progress.ts';
import { startTusTransfer, type Transfer } from '../../api/uploads/tus-transfer.ts';
import { UI_LIMITS } from '../../config/ui-limits.ts';

/** A job as the queue needs it: what the panel shows plus the bytes and the replace choice. */
export interface UploadRequest {
  path: string;
  label: string;
  file?: File;
  override: boolean;
}

interface QueuedJob extends UploadRequest {
  id: number;
}

interface RunningJob {
  job: QueuedJob;
  transfer: Transfer;
  meter: SpeedMeter;
}

/*
 * The upload queue: jobs wait, at most five run at once, progress reaches the
 * panel at most every 100 ms, and when nothing waits or runs the run ends (warning removed,
 * success notice, progress reset, listings reloaded). Module state, because uploads outlive the
 * components that start them.
 */
const waiting: QueuedJob[] = [];
const running = new Map<number, RunningJob>();
/** Jobs whose name clash is being asked about: the run is not over while they wait. */
const asking = new Set<number>();
const progress = new Map<number, Partial<UploadJob>>();
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let succeeded = 0;
let nextId = 1;
const finishedListeners = new Set<() => void>();

// Signing out ends the session the uploads run under: stop them now rather than let each one
// fail on its next request (on the login page, with nobody to read why).
useSessionStore.subscribe((state, previous) => {
  if (previous.token && !state.token && isUploading()) cancelAllUploads();
});

/** Queues files and folders; folders first, so empty ones exist before anything lands in them. */
export function enqueueUploads(requests: UploadRequest[]): void {
  if (requests.length === 0) return;
  const jobs = [...requests]
    .sort((a, b) => Number(b.path.endsWith('/')) - Number(a.path.endsWith('/')))
    .map((request) => ({ ...request, id: nextId++ }));
  useUploadStore.getState().add(
    jobs.map((job) => ({
      id: job.id,
      path: job.path,
      label: job.label,
      isDir: job.path.endsWith('/'),
      size: job.file?.size ?? 0,
      loaded: 0,
      speed: 0,
      status: 'queued' as const,
    })),
  );
  waiting.push(...jobs);
  window.addEventListener('beforeunload', warnBeforeLeaving);
  pump();
}

/**
 * Cancels one job: a waiting one is dropped, a running one is aborted and terminated on the
 * server (no partial file appears), a finished or failed one leaves the panel.
 */
export function cancelUpload(id: number): void {
  const index = waiting.findIndex((job) => job.id === id);
  if (index >= 0) waiting.splice(index, 1);
  stopRunning(id);
  asking.delete(id);
  progress.delete(id);
  useUploadStore.getState().remove(new Set([id]));
  pump();
}

/** Cancels everything that waits or runs and clears the panel. */
export function cancelAllUploads(): void {
  waiting.length = 0;
  for (const id of [...running.keys()]) stopRunning(id);
  asking.clear();
  progress.clear();
  useUploadStore.getState().remove(new Set(useUploadStore.getState().jobs.map((job) => job.id)));
  pump();
}

/** Calls a listener whenever a run ends (the listing reload hooks in here). */
export function onUploadsFinished(listener: () => void): () => void {
  finishedListeners.add(listener);
  return () => finishedListeners.delete(listener);
}

/** Whether anything is waiting, running or being asked about. */
export function isUploading(): boolean {
  return waiting.length > 0 || running.size > 0 || asking.size > 0;
}

function warnBeforeLeaving(event: BeforeUnloadEvent): void {
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = '';
}

function pump(): void {
  while (running.size < UI_LIMITS.concurrentUploads && waiting.length > 0) start(waiting.shift()!);
  if (!isUploading()) finishRun();
}

function start(job: QueuedJob): void {
  const meter = new SpeedMeter();
  const options = {
    override: job.override,
    onProgress: (loaded: number) => reportProgress(job.id, meter, loaded),
  };
  // Empty files and folders are one empty POST; every byte of a real file goes through tus.
  const transfer =
    job.file && job.file.size > 0
      ? startTusTransfer(job.path, job.file, options)
      : startPostTransfer(job.path, options);
  running.set(job.id, { job, transfer, meter });
  setJob(job.id, { status: 'running', loaded: 0, speed: 0, error: undefined });
  transfer.done.then(
    () => finishJob(job, transfer),
    (error: unknown) => void failJob(job, transfer, error),
  );
}

/** Progress reaches the store in one batch per 100 ms. */
function reportProgress(id: number, meter: SpeedMeter, loaded: number): void {
  progress.set(id, { loaded, speed: meter.sample(performance.now(), loaded) });
  flushTimer ??= setTimeout(flushProgress, UI_LIMITS.uploadProgressThrottleMs);
}

function flushProgress(): void {
  flushTimer = null;
  useUploadStore.getState().update(progress);
  progress.clear();
}

function setJob(id: number, patch: Partial<UploadJob>): void {
  progress.delete(id);
  useUploadStore.getState().update(new Map([[id, patch]]));
}

/** True when the transfer is still the job's current one (not cancelled or restarted). */
function isCurrent(job: QueuedJob, transfer: Transfer): boolean {
  return running.get(job.id)?.transfer === transfer;
}

function finishJob(job: QueuedJob, transfer: Transfer): void {
  if (!isCurrent(job, transfer)) return;
  running.delete(job.id);
  succeeded += 1;
  setJob(job.id, { status: 'done', loaded: job.file?.size ?? 0, speed: 0 });
  pump();
}

async function failJob(job: QueuedJob, transfer: Transfer, error: unknown): Promise<void> {
  if (!isCurrent(job, transfer)) return;
  running.delete(job.id);
  // The name appeared after the check before queueing (or another upload holds it): ask.
  if (error instanceof ApiError && error.kind === 'conflict' && !job.override) {
    asking.add(job.id);
    setJob(job.id, { status: 'queued', loaded: 0, speed: 0 });
    pump();
    const replace = await askReplace([job.label]);
    if (!asking.delete(job.id)) return;
    if (replace) waiting.unshift({ ...job, override: true });
    else useUploadStore.getState().remove(new Set([job.id]));
    pump();
    return;
  }
  const message = failureMessage(error);
  setJob(job.id, { status: 'failed', speed: 0, error: message });
  notifyFailure(error, i18next.t('upload.failed', { name: job.label, message }));
  pump();
}

/** What the panel says about a failure (ApiError already speaks to people). */
function failureMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function stopRunning(id: number): void {
  const current = running.get(id);
  if (!current) return;
  running.delete(id);
  current.transfer.cancel().catch((error: unknown) => {
    // The upload may have finished or expired meanwhile; nothing is left to remove then.
    console.warn('Cabinet: cancelling an upload failed', error);
  });
}

/** Nothing waits or runs: end the run. */
function finishRun(): void {
  window.removeEventListener('beforeunload', warnBeforeLeaving);
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  progress.clear();
  const store = useUploadStore.getState();
  const finished = store.jobs.filter((job) => job.status === 'done').map((job) => job.id);
  // Failed jobs stay in the panel with their error until dismissed; the rest is reset.
  store.remove(new Set(finished));
  if (succeeded > 0) notifySuccess(i18next.t('upload.done'));
  const hadWork = succeeded > 0 || finished.length > 0;
  succeeded = 0;
  if (hadWork) for (const listener of finishedListeners) listener();
}
