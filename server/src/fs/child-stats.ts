import { opendirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { EventLoopTurns } from '../streams/event-loop-turns.ts';
import { EntryKind, ListedNames } from './typed-names.ts';
import {
  bufferBytes,
  finishedCount,
  FINISHED,
  jobViews,
  statChunk,
  statMissing,
  type JobViews,
  type PathOf,
  type StatJob,
} from './child-stats-core.mjs';

/**
 * Stats the children of a folder for a listing. One `lstat` costs ~5 µs on a small VM, most of a
 * big listing's time, so folders of more than a few thousand entries are stat'ed by the main
 * thread and a worker thread together: both claim chunks of entries from a shared counter
 * (child-stats-core.mjs). Small folders are done here alone; a worker round trip would cost more.
 * The results are packed numbers: no `fs.Stats` object outlives its `lstat`, and the worker's stay
 * in its own small heap.
 */

/** Folders with fewer entries are stat'ed on the main thread alone. */
const SHARED_FROM = 2_000;
/** The main thread lets other requests in after this long of stat'ing. */
const YIELD_EVERY_MS = 20;
/**
 * An idle worker is stopped after this long, giving its memory back (10 to 25 MiB of RSS): long
 * enough for a person opening big folders one after another, short enough that a folder served
 * from the listing cache afterwards does not keep it.
 */
const IDLE_MS = 5_000;
/** The worker only holds short-lived `fs.Stats`; a small heap keeps its memory small. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 16 };
const WORKER_URL = new URL('./child-stats-worker.mjs', import.meta.url);

export interface ChildStatsOptions {
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

let current: StatWorker | undefined;

/** The running worker, started on first use; undefined when one cannot be started. */
function statWorker(): StatWorker | undefined {
  if (current?.alive) return current;
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
    if (current === holder) current = undefined;
  };
  worker.on('error', gone);
  worker.on('exit', gone);
  worker.unref(); // never keeps the process alive
  current = holder;
  return holder;
}

/** Stops the worker now (server shutdown); listings still under way finish on the main thread. */
export async function stopStatWorker(): Promise<void> {
  await current?.worker.terminate();
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
 * stats anything. Synchronous batches of an open directory take half the time of `fs.readdir`
 * here (which sorts the names and hops through the thread pool); other requests get in every
 * YIELD_EVERY_MS.
 */
export async function readTypedNames(dir: string): Promise<ListedNames> {
  const handle = opendirSync(dir, { bufferSize: 4096 });
  const names: string[] = [];
  const kinds: EntryKind[] = [];
  try {
    const turns = new EventLoopTurns(YIELD_EVERY_MS);
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
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
      if ((names.length & 1023) === 0 && turns.due()) await turns.take();
    }
  } finally {
    handle.closeSync();
  }
  return new ListedNames(names, kinds);
}

/** The names in a folder (a real path), in directory order (`readTypedNames`). */
export async function readNames(dir: string): Promise<string[]> {
  return (await readTypedNames(dir)).names();
}

/** Stats `names` inside `dir` (a real path), beside the worker for big folders. */
export async function statChildren(
  dir: string,
  separator: string,
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
  const helper = count >= SHARED_FROM ? statWorker() : undefined;
  const job: StatJob = {
    dir,
    separator,
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
  const prefix = dir + separator;
  const pathOf = (i: number) => prefix + names[i]!;
  const turns = new EventLoopTurns(YIELD_EVERY_MS);
  while (statChunk(job, views, pathOf)) {
    if (turns.due()) await turns.take();
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
  pathOf: PathOf,
): Promise<void> {
  for (;;) {
    const seen = finishedCount(views);
    if (seen >= job.count) return;
    if (!helper.alive) {
      statMissing(job, views, pathOf);
      return;
    }
    const waiting = waitAsync(views.counters, FINISHED, seen, 100);
    if (waiting.async) await waiting.value;
  }
}
