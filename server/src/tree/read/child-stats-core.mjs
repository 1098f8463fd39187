// The stat loop of a folder listing's worker thread (child-stats-worker.mjs) and the job layout it
// shares with the main thread (child-stats.ts). Only the worker calls the synchronous `lstat`
// here; the main thread claims chunks from the same counter and stats them through the thread
// pool (issue #37: no synchronous file-system call on the main thread). Plain JavaScript because a worker thread loads it as it is,
// under the bundle, tsx and vitest alike; its types are in child-stats-core.d.mts.
//
// A job's results live in one buffer (a SharedArrayBuffer when a worker takes part):
//   Int32   [0] next index to claim, [1] entries finished
//   Float64 per entry: size, mtimeMs, mode (NaN until stat'ed, -1 when gone or unreadable), nlink
//   Int32   per entry: its head slot, or -1 when its first bytes are not wanted
//   Int32   per head slot: bytes read (0 when unreadable), or -1 when not a file or too big
//   Uint8   per head slot: headBytes bytes
// The worker gets the names apart, in UTF-8 with a NUL after each, in a buffer handed over to it:
// no string is copied into its heap, and the bytes are freed once it is done with them.
// Both threads claim chunks of entries from the shared counter, so whichever thread is free does
// the work, and each entry is stat'ed exactly once. A set mode means the entry is complete.
import { Buffer } from 'node:buffer';
import { closeSync, constants, lstatSync, openSync, readSync } from 'node:fs';

const { S_IFMT, S_IFREG, O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = constants;
const NEXT = 0;
const FINISHED = 1;
/** Entries per claim: small enough to share a folder of a few thousand, large enough to be cheap. */
export const CHUNK = 256;

export function bufferBytes(job) {
  const { count, heads, headBytes } = job;
  return 8 + count * 32 + count * 4 + heads * 4 + heads * headBytes;
}

export function jobViews(buffer, job) {
  const { count, heads, headBytes } = job;
  let offset = 8;
  const values = new Float64Array(buffer, offset, count * 4);
  offset += count * 32;
  const slots = new Int32Array(buffer, offset, count);
  offset += count * 4;
  const lengths = new Int32Array(buffer, offset, heads);
  offset += heads * 4;
  const bytes = new Uint8Array(buffer, offset, heads * headBytes);
  return { counters: new Int32Array(buffer, 0, 2), values, slots, lengths, bytes };
}

/**
 * Real paths by index from NUL-separated UTF-8 names, as bytes: one path buffer is reused, so
 * stat'ing allocates no string.
 */
export function pathsFromNames(job, names) {
  const starts = new Int32Array(job.count + 1);
  let at = 0;
  for (let i = 0; i < job.count; i++) {
    starts[i] = at;
    at = names.indexOf(0, at) + 1;
  }
  starts[job.count] = at;
  const prefix = Buffer.from(job.dir + job.separator);
  let path = Buffer.allocUnsafe(prefix.length + 1024);
  prefix.copy(path);
  return (i) => {
    const length = starts[i + 1] - 1 - starts[i];
    if (prefix.length + length > path.length) {
      path = Buffer.allocUnsafe(prefix.length + length);
      prefix.copy(path);
    }
    path.set(names.subarray(starts[i], starts[i] + length), prefix.length);
    return path.subarray(0, prefix.length + length);
  };
}

/** Reads up to `into.length` first bytes of a file without following a link; 0 on failure. */
export function readHead(real, into) {
  let fd;
  try {
    fd = openSync(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    return readSync(fd, into, 0, into.length, 0);
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function statEntry(job, views, i, real) {
  const { values, slots, lengths, bytes } = views;
  let info;
  try {
    info = lstatSync(real, { throwIfNoEntry: false });
  } catch {
    info = undefined; // unreadable entries are left out, as a directory read would
  }
  if (!info) {
    values[i * 4 + 2] = -1;
    return;
  }
  const slot = slots[i];
  if (slot >= 0) {
    const wanted = (info.mode & S_IFMT) === S_IFREG && info.size <= job.headMaxSize;
    const at = slot * job.headBytes;
    lengths[slot] = wanted ? readHead(real, bytes.subarray(at, at + job.headBytes)) : -1;
  }
  values[i * 4] = info.size;
  values[i * 4 + 1] = info.mtimeMs;
  values[i * 4 + 3] = info.nlink;
  values[i * 4 + 2] = info.mode; // last: a set mode means the entry is complete
}

/**
 * Claims and stats one chunk; false when every entry has been claimed. `pathOf(i)` gives the real
 * path of entry i (a string or bytes).
 */
export function statChunk(job, views, pathOf) {
  const start = claimChunk(job, views);
  if (start < 0) return false;
  const end = Math.min(job.count, start + CHUNK);
  for (let i = start; i < end; i++) statEntry(job, views, i, pathOf(i));
  finishChunk(views, end - start);
  return true;
}

/** Claims the next chunk of entries: its first index, or -1 when every entry has been claimed. */
export function claimChunk(job, views) {
  const start = Atomics.add(views.counters, NEXT, CHUNK);
  return start < job.count ? start : -1;
}

/** Counts `entries` of a claimed chunk as finished and wakes a thread waiting for them. */
export function finishChunk(views, entries) {
  Atomics.add(views.counters, FINISHED, entries);
  Atomics.notify(views.counters, FINISHED);
}

export function finishedCount(views) {
  return Atomics.load(views.counters, FINISHED);
}

export { FINISHED };
