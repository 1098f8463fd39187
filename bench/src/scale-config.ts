/**
 * The settings of `npm run bench:scale -w bench`, from the environment (listed in
 * docs/benchmarks.md, "Scale-out"), checked once at start.
 */
import path from 'node:path';
import { BENCH_DIR } from './layout.ts';

const env = process.env;

const intEnv = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};

const listEnv = <T extends string>(name: string, fallback: string, allowed: readonly T[]): T[] => {
  const values = (env[name] ?? fallback).split(',').filter(Boolean);
  for (const value of values)
    if (!allowed.includes(value as T))
      throw new Error(`${name}: "${value}" is not one of ${allowed.join(', ')}`);
  return values as T[];
};

export const ENGINES = ['sqlite', 'postgresql'] as const;
export type Engine = (typeof ENGINES)[number];

/** Database engines to measure (BENCH_SCALE_ENGINES, default both). */
export const SCALE_ENGINES = listEnv<Engine>('BENCH_SCALE_ENGINES', ENGINES.join(','), ENGINES);
/** Connections of the listing passes (BENCH_SCALE_CONNECTIONS, default 4 and 16). */
export const SCALE_CONNECTIONS = (env.BENCH_SCALE_CONNECTIONS ?? '4,16').split(',').map((c) => {
  const value = Number(c);
  if (!Number.isInteger(value) || value < 1)
    throw new Error('BENCH_SCALE_CONNECTIONS must be a comma list of positive integers');
  return value;
});
/** Seconds of each timed listing pass (BENCH_SCALE_DURATION_S). */
export const SCALE_DURATION_S = intEnv('BENCH_SCALE_DURATION_S', 15);
/** Requests per connection of the untimed pass before each timed one (BENCH_SCALE_WARMUP_REQUESTS). */
export const SCALE_WARMUP_REQUESTS = intEnv('BENCH_SCALE_WARMUP_REQUESTS', 2);
/** Downloads of the big file per target; the best is reported (BENCH_REPEAT, as `npm run bench`). */
export const SCALE_REPEAT = intEnv('BENCH_REPEAT', 3);
/** nginx worker processes of the balancer (BENCH_BALANCER_WORKERS). */
export const BALANCER_WORKERS = intEnv('BENCH_BALANCER_WORKERS', 1);
/** Cabinet instances behind the balancer in the scaled-out configuration. */
export const SCALE_INSTANCES = [1, 2] as const;
/** Another checkout's server/bin/cabinet.js (BENCH_CABINET_BIN), as for `npm run bench`. */
export const CABINET_BIN = env.BENCH_CABINET_BIN ? path.resolve(env.BENCH_CABINET_BIN) : undefined;
export const RESULTS = path.join(BENCH_DIR, 'results');
