import { constants } from 'node:fs';
import { lstat, open, opendir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { EntryKind, ListedNames } from '../../fs/typed-names.ts';
import {
  bufferBytes,
  CHUNK,
  claimChunk,
  finishChunk,
  finishedCount,
  FINISHED,
  jobViews,
  type JobViews,
  type StatJob,
} from './child-stats-core.mjs';

const { S_IFMT, S_IFREG, O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Stats the children of a folder for a listing. One `lstat` costs ~5 µs on a small VM, most of a
 * big listing's time, so folders of more than a few thousand entries are stat'ed by a worker
 * thread and the main thread together: both claim chunks of entries from a shared counter
 * (child-stats-core.mjs). Small folders are done from the main thread alone; a worker round trip
 * would cost more. The main thread never calls the file system synchronously (issue #37): its
 * chunks go through libuv's thread pool, so a slow network file system stalls the listing that
 * asked, not every request of the process. The results are packed numbers: no `fs.Stats` object
 * outlives its `lstat`, and the worker's stay in its own small heap.
 */

/** Folders with fewer entries are stat'ed from the main thread alone. */
const SHARED_FROM = 2_000;
/**
 * An idle worker is stopped after this long, giving its memory back (10 to 25 MiB of RSS): long
 * enough for a person opening big folders one after another, short enough that a folder served
 * from the listing cache afterwards does not keep it.
 */
const IDLE_MS = 5_000;
/** The worker only holds short-lived `fs.Stats`; a small heap keeps its memory small. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 16 };
const WORKER_URL = new URL('./child-stats-worker.mjs', import.meta.url);
/** Directory entries read per trip to the thread pool. */
const DIR_BATCH = 4096;

export interface ChildStatsOptions {
  /** The worker that shares big folders' stats; without, the main thread stats them alone. */
  workers?: StatWorkers;
  /** Names whose first bytes are wanted (regular files of at most `headMaxSize` bytes). */
  wantHead?: (name: string) => boolean;
  headBytes?: number;
  headMaxSize?: number;
}

/** The lstat of each name, by index. */
export class ChildStats {
  constructor(
    private readonly views: JobViews,
    private readonly headBytes: number,
  ) {}

  /** st_mode, or -1 when the entry is gone or could not be stat'ed. */
  mode(i: number): number {
    return this.views.values[i * 4 + 2]!;
  }
  size(i: number): number {
    return this.views.values[i * 4]!;
  }
  mtimeMs(i: number): number {
    return this.views.values[i * 4 + 1]!;
  }
  /** Number of hard links (a file written through another of them raises no event here). */
  nlink(i: number): number {
    return this.views.values[i * 4 + 3]!;
  }
  /** Replaces an entry's numbers (a symlink's with its target's; mode -1 leaves it out). */
  set(i: number, size: number, mtimeMs: number, mode: number): void {
    this.views.values.set([size, mtimeMs, mode], i * 4);
  }
  /** A copy of the first bytes, when they were wanted and the entry is a small enough file. */
  head(i: number): Buffer | undefined {
    const slot = this.views.slots[i]!;
    const length = slot < 0 ? -1 : this.views.lengths[slot]!;
    if (length < 0) return undefined;
    const at = slot * this.headBytes;
    return Buffer.from(this.views.bytes.subarray(at, at + length));
  }
}

interface StatWorker {
  worker: Worker;
  alive: boolean;
  /** Jobs waiting for it: while any is, the worker keeps the process alive. */
  jobs: number;
  idle?: NodeJS.Timeout;
}

/**
 * The stat worker of one file root (`FileRoot.statWorkers`, made and stopped with the runtime):
 * started for the first big folder, stopped once idle for IDLE_MS, and at shutdown.
 */
export class StatWorkers {
  private current: StatWorker | undefined;

  /** The running worker, started on first use; undefined when one cannot be started. */
  take(): StatWorker | undefined {
    if (this.current?.alive) return this.current;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_URL, { resourceLimits: WORKER_LIMITS });
    } catch {
      return undefined;
    }
    const holder: StatWorker = { worker, alive: true, jobs: 0 };
    const gone = () => {
      holder.alive = false;
      clearTimeout(holder.idle);
      if (this.current === holder) this.current = undefined;
    };
    worker.on('error', gone);
    worker.on('exit', gone);
    worker.unref(); // never keeps the process alive
    this.current = holder;
    return holder;
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.current?.alive ?? false;
  }

  /** Stops the worker now (server shutdown); listings still under way finish on the main thread. */
  async stop(): Promise<void> {
    await this.current?.worker.terminate();
  }
}

/** Stops the worker once no listing has used it for IDLE_MS. */
function stopWhenIdle(holder: StatWorker): void {
  clearTimeout(holder.idle);
  holder.idle = setTimeout(() => void holder.worker.terminate(), IDLE_MS);
  holder.idle.unref();
}

/** `Atomics.waitAsync` (ES2024; in Node since 16): resolves when the value changes or on timeout. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeoutMs: number,
    ): { async: boolean; value: Promise<string> | string };
  }
).waitAsync;

/**
 * The names in a folder (a real path) with what their directory entries say they are, in
 * directory order: a listing sorted by name can order folders first and count them before it
 * stats anything. An open directory is read in batches of DIR_BATCH entries on the thread pool
 * (`fs.readdir` would sort the names and build them all at once); other requests get in between
 * batches.
 */
export async function readTypedNames(dir: string): Promise<ListedNames> {
  const handle = await opendir(dir, { bufferSize: DIR_BATCH });
  const names: string[] = [];
  const kinds: EntryKind[] = [];
  try {
    for (let entry = await handle.read(); entry !== null; entry = await handle.read()) {
      names.push(entry.name);
      kinds.push(
        entry.isFile()
          ? EntryKind.File
          : entry.isDirectory()
            ? EntryKind.Dir
            : entry.isSymbolicLink()
              ? EntryKind.Symlink
              : entry.isBlockDevice() ||
                  entry.isCharacterDevice() ||
                  entry.isFIFO() ||
                  entry.isSocket()
                ? EntryKind.Other
                : EntryKind.Unknown,
      );
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
  return new ListedNames(names, kinds);
}

/**
 * The names in a folder (a real path) in code-unit order, without what each entry is: one trip to
 * the thread pool for the whole folder instead of one promise per entry (a third less CPU for
 * 100,000 names). libuv's scandir hands them over in byte order, which is code-unit order but for
 * names beyond the Basic Multilingual Plane, so one pass checks the order and a sort is rare.
 */
export async function readSortedNames(dir: string): Promise<string[]> {
  const names = await readdir(dir);
  for (let i = 1; i < names.length; i++) {
    if (!(names[i - 1]! < names[i]!)) return names.sort();
  }
  return names;
}

/** The names in a folder (a real path), in directory order (`readTypedNames`). */
export async function readNames(dir: string): Promise<string[]> {
  return (await readTypedNames(dir)).names();
}

/**
 * Stats `names` inside `dir` (a real folder path, the root `/` too), beside the worker for big
 * folders.
 */
export async function statChildren(
  dir: string,
  names: readonly string[],
  options: ChildStatsOptions = {},
): Promise<ChildStats> {
  const count = names.length;
  const headBytes = options.headBytes ?? 512;
  const slotOf = new Int32Array(count).fill(-1);
  let heads = 0;
  if (options.wantHead) {
    for (let i = 0; i < count; i++) if (options.wantHead(names[i]!)) slotOf[i] = heads++;
  }
  const helper = count >= SHARED_FROM ? options.workers?.take() : undefined;
  const job: StatJob = {
    // The job joins `dir` and `separator` before each name: nothing before the root's separator.
    dir: dir === path.sep ? '' : dir,
    separator: path.sep,
    count,
    heads,
    headBytes,
    headMaxSize: options.headMaxSize ?? Number.MAX_SAFE_INTEGER,
  };
  const size = bufferBytes(job);
  const buffer = helper ? new SharedArrayBuffer(size) : new ArrayBuffer(size);
  const views = jobViews(buffer, job);
  views.values.fill(Number.NaN);
  views.slots.set(slotOf);
  if (helper) {
    const encoded = encodeNames(names);
    helper.worker.postMessage({ ...job, buffer, names: encoded }, [encoded]);
    if (helper.jobs++ === 0) helper.worker.ref();
  }
  const prefix = job.dir + job.separator;
  const pathOf = (i: number) => prefix + names[i]!;
  for (let start = claimChunk(job, views); start >= 0; start = claimChunk(job, views)) {
    const end = Math.min(count, start + CHUNK);
    await statRange(job, views, pathOf, start, end);
    finishChunk(views, end - start);
  }
  if (helper) {
    try {
      await workerFinished(helper, job, views, pathOf);
    } finally {
      if (--helper.jobs === 0) {
        helper.worker.unref();
        stopWhenIdle(helper);
      }
    }
  }
  return new ChildStats(views, headBytes);
}

/** The names in UTF-8 with a NUL after each, for the worker. */
function encodeNames(names: readonly string[]): ArrayBuffer {
  let length = 0;
  for (const name of names) length += Buffer.byteLength(name) + 1;
  const bytes = Buffer.from(new ArrayBuffer(length)); // zeroed: the NULs are already there
  let at = 0;
  for (const name of names) at += bytes.write(name, at) + 1;
  return bytes.buffer as ArrayBuffer;
}

/** Waits for the chunks the worker claimed; stats them here if the worker stopped. */
async function workerFinished(
  helper: StatWorker,
  job: StatJob,
  views: JobViews,
  pathOf: (i: number) => string,
): Promise<void> {
  for (;;) {
    const seen = finishedCount(views);
    if (seen >= job.count) return;
    if (!helper.alive) {
      // A set mode means the entry is complete; the rest are stat'ed again here.
      for (let start = 0; start < job.count; start += CHUNK) {
        const end = Math.min(job.count, start + CHUNK);
        await statRange(job, views, pathOf, start, end, true);
      }
      return;
    }
    const waiting = waitAsync(views.counters, FINISHED, seen, 100);
    if (waiting.async) await waiting.value;
  }
}

/**
 * Stats entries `start` to `end` (exclusive) through the thread pool, all at once (the pool runs
 * a few at a time), into the job's numbers and heads; `onlyMissing` skips entries that have a mode.
 */
async function statRange(
  job: StatJob,
  views: JobViews,
  pathOf: (i: number) => string,
  start: number,
  end: number,
  onlyMissing = false,
): Promise<void> {
  const pending: Promise<void>[] = [];
  for (let i = start; i < end; i++) {
    if (onlyMissing && !Number.isNaN(views.values[i * 4 + 2])) continue;
    pending.push(statEntry(job, views, i, pathOf(i)));
  }
  await Promise.all(pending);
}

/** One entry, as child-stats-core.mjs's statEntry does it in the worker; never rejects. */
async function statEntry(job: StatJob, views: JobViews, i: number, real: string): Promise<void> {
  const info = await lstat(real).catch(() => undefined);
  if (!info) {
    views.values[i * 4 + 2] = -1; // gone or unreadable: left out, as a directory read would
    return;
  }
  const slot = views.slots[i]!;
  if (slot >= 0) {
    const wanted = (info.mode & S_IFMT) === S_IFREG && info.size <= job.headMaxSize;
    const at = slot * job.headBytes;
    views.lengths[slot] = wanted
      ? await readHeadInto(real, views.bytes.subarray(at, at + job.headBytes))
      : -1;
  }
  views.values[i * 4] = info.size;
  views.values[i * 4 + 1] = info.mtimeMs;
  views.values[i * 4 + 3] = info.nlink;
  views.values[i * 4 + 2] = info.mode; // last: a set mode means the entry is complete
}

/** Reads up to `into.length` first bytes of a file without following a link; 0 on failure. */
async function readHeadInto(real: string, into: Uint8Array): Promise<number> {
  let handle;
  try {
    handle = await open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    return (await handle.read(into, 0, into.length, 0)).bytesRead;
  } catch {
    return 0;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The first `bytes` bytes of a file (a real path) without following a link; empty on failure. */
export async function readFileHead(real: string, bytes: number): Promise<Buffer> {
  const buffer = Buffer.alloc(bytes);
  return buffer.subarray(0, await readHeadInto(real, buffer));
}
