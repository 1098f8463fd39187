/**
 * Turns the raw results into the checks against the targets and a markdown report.
 */
import type { PhaseMemory } from './rss.ts';
import { rssPerCachedByte, rssPerEntry, type MemoryCost } from './memory-cost.ts';
import type { LoadResult, TransferResult } from './measure.ts';
import { MIB, type DatasetSpec } from './layout.ts';
import { best, fmt } from './stats.ts';

/** A measurement that ran (some runs) or failed with a message. */
export interface Series<T> {
  runs: T[];
  error?: string;
}

export interface ListingResult {
  entries: number;
  /** One connection: latency percentiles. */
  latency: Series<LoadResult>;
  /** Several connections: requests per second. */
  throughput: Series<LoadResult>;
}

export interface BenchResults {
  date: string;
  machine: Record<string, string | number>;
  spec: DatasetSpec;
  settings: Record<string, string | number>;
  listing: Record<'small' | 'large', Record<'cabinet' | 'nginx', ListingResult>>;
  download: Record<'cabinet' | 'nginx', Series<TransferResult>>;
  upload: Record<'local' | 'post' | 'tus' | 'nginxPut', Series<TransferResult>>;
  archive: {
    sourceBytes: number;
    tarPipe: Series<TransferResult>;
    gzipCli: Series<TransferResult>;
    zipCli: Series<TransferResult>;
    tar: Series<TransferResult>;
    targz: Series<TransferResult>;
    zip: Series<TransferResult>;
  };
  memory: Record<string, PhaseMemory | { error: string }>;
  /** RSS per indexed entry and per cached listing byte (absent in results of older runs). */
  memoryCost?: MemoryCost;
  checks: Check[];
}

export interface Check {
  name: string;
  cabinet: string;
  baseline: string;
  /** Cabinet's figure relative to the baseline's (lower is better for latency and memory). */
  ratio: number;
  target: string;
  /** Undefined when not measured, or for a figure given for information (no target). */
  pass: boolean | undefined;
  /** A figure with no target (the table shows a dash for its target and result). */
  information?: boolean;
}

const bestMbps = (series: Series<TransferResult>) => best(series.runs.map((r) => r.mbps));
/** Lowest p50 over the runs (one run per server unless repeated). */
const bestP50 = (series: Series<LoadResult>) =>
  series.runs.length ? Math.min(...series.runs.map((r) => r.p50Ms)) : Number.NaN;

/** The brief's targets as ratios within one run. */
export function computeChecks(results: BenchResults): Check[] {
  const checks: Check[] = [];
  const ok = (value: number, test: (v: number) => boolean) =>
    Number.isFinite(value) ? test(value) : undefined;

  for (const size of ['small', 'large'] as const) {
    const { cabinet, nginx } = results.listing[size];
    const c = bestP50(cabinet.latency);
    const n = bestP50(nginx.latency);
    const ratio = c / n;
    checks.push({
      name: `Listing p50, ${cabinet.entries.toLocaleString('en-US')} entries`,
      cabinet: `${fmt(c)} ms`,
      baseline: `nginx ${fmt(n)} ms`,
      ratio,
      // Issue #30: at most 1.25× nginx's JSON autoindex of the same folder, one connection.
      target: '≤ 1.25×',
      pass: ok(ratio, (r) => r <= 1.25),
    });
  }

  const transfer = (
    name: string,
    cabinet: Series<TransferResult>,
    baseline: Series<TransferResult>,
    baselineName: string,
    /** The least ratio that passes; undefined for a figure given for information. */
    min: number | undefined,
  ) => {
    const c = bestMbps(cabinet);
    const b = bestMbps(baseline);
    const ratio = c / b;
    const measure = {
      cabinet: `${fmt(c)} MB/s`,
      baseline: `${baselineName} ${fmt(b)} MB/s`,
      ratio,
    };
    checks.push(
      min === undefined
        ? {
            name: `${name} (information)`,
            ...measure,
            target: '—',
            pass: undefined,
            information: true,
          }
        : {
            name,
            ...measure,
            target: `≥ ${(min * 100).toFixed(0)}%`,
            pass: ok(ratio, (r) => r >= min),
          },
    );
  };
  transfer('Download 1 file', results.download.cabinet, results.download.nginx, 'nginx', 0.8);
  transfer('Upload, POST', results.upload.post, results.upload.local, 'local write+fsync', 0.7);
  transfer('Upload, TUS', results.upload.tus, results.upload.local, 'local write+fsync', 0.7);
  const { archive } = results;
  transfer('Archive .tar', archive.tar, archive.tarPipe, 'tar pipe', 0.6);
  // Bound by the compressor on one core (docs/benchmarks.md, Targets): rated against the same
  // compressor on the command line, with no target.
  transfer('Archive .tar.gz', archive.targz, archive.gzipCli, 'gzip pipe', undefined);
  transfer('Archive .zip', archive.zip, archive.tarPipe, 'tar pipe', 0.4);

  const peaks = Object.values(results.memory)
    .filter((m): m is PhaseMemory => 'peak' in m)
    .map((m) => m.peak);
  const peak = peaks.length ? Math.max(...peaks) / MIB : Number.NaN;
  checks.push({
    name: 'Peak RSS, all phases',
    cabinet: `${fmt(peak)} MiB`,
    baseline: 'limit 200 MiB',
    ratio: peak / 200,
    target: '< 200 MiB',
    pass: ok(peak, (p) => p < 200),
  });
  return checks;
}

const verdict = (pass: boolean | undefined) =>
  pass === undefined ? 'not measured' : pass ? 'pass' : '**miss**';

const ratioText = (check: Check) =>
  !Number.isFinite(check.ratio)
    ? '—'
    : check.target.startsWith('≤')
      ? `${check.ratio.toFixed(2)}×`
      : `${(check.ratio * 100).toFixed(0)}%`;

/** The report as markdown: targets first, then the detailed figures behind them. */
export function toMarkdown(results: BenchResults): string {
  const lines: string[] = [];
  const { spec, machine } = results;
  lines.push(`### Cabinet benchmark — ${results.date}`, '');
  lines.push(
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB RAM, ` +
      `Linux ${machine.kernel}, Node ${machine.node}, ${machine.nginx}; ` +
      `load average ${machine.loadBefore} before, ${machine.loadAfter} after.`,
  );
  lines.push(
    `Dataset (scale ${spec.scale}): ${spec.smallListing.toLocaleString('en-US')} and ` +
      `${spec.largeListing.toLocaleString('en-US')} entry folders, ` +
      `${fmt(spec.bigFileBytes / MIB, 0)} MiB file, ${spec.mixedFiles.toLocaleString('en-US')} files ` +
      `totalling ${fmt(spec.mixedBytes / MIB, 0)} MiB. ` +
      `Settings: ${Object.entries(results.settings)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`,
    '',
  );

  lines.push('| Check | Cabinet | Baseline | Ratio | Target | Result |');
  lines.push('|---|---:|---:|---:|---:|---|');
  for (const check of results.checks)
    lines.push(
      `| ${check.name} | ${check.cabinet} | ${check.baseline} | ${ratioText(check)} | ${check.target} | ${check.information ? '—' : verdict(check.pass)} |`,
    );
  lines.push('');

  lines.push(
    '| Listing | Server | p50 ms | p99 ms | req/s (1 conn) | req/s (N conns) | Requests | Body |',
  );
  lines.push('|---|---|---:|---:|---:|---:|---:|---:|');
  for (const size of ['small', 'large'] as const) {
    for (const server of ['cabinet', 'nginx'] as const) {
      const r = results.listing[size][server];
      const lat = r.latency.runs[0];
      const thr = r.throughput.runs[0];
      const error = r.latency.error ?? r.throughput.error;
      lines.push(
        `| ${r.entries.toLocaleString('en-US')} | ${server} | ${fmt(lat?.p50Ms)} | ${fmt(lat?.p99Ms)} | ` +
          `${fmt(lat?.requestsPerSecond)} | ${fmt(thr?.requestsPerSecond)} | ` +
          `${(lat?.requests ?? 0) + (thr?.requests ?? 0)} | ` +
          `${lat ? `${fmt(lat.bodyBytes / MIB, 2)} MiB` : '—'}${error ? ` (error: ${error})` : ''} |`,
      );
    }
  }
  lines.push('');

  const { archive } = results;
  const rows: [string, Series<TransferResult>][] = [
    ['Download, Cabinet /api/raw', results.download.cabinet],
    ['Download, nginx sendfile', results.download.nginx],
    ['Upload, local write + fsync', results.upload.local],
    ['Upload, Cabinet POST', results.upload.post],
    ['Upload, Cabinet TUS', results.upload.tus],
    ['Upload, nginx PUT (no fsync; info)', results.upload.nginxPut],
    ['Folder, `tar cf - \\| wc -c`', archive.tarPipe],
    ['Folder, Cabinet .tar', archive.tar],
    ['Folder, `tar cf - \\| gzip -6` (info)', archive.gzipCli],
    ['Folder, Cabinet .tar.gz', archive.targz],
    ['Folder, `zip -r -` (info)', archive.zipCli],
    ['Folder, Cabinet .zip', archive.zip],
  ];
  lines.push('| Transfer | Best MB/s | Runs (MB/s) | Output / source |');
  lines.push('|---|---:|---|---:|');
  for (const [name, series] of rows) {
    const runs = series.runs.map((r) => fmt(r.mbps)).join(', ');
    const first = series.runs[0];
    const outRatio = first ? fmt(first.transferred / first.bytes, 2) : '—';
    lines.push(
      `| ${name} | ${fmt(bestMbps(series))} | ${runs || '—'}${series.error ? ` (error: ${series.error})` : ''} | ${outRatio} |`,
    );
  }
  lines.push('');

  lines.push('| Cabinet phase | Peak RSS MiB |');
  lines.push('|---|---:|');
  for (const [phase, memory] of Object.entries(results.memory))
    lines.push(
      `| ${phase} | ${'peak' in memory ? fmt(memory.peak / MIB) : `error: ${memory.error}`} |`,
    );
  lines.push('');
  if (results.memoryCost) lines.push(...memoryCostLines(results.memoryCost), '');
  lines.push(
    'MB/s = MiB of source data per second (archives: source bytes, not archive bytes); ' +
      'best of the runs. Latency = time to the last byte, sequential requests on one keep-alive connection.',
  );
  return lines.join('\n');
}

/** RSS per indexed entry and per cached listing byte, with the figures they come from. */
function memoryCostLines(cost: MemoryCost): string[] {
  const mib = (bytes: number | undefined) => (bytes === undefined ? '—' : fmt(bytes / MIB));
  const perEntry = rssPerEntry(cost);
  const perByte = rssPerCachedByte(cost);
  const lines = [
    '| Memory (settled RSS) | MiB | heap used MiB | array buffers MiB | Search index | Listing cache |',
    '|---|---:|---:|---:|---:|---:|',
    `| Empty root | ${mib(cost.emptyRootRss)} | | | | |`,
  ];
  for (const [label, point] of [
    ['Bench tree indexed', cost.indexed],
    ['After the listings', cost.listed],
  ] as const) {
    if (!point) continue;
    const { process: usage, searchIndex: index, listingCache: cache } = point.server;
    lines.push(
      `| ${label} | ${mib(point.settledRss)} | ${mib(usage.heapUsed)} | ${mib(usage.arrayBuffers)} | ` +
        `${index.entries.toLocaleString('en-US')} entries, ${mib(index.bytes)} MiB | ` +
        `${cache.folders} folders, ${mib(cache.bytes)} MiB |`,
    );
  }
  lines.push(
    '',
    `RSS per indexed entry: ${perEntry === undefined ? '—' : `${fmt(perEntry)} B`} ` +
      `(indexed − empty root, over the entries); ` +
      `RSS per cached listing byte: ${perByte === undefined ? '—' : fmt(perByte, 2)} ` +
      `(growth over the listing phases, over the cache's bytes; an upper bound)` +
      (cost.error ? `; error: ${cost.error}` : '') +
      '.',
  );
  return lines;
}
