/**
 * The end of a benchmark run: the machine it ran on, and the results written as JSON and markdown
 * to bench/results/ (stamped, and as latest) with the markdown printed.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { toMarkdown, type BenchResults } from './report.ts';
import { log } from './run-checks.ts';
import { RESULTS } from './run-config.ts';

/** What the report says about the machine: the run's load before and after, and its duration. */
export function machineOf(
  nginx: string,
  loadBefore: string,
  started: number,
): BenchResults['machine'] {
  const cpu = os.cpus();
  return {
    cpus: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 1024 ** 3),
    kernel: os.release(),
    node: process.version,
    nginx: nginx.replace(/^nginx version: /, ''),
    loadBefore,
    loadAfter: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    durationSeconds: Math.round((Date.now() - started) / 1000),
  };
}

export async function writeResults(results: BenchResults): Promise<void> {
  const markdown = toMarkdown(results);
  const stamp = results.date.replace(/[:.]/g, '-');
  await writeFile(path.join(RESULTS, `${stamp}.json`), JSON.stringify(results, null, 2));
  await writeFile(path.join(RESULTS, `${stamp}.md`), `${markdown}\n`);
  await writeFile(path.join(RESULTS, 'latest.json'), JSON.stringify(results, null, 2));
  await writeFile(path.join(RESULTS, 'latest.md'), `${markdown}\n`);
  console.log(markdown);
  log(`results in ${path.join(RESULTS, `${stamp}.{json,md}`)}`);
}
