/**
 * The settings of `npm run bench`, from the environment (listed at the top of run.ts), checked once
 * at start.
 */
import path from 'node:path';
import { BENCH_DIR, MIB } from './layout.ts';

const env = process.env;
const intEnv = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
export const REPEAT = intEnv('BENCH_REPEAT', 3);
export const NGINX_WORKERS = intEnv('BENCH_NGINX_WORKERS', 1);
/** Cabinet's `--workers`: server processes sharing the port (docs/architecture.md). */
export const CABINET_WORKERS = intEnv('BENCH_CABINET_WORKERS', 1);
export const LIST_CONNECTIONS = intEnv('BENCH_LIST_CONNECTIONS', 4);
export const TUS_CHUNK = intEnv('BENCH_TUS_CHUNK_MIB', 10) * MIB;
export const ONLY = new Set((env.BENCH_ONLY ?? 'listing,download,upload,archive').split(','));
export const CPU_PROF = env.BENCH_CPU_PROF === '1';
/**
 * Pause between deleting the last upload and the next timed write. On a VM with free page
 * reporting (virtio-balloon, as on the benchmark machine) freed memory goes back to the host about
 * two seconds after it is freed, and touching it again then costs a fault in the host: writing 1 GiB
 * into the page cache took ~0.8 s right after a delete and ~2-2.5 s after a pause (dd, fsync). Without
 * the pause a fast writer reuses warm pages and a slower one runs into cold ones, so the ratio
 * measured the VM. With it every timed write starts from the same cold memory.
 */
/** Files of an extra tree in the served root (BENCH_INDEX_FILES, default none): a big search index. */
export const INDEX_FILES = env.BENCH_INDEX_FILES ? intEnv('BENCH_INDEX_FILES', 0) : 0;
export const UPLOAD_SETTLE_MS = Number(env.BENCH_UPLOAD_SETTLE_S ?? 5) * 1000;
if (!(UPLOAD_SETTLE_MS >= 0)) throw new Error('BENCH_UPLOAD_SETTLE_S must be a number >= 0');
export const RESULTS = path.join(BENCH_DIR, 'results');
/** Extra V8 flags for Cabinet (BENCH_NODE_FLAGS, space separated). */
export const EXTRA_NODE_FLAGS = env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
/** Another checkout's server/bin/cabinet.js (BENCH_CABINET_BIN), to compare a change. */
export const CABINET_BIN = env.BENCH_CABINET_BIN ? path.resolve(env.BENCH_CABINET_BIN) : undefined;
