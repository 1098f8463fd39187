import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.ts';
import { useNotificationStore } from '../../stores/notification-store.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { useUploadStore } from '../../stores/upload-store.ts';
import type { Transfer, TransferOptions } from '../../api/uploads/tus-transfer.ts';

/** A transfer the test finishes by hand. */
interface FakeTransfer extends Transfer {
  path: string;
  options: TransferOptions;
  resolve(): void;
  reject(error: Error): void;
  cancel: ReturnType<typeof vi.fn<() => Promise<void>>>;
}

const started: FakeTransfer[] = [];

function fakeTransfer(path: string, options: TransferOptions): FakeTransfer {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const transfer = {
    path,
    options,
    done,
    resolve,
    reject,
    cancel: vi.fn<() => Promise<void>>(async () => {}),
  };
  started.push(transfer);
  return transfer;
}

vi.mock('../../api/uploads/tus-transfer.ts', () => ({
  startTusTransfer: (path: string, _file: File, options: TransferOptions) =>
    fakeTransfer(path, options),
}));
vi.mock('../../api/uploads/post-transfer.ts', () => ({
  startPostTransfer: (path: string, options: TransferOptions) => fakeTransfer(path, options),
}));
const answers: boolean[] = [];
vi.mock('./ask-replace.ts', () => ({ askReplace: async () => answers.shift() ?? false }));

// The queue warns before leaving through window (and the page configuration reads it); node has
// none, so a stand-in is installed before any import runs.
const page = vi.hoisted(() => {
  const target = new EventTarget();
  vi.stubGlobal('window', target);
  return target;
});

const { cancelUpload, enqueueUploads, isUploading, onUploadsFinished } =
  await import('./upload-queue.ts');

const file = (size: number) => new File([new Uint8Array(size)], 'f');
const request = (path: string, size = 10) => ({
  path,
  label: path,
  file: file(size),
  override: false,
});
const statuses = () => useUploadStore.getState().jobs.map((job) => job.status);
const settle = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  started.length = 0;
  useUploadStore.setState({ jobs: [] });
  useNotificationStore.setState({ notifications: [] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the upload queue', () => {
  it('runs at most five jobs at once, folders first, and starts the next when one ends', async () => {
    enqueueUploads([1, 2, 3, 4, 5, 6].map((n) => request(`/f${n}`)).concat(request('/dir/', 0)));
    expect(started.map((t) => t.path)).toEqual(['/dir/', '/f1', '/f2', '/f3', '/f4']);
    expect(statuses().filter((s) => s === 'queued')).toHaveLength(2);
    started[0]!.resolve();
    await settle();
    expect(started).toHaveLength(6);
    for (const transfer of started.slice(1)) transfer.resolve();
    await settle();
    started[6]!.resolve();
    await settle();
    expect(isUploading()).toBe(false);
  });

  it('batches progress into one update per 100 ms', async () => {
    vi.useFakeTimers();
    enqueueUploads([request('/big', 1000)]);
    const renders = vi.fn();
    const unsubscribe = useUploadStore.subscribe(renders);
    started[0]!.options.onProgress(100);
    started[0]!.options.onProgress(200);
    started[0]!.options.onProgress(300);
    expect(renders).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(useUploadStore.getState().jobs[0]!.loaded).toBe(300);
    unsubscribe();
    cancelUpload(useUploadStore.getState().jobs[0]!.id);
  });

  it('ends a run with a success notice, reset progress and listeners told', async () => {
    const finished = vi.fn();
    const stop = onUploadsFinished(finished);
    const leaving = vi.spyOn(page, 'removeEventListener');
    enqueueUploads([request('/a'), request('/b')]);
    started[0]!.resolve();
    await settle();
    expect(finished).not.toHaveBeenCalled();
    started[1]!.resolve();
    await settle();
    expect(finished).toHaveBeenCalledTimes(1);
    expect(useUploadStore.getState().jobs).toEqual([]);
    expect(useNotificationStore.getState().notifications.map((n) => n.kind)).toEqual(['success']);
    expect(leaving).toHaveBeenCalledWith('beforeunload', expect.any(Function));
    stop();
  });

  it('keeps a failed job with its error and goes on with the others', async () => {
    enqueueUploads([request('/bad'), request('/good')]);
    const failure = new ApiError(500, '500 Internal Server Error');
    started[0]!.reject(failure);
    started[1]!.resolve();
    await settle();
    const [bad] = useUploadStore.getState().jobs;
    expect(bad).toMatchObject({ path: '/bad', status: 'failed', error: failure.message });
    // A server failure is not the user's doing: the notice offers "Report issue".
    expect(useNotificationStore.getState().notifications[0]?.canReport).toBe(true);
    const kinds = useNotificationStore.getState().notifications.map((n) => n.kind);
    expect(kinds).toEqual(['error', 'success']);
    cancelUpload(bad!.id);
    expect(useUploadStore.getState().jobs).toEqual([]);
  });

  it('asks on a 409 and retries with override when the user replaces', async () => {
    answers.push(true);
    enqueueUploads([request('/clash')]);
    started[0]!.reject(new ApiError(409, '409 Conflict'));
    await settle();
    expect(started).toHaveLength(2);
    expect(started[1]!.options.override).toBe(true);
    started[1]!.resolve();
    await settle();
    expect(isUploading()).toBe(false);
  });

  it('drops a clashing job quietly when the user cancels the prompt', async () => {
    answers.push(false);
    enqueueUploads([request('/clash')]);
    started[0]!.reject(new ApiError(409, '409 Conflict'));
    await settle();
    expect(started).toHaveLength(1);
    expect(useUploadStore.getState().jobs).toEqual([]);
    expect(useNotificationStore.getState().notifications).toEqual([]);
  });

  it('cancels a running job on the server and never reports it afterwards', async () => {
    enqueueUploads([request('/a'), request('/b')]);
    const [a] = useUploadStore.getState().jobs;
    cancelUpload(a!.id);
    expect(started[0]!.cancel).toHaveBeenCalled();
    started[0]!.reject(new Error('aborted'));
    started[1]!.resolve();
    await settle();
    expect(useNotificationStore.getState().notifications.map((n) => n.kind)).toEqual(['success']);
  });

  it('stops every upload when the user signs out', () => {
    useSessionStore.setState({ token: 'a.b.c' });
    enqueueUploads([request('/a'), request('/b')]);
    useSessionStore.setState({ token: null });
    expect(started.every((transfer) => transfer.cancel.mock.calls.length === 1)).toBe(true);
    expect(useUploadStore.getState().jobs).toEqual([]);
    expect(isUploading()).toBe(false);
  });
});
