import { Buffer } from 'node:buffer';
import { constants } from 'node:fs';
import { CHILD_PATH, runProcess, streamProcess } from '../../process/run-process.ts';
import { releaseChunk } from '../../streams/chunk-release.ts';

const { S_IFREG, S_IFDIR, S_IFLNK, S_IFBLK, S_IFCHR, S_IFIFO, S_IFSOCK } = constants;

/**
 * Big folders' `lstat`s by GNU find, in a process of its own (issue #37's memory budget).
 *
 * A folder of 100,000 entries costs 100,000 `lstat`s. Through libuv's pool each is a request the
 * main thread makes and answers (~10 µs of its time on a small VM: the first read of such a folder
 * took twice as long as with help); a worker thread stat'ing beside it was fast but cost a V8
 * isolate (~8.5 MiB) and its young generation, which the process's semi-space flags then made 16 MiB,
 * filled by 100,000 `fs.Stats` objects: +30 MiB of RSS at the first read of a big folder, the
 * peak of the memory budget. `find` stats in C and writes packed records (~50 bytes an entry) that
 * the main thread parses into the listing's numbers as they come, allocating one string per name;
 * it needs ~3 MiB of its own while it runs.
 *
 * findutils 4.9 (Debian 12 and later) reads the names to stat from its stdin (`-files0-from`),
 * NUL-separated and in the order given, never as options, and `-maxdepth 0` keeps it from
 * descending; `-P` (the default) reports links themselves, as `lstat` does. Where find is missing
 * or older (BSD find has no `-printf`), or a run fails, the caller stats through the pool instead:
 * `statInto` answers false.
 */
export class FindStats {
  private support: Promise<boolean> | undefined;
  private readonly controllers = new Set<AbortController>();
  private stopped = false;

  constructor(private readonly program = 'find') {}

  /** Whether this system's find does what `statInto` needs (asked once, on first use). */
  available(): Promise<boolean> {
    this.support ??= probe(this.program);
    return this.support;
  }

  /**
   * The `lstat` numbers of `names` in `dir` (a real folder path) into `values`: size, mtimeMs,
   * st_mode and nlink for each name by index, st_mode -1 for a name that is gone. False when find
   * could not be run or its output was not as expected: `values` are then to be filled anew.
   */
  async statInto(dir: string, names: readonly string[], values: Float64Array): Promise<boolean> {
    if (this.stopped || !(await this.available())) return false;
    const controller = new AbortController();
    this.controllers.add(controller);
    try {
      const run = await streamProcess(this.program, FIND_ARGS, {
        cwd: dir,
        env: FIND_ENV,
        input: namesInput(names),
        successCodes: [1], // some name was gone: its entry is left out
        signal: controller.signal,
        timeoutMs: TIMEOUT_MS,
        maxOutputBytes: Number.MAX_SAFE_INTEGER,
      });
      if (!('stdout' in run)) return false;
      const records = new FindRecords(names, values);
      try {
        for await (const chunk of run.stdout) {
          const parsed = records.push(chunk as Buffer);
          releaseChunk(chunk as Buffer);
          if (!parsed) {
            controller.abort();
            return false;
          }
        }
      } catch {
        return false; // the run failed: its stream was destroyed with the reason
      }
      return (await run.result).kind === 'ok' && records.finish();
    } finally {
      this.controllers.delete(controller);
    }
  }

  /** Stops runs under way (the server stops): their callers stat through the pool. */
  stop(): void {
    this.stopped = true;
    for (const controller of this.controllers) controller.abort();
  }
}

/**
 * One record per name: `size/seconds.nanoseconds/permissions/links/type/name` and a NUL. The name
 * is last, so it may hold anything but NUL; the other fields hold no `/`. `%T@` prints the
 * seconds and all nine digits of the nanoseconds (and a tenth, 0), as `lstat` gives them.
 */
const FORMAT = '%s/%T@/%m/%n/%y/%p\\0';
const FIND_ARGS = ['-files0-from', '-', '-maxdepth', '0', '-printf', FORMAT];
/** C locale: messages (unread) and no multibyte handling of names, which pass through as bytes. */
const FIND_ENV = { PATH: CHILD_PATH, LANG: 'C', LC_ALL: 'C' };
/** A folder whose stats take longer is on a stalled file system; the pool then tries it again. */
const TIMEOUT_MS = 10 * 60_000;
/** Bytes of names written to find at a time. */
const INPUT_BATCH = 64 * 1024;

/** find's type letters as st_mode's type bits. */
const TYPE_BITS: Record<number, number> = {
  0x66: S_IFREG, // f
  0x64: S_IFDIR, // d
  0x6c: S_IFLNK, // l
  0x62: S_IFBLK, // b
  0x63: S_IFCHR, // c
  0x70: S_IFIFO, // p
  0x73: S_IFSOCK, // s
};

const SLASH = 0x2f;
const DOT = 0x2e;
const MINUS = 0x2d;

/** Asks find to stat one thing the way `statInto` does: true when it answers as expected. */
async function probe(program: string): Promise<boolean> {
  const result = await runProcess(program, FIND_ARGS, {
    cwd: '/',
    env: FIND_ENV,
    input: [Buffer.from('.\0')],
    timeoutMs: 30_000,
    maxOutputBytes: 4096,
  });
  return (
    result.kind === 'ok' &&
    /^\d+\/-?\d+\.\d{9}\d*\/[0-7]+\/\d+\/d\/\.\0$/.test(result.stdout.toString('latin1'))
  );
}

/** The names, NUL after each, in batches of about INPUT_BATCH bytes. */
function* namesInput(names: readonly string[]): Generator<Buffer> {
  let batch = Buffer.allocUnsafe(INPUT_BATCH);
  let used = 0;
  for (const name of names) {
    const length = Buffer.byteLength(name);
    if (used + length + 1 > batch.length) {
      if (used > 0) yield batch.subarray(0, used);
      batch = Buffer.allocUnsafe(Math.max(INPUT_BATCH, length + 1));
      used = 0;
    }
    used += batch.write(name, used);
    batch[used++] = 0;
  }
  if (used > 0) yield batch.subarray(0, used);
}

/**
 * find's records parsed into `values` as they come. find answers the names in the order they were
 * given and leaves out those it could not stat, so each record's name is the next name given or a
 * later one: the names skipped are gone.
 */
class FindRecords {
  private carry: Buffer | null = null;
  private next = 0;

  constructor(
    private readonly names: readonly string[],
    private readonly values: Float64Array,
  ) {}

  /** Parses every whole record in `chunk`; false when one is not as find writes them. */
  push(chunk: Buffer): boolean {
    const bytes = this.carry ? Buffer.concat([this.carry, chunk]) : chunk;
    let at = 0;
    for (let end = bytes.indexOf(0, at); end >= 0; end = bytes.indexOf(0, at)) {
      if (!this.record(bytes, at, end)) return false;
      at = end + 1;
    }
    // The rest is the start of a record the next chunk ends; copied, so the chunk can go.
    this.carry = at < bytes.length ? Buffer.from(bytes.subarray(at)) : null;
    return true;
  }

  /** After the last chunk: the names find did not answer are gone. */
  finish(): boolean {
    if (this.carry) return false;
    for (; this.next < this.names.length; this.next++) this.values[this.next * 4 + 2] = -1;
    return true;
  }

  private record(bytes: Buffer, start: number, end: number): boolean {
    const fields: number[] = [start];
    for (let at = start; fields.length < 6; at++) {
      at = bytes.indexOf(SLASH, at);
      if (at < 0 || at >= end) return false;
      fields.push(at + 1);
    }
    const [sizeAt, timeAt, permAt, linksAt, typeAt, nameAt] = fields as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const typeBits = TYPE_BITS[bytes[typeAt]!];
    const mtimeMs = timeMs(bytes, timeAt, permAt - 1);
    if (typeBits === undefined || nameAt !== typeAt + 2 || Number.isNaN(mtimeMs)) return false;
    const name = bytes.toString('utf8', nameAt, end);
    const { names, values } = this;
    while (this.next < names.length && names[this.next] !== name) {
      values[this.next * 4 + 2] = -1; // gone before find got to it
      this.next++;
    }
    if (this.next === names.length) return false; // a name that was not asked for
    const i = this.next++ * 4;
    values[i] = decimal(bytes, sizeAt, timeAt - 1);
    values[i + 1] = mtimeMs;
    values[i + 3] = decimal(bytes, linksAt, typeAt - 1);
    values[i + 2] = typeBits | octal(bytes, permAt, linksAt - 1);
    return true;
  }
}

/** A decimal integer in bytes[from, to), maybe negative; NaN when it is not one. */
function decimal(bytes: Buffer, from: number, to: number): number {
  const negative = bytes[from] === MINUS;
  let value = 0;
  let at = negative ? from + 1 : from;
  if (at >= to) return Number.NaN;
  for (; at < to; at++) {
    const digit = bytes[at]! - 0x30;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

function octal(bytes: Buffer, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) value = value * 8 + (bytes[at]! - 0x30);
  return value;
}

/**
 * `seconds.nanoseconds` as milliseconds, computed as Node computes `mtimeMs` (seconds × 1000 plus
 * nanoseconds / 10^6), so a listing's times are the ones `lstat` gives to the last bit.
 */
function timeMs(bytes: Buffer, from: number, to: number): number {
  const dot = bytes.indexOf(DOT, from);
  if (dot < 0 || dot >= to) return Number.NaN;
  const seconds = decimal(bytes, from, dot);
  let nanoseconds = 0;
  for (let at = dot + 1, digits = 0; digits < 9; at++, digits++) {
    const digit = at < to ? bytes[at]! - 0x30 : 0;
    if (digit < 0 || digit > 9) return Number.NaN;
    nanoseconds = nanoseconds * 10 + digit;
  }
  return seconds * 1000 + nanoseconds / 1e6;
}
