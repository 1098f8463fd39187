/**
 * Where the benchmark keeps its data and how big each data set is. Shared by the dataset generator
 * and the runner so both agree on names and sizes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(BENCH_DIR, '..');

const MiB = 1024 * 1024;

/** Sizes of the four data sets at scale 1 (the sizes named in the benchmark's brief). */
const FULL = {
  smallListing: 10_000,
  largeListing: 100_000,
  bigFileBytes: 1024 * MiB,
  mixedFiles: 1_000,
  mixedBytes: 500 * MiB,
};

export interface DatasetSpec {
  scale: number;
  /** Entries in the smaller listing folder (10,000 at scale 1). */
  smallListing: number;
  /** Entries in the larger listing folder (100,000 at scale 1). */
  largeListing: number;
  /** Size of the single big file (1 GiB at scale 1). */
  bigFileBytes: number;
  /** Files in the archive folder (1,000 at scale 1). */
  mixedFiles: number;
  /** Total bytes of the archive folder (500 MiB at scale 1). */
  mixedBytes: number;
}

export interface DatasetLayout {
  spec: DatasetSpec;
  /** Everything for this scale: root, scratch space, generation markers. */
  base: string;
  /** The folder both Cabinet and nginx serve. */
  root: string;
  /** Same file system as root, never served: local-write baseline, nginx temp files. */
  scratch: string;
  /** Markers saying which data sets are complete. */
  state: string;
  /** Names (relative to root) of the data sets. */
  names: {
    smallListing: string;
    largeListing: string;
    bigFile: string;
    mixed: string;
    /** Folder that receives uploads during a run; emptied after each measurement. */
    uploads: string;
  };
}

/** Reads BENCH_SCALE (default 1); refuses anything that is not a positive number ≤ 1. */
export function readScale(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_SCALE ?? '1';
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0 || scale > 1)
    throw new Error(`BENCH_SCALE must be a number in (0, 1], got "${raw}"`);
  return scale;
}

/** Sizes for a scale: counts rounded with a floor of 10 files, sizes with a floor of 1 MiB. */
export function specFor(scale: number): DatasetSpec {
  const count = (n: number) => Math.max(10, Math.round(n * scale));
  const bytes = (n: number) => Math.max(MiB, Math.round((n * scale) / MiB) * MiB);
  return {
    scale,
    smallListing: count(FULL.smallListing),
    largeListing: count(FULL.largeListing),
    bigFileBytes: bytes(FULL.bigFileBytes),
    mixedFiles: count(FULL.mixedFiles),
    mixedBytes: bytes(FULL.mixedBytes),
  };
}

/** The layout for the scale in BENCH_SCALE under BENCH_DATA (default bench/.data). */
export function datasetLayout(env: NodeJS.ProcessEnv = process.env): DatasetLayout {
  const spec = specFor(readScale(env));
  const dataDir = path.resolve(env.BENCH_DATA ?? path.join(BENCH_DIR, '.data'));
  const base = path.join(dataDir, `scale-${spec.scale}`);
  return {
    spec,
    base,
    root: path.join(base, 'root'),
    scratch: path.join(base, 'scratch'),
    state: path.join(base, 'state'),
    names: {
      smallListing: 'listing-small',
      largeListing: 'listing-large',
      bigFile: 'big.bin',
      mixed: 'mixed',
      uploads: 'bench-uploads',
    },
  };
}

export const MIB = MiB;
