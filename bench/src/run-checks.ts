/**
 * What keeps a benchmark run going and checks its outputs: the log, a series of measurements that
 * records a failure instead of stopping, and comparisons of what was written with its source.
 */
import { readdirSync, statSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { MIB } from './layout.ts';
import type { Series } from './report.ts';

export const log = (line: string) => console.error(`[bench] ${line}`);
export const errorText = (error: unknown) =>
  (error as Error).message.split('\n')[0] ?? String(error);

/** Keeps going when one measurement fails: the report shows the error instead of a figure. */
export async function series<T>(runs: number, task: (i: number) => Promise<T>): Promise<Series<T>> {
  const result: Series<T> = { runs: [] };
  for (let i = 0; i < runs; i++) {
    try {
      result.runs.push(await task(i));
    } catch (error) {
      result.error = errorText(error);
      log(`  failed: ${result.error}`);
      break;
    }
  }
  return result;
}

/** Total size of regular files under a folder. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** Compares size and three 1 MiB samples (start, middle, end) of two files. */
export async function sameSample(a: string, b: string): Promise<void> {
  const [sa, sb] = await Promise.all([stat(a), stat(b)]);
  if (sa.size !== sb.size) throw new Error(`${b} has ${sb.size} bytes, expected ${sa.size}`);
  const [fa, fb] = await Promise.all([open(a), open(b)]);
  try {
    for (const at of [0, Math.floor(sa.size / 2), Math.max(0, sa.size - MIB)]) {
      const ba = Buffer.alloc(MIB);
      const bb = Buffer.alloc(MIB);
      const [ra, rb] = await Promise.all([fa.read(ba, 0, MIB, at), fb.read(bb, 0, MIB, at)]);
      if (ra.bytesRead !== rb.bytesRead || !ba.equals(bb))
        throw new Error(`${b} differs from ${a} near byte ${at}`);
    }
  } finally {
    await Promise.all([fa.close(), fb.close()]);
  }
}
