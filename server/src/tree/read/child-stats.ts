import { constants } from 'node:fs';
import { lstat, open, opendir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { EntryKind, ListedNames } from '../../fs/typed-names.ts';
import type { FindStats } from './find-stats.ts';

const { S_IFMT, S_IFREG, O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;

/**
 * Stats the children of a folder for a listing. One `lstat` costs ~5 µs on a small VM, most of a
 * big listing's time. Folders of a few thousand entries and more are stat'ed by GNU find in a
 * process of its own (find-stats.ts), which costs the main thread one parsed record per entry
 * and this process no memory beyond the results; smaller ones, and every folder where find cannot
 * help, go through libuv's thread pool, so a slow network file system stalls the listing that
 * asked, not every request of the process (issue #37: no synchronous file-system call on the main
 * thread). The results are packed numbers: no `fs.Stats` object outlives its `lstat`.
 */

/** Folders with fewer entries are stat'ed through the pool: starting find costs a few ms. */
const FIND_FROM = 2_000;
/** Entries stat'ed through the pool at a time. */
const CHUNK = 256;
/** Directory entries read per trip to the thread pool. */
const DIR_BATCH = 4096;

export interface ChildStatsOptions {
  /** find for big folders' stats (the file root's); without, every stat goes through the pool. */
  finder?: FindStats;
  /** Names whose first bytes are wanted (regular files of at most `headMaxSize` bytes). */
  wantHead?: (name: string) => boolean;
  headBytes?: number;
  headMaxSize?: number;
}

/**
 * A stat job's results, in one buffer:
 *   Float64 per entry: size, mtimeMs, mode (NaN until stat'ed, -1 when gone or unreadable), nlink
 *   Int32   per entry: its head slot, or -1 when its first bytes are not wanted
 *   Int32   per head slot: bytes read (0 when unreadable), or -1 when not a file or too big
 *   Uint8   per head slot: headBytes bytes
 */
interface StatViews {
  values: Float64Array;
  slots: Int32Array;
  lengths: Int32Array;
  bytes: Uint8Array;
}

function statViews(count: number, heads: number, headBytes: number): StatViews {
  const buffer = new ArrayBuffer(count * 36 + heads * (4 + headBytes));
  let offset = 0;
  const values = new Float64Array(buffer, offset, count * 4).fill(Number.NaN);
  offset += count * 32;
  const slots = new Int32Array(buffer, offset, count);
  offset += count * 4;
  const lengths = new Int32Array(buffer, offset, heads);
  offset += heads * 4;
  return { values, slots, lengths, bytes: new Uint8Array(buffer, offset, heads * headBytes) };
}

/** The lstat of each name, by index. */
export class ChildStats {
  constructor(
    private readonly views: StatViews,
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
 * Stats `names` inside `dir` (a real folder path, the root `/` too): by find for big folders,
 * through the pool otherwise or when find cannot.
 */
export async function statChildren(
  dir: string,
  names: readonly string[],
  options: ChildStatsOptions = {},
): Promise<ChildStats> {
  const count = names.length;
  const headBytes = options.headBytes ?? 512;
  const headMaxSize = options.headMaxSize ?? Number.MAX_SAFE_INTEGER;
  const slotOf = new Int32Array(count).fill(-1);
  let heads = 0;
  if (options.wantHead) {
    for (let i = 0; i < count; i++) if (options.wantHead(names[i]!)) slotOf[i] = heads++;
  }
  const views = statViews(count, heads, headBytes);
  views.slots.set(slotOf);
  const found = count >= FIND_FROM && (await options.finder?.statInto(dir, names, views.values));
  const prefix = (dir === path.sep ? '' : dir) + path.sep;
  const job: StatJob = { views, headBytes, headMaxSize, pathOf: (i) => prefix + names[i]! };
  // When find answered, only the heads wanted are left to read.
  const steps = found && heads === 0 ? 0 : count;
  for (let start = 0; start < steps; start += CHUNK) {
    const end = Math.min(count, start + CHUNK);
    if (found) await readHeads(job, start, end);
    else await statRange(job, start, end);
  }
  return new ChildStats(views, headBytes);
}

interface StatJob {
  views: StatViews;
  headBytes: number;
  headMaxSize: number;
  pathOf: (i: number) => string;
}

/**
 * Stats entries `start` to `end` (exclusive) through the thread pool, all at once (the pool runs
 * a few at a time), into the job's numbers and heads.
 */
async function statRange(job: StatJob, start: number, end: number): Promise<void> {
  const pending: Promise<void>[] = [];
  for (let i = start; i < end; i++) pending.push(statEntry(job, i));
  await Promise.all(pending);
}

/** One entry's numbers and, when wanted, first bytes; never rejects. */
async function statEntry(job: StatJob, i: number): Promise<void> {
  const { values } = job.views;
  const info = await lstat(job.pathOf(i)).catch(() => undefined);
  if (!info) {
    values[i * 4 + 2] = -1; // gone or unreadable: left out, as a directory read would
    return;
  }
  values[i * 4] = info.size;
  values[i * 4 + 1] = info.mtimeMs;
  values[i * 4 + 2] = info.mode;
  values[i * 4 + 3] = info.nlink;
  await readHead(job, i);
}

/** The first bytes of the entries `start` to `end` that want them, once their stats are in. */
async function readHeads(job: StatJob, start: number, end: number): Promise<void> {
  const pending: Promise<void>[] = [];
  for (let i = start; i < end; i++) if (job.views.slots[i]! >= 0) pending.push(readHead(job, i));
  await Promise.all(pending);
}

/** An entry's first bytes when it wants them and is a regular file small enough; never rejects. */
async function readHead(job: StatJob, i: number): Promise<void> {
  const { values, slots, lengths, bytes } = job.views;
  const slot = slots[i]!;
  if (slot < 0) return;
  const mode = values[i * 4 + 2]!;
  const wanted = mode >= 0 && (mode & S_IFMT) === S_IFREG && values[i * 4]! <= job.headMaxSize;
  const at = slot * job.headBytes;
  lengths[slot] = wanted
    ? await readHeadInto(job.pathOf(i), bytes.subarray(at, at + job.headBytes))
    : -1;
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
