export interface StatJob {
  /** Real path of the folder and the separator to put before each name. */
  dir: string;
  separator: string;
  count: number;
  /** Number of head slots and bytes per slot. */
  heads: number;
  headBytes: number;
  /** Files larger than this get no head read. */
  headMaxSize: number;
}

export interface JobViews {
  counters: Int32Array;
  /** size, mtimeMs, mode, nlink per entry. */
  values: Float64Array;
  slots: Int32Array;
  lengths: Int32Array;
  bytes: Uint8Array;
}

export const CHUNK: number;
export const FINISHED: number;
export type PathOf = (i: number) => string | Buffer;
export function bufferBytes(job: StatJob): number;
export function jobViews(buffer: ArrayBufferLike, job: StatJob): JobViews;
export function pathsFromNames(job: StatJob, names: Uint8Array): PathOf;
export function readHead(real: string | Buffer, into: Uint8Array): number;
export function statChunk(job: StatJob, views: JobViews, pathOf: PathOf): boolean;
export function claimChunk(job: StatJob, views: JobViews): number;
export function finishChunk(views: JobViews, entries: number): void;
export function finishedCount(views: JobViews): number;
