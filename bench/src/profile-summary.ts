/**
 * Summarises a V8 CPU profile (.cpuprofile, as written by `node --cpu-prof`, e.g. by
 * `BENCH_CPU_PROF=1 npm run bench`): the functions and the files that took the most self time.
 *
 *   node --import tsx bench/src/profile-summary.ts <file.cpuprofile> [top=25]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  ms: number;
  percent: number;
}

/** Self time per function and per source file, largest first. */
export function summarise(profile: CpuProfile): {
  totalMs: number;
  functions: ProfileLine[];
  files: ProfileLine[];
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = profile.endTime - profile.startTime;
  const functions = new Map<string, number>();
  const files = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = frame.url ? frame.url.replace(/^file:\/\//, '') : '(native)';
    const short = file.includes('node_modules/')
      ? file.slice(file.lastIndexOf('node_modules/') + 13)
      : path.relative(process.cwd(), file) || file;
    const fn = `${frame.functionName || '(anonymous)'} ${short}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + micros);
    files.set(short, (files.get(short) ?? 0) + micros);
  }
  const lines = (map: Map<string, number>) =>
    [...map]
      .map(([name, micros]) => ({ name, ms: micros / 1000, percent: (micros / total) * 100 }))
      .sort((a, b) => b.ms - a.ms);
  return { totalMs: total / 1000, functions: lines(functions), files: lines(files) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, topArg] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
    process.exit(2);
  }
  const top = Number(topArg ?? 25);
  const summary = summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile);
  console.log(`profile: ${summary.totalMs.toFixed(0)} ms wall`);
  for (const [title, list] of [
    ['functions (self)', summary.functions],
    ['files (self)', summary.files],
  ] as const) {
    console.log(`\n${title}`);
    for (const line of list.slice(0, top))
      console.log(
        `${line.ms.toFixed(0).padStart(8)} ms ${line.percent.toFixed(1).padStart(5)}%  ${line.name}`,
      );
  }
}
