/**
 * The scale-out results: one row per configuration measured (Cabinet on an engine with n instances
 * behind the balancer, or nginx alone with n workers), the ratios the issue asks about with their
 * targets, and the markdown printed at the end of a run.
 */
import type { PassResult } from './autocannon-pass.ts';
import type { TransferResult } from './measure.ts';
import type { Series } from './report.ts';
import type { Engine } from './scale-config.ts';
import type { RestartResult } from './scale-restart.ts';
import { best, fmt } from './stats.ts';

/** Cores' worth of CPU used during a pass (CPU seconds per second of the pass). */
export interface CpuUse {
  /** Each Cabinet instance behind the balancer, or the nginx server alone. */
  servers: number[];
  /** The balancer's master and workers (Cabinet rows only). */
  balancer?: number;
  /** The benchmark process itself: autocannon. */
  client: number;
  /** Everything else on the machine (other jobs on a shared machine, the kernel's own work). */
  others: number;
}

export interface ListingPass {
  pass?: PassResult;
  cpu?: CpuUse;
  error?: string;
}

export interface TargetResult {
  /** e.g. `sqlite-2`, `nginx-1`. */
  key: string;
  label: string;
  kind: 'cabinet' | 'nginx';
  engine?: Engine;
  /** Cabinet instances behind the balancer, or nginx worker processes. */
  count: number;
  /** By number of connections. */
  listing: Record<number, ListingPass>;
  download: Series<TransferResult>;
  /** Why the configuration could not be measured at all. */
  error?: string;
}

export interface Ratio {
  name: string;
  value: number;
  /** e.g. "≥ 1.60×", or "—" for information. */
  target: string;
  pass: boolean | undefined;
}

export interface ScaleResults {
  date: string;
  machine: Record<string, string | number>;
  settings: Record<string, string | number>;
  listingEntries: number;
  downloadBytes: number;
  targets: TargetResult[];
  ratios: Ratio[];
  /** A rolling restart of the last instance under listing load, per engine. */
  restarts: Partial<Record<Engine, RestartResult | { error: string }>>;
  /** The balancer's nginx.conf of the widest configuration. */
  balancerConfig: string;
}

export const targetKey = (kind: Engine | 'nginx', count: number) => `${kind}-${count}`;

const rps = (target: TargetResult | undefined, connections: number) =>
  target?.listing[connections]?.pass?.requestsPerSecond ?? Number.NaN;
const mbps = (target: TargetResult | undefined) =>
  target ? best(target.download.runs.map((r) => r.mbps)) : Number.NaN;

/** The issue's targets (2 instances ≥ 1.6× one; PostgreSQL within 10% of SQLite) and context. */
export function computeRatios(
  targets: readonly TargetResult[],
  connections: readonly number[],
  engines: readonly Engine[],
): Ratio[] {
  const byKey = new Map(targets.map((t) => [t.key, t]));
  const get = (kind: Engine | 'nginx', count: number) => byKey.get(targetKey(kind, count));
  const ratios: Ratio[] = [];
  const add = (name: string, value: number, min?: number) =>
    ratios.push({
      name,
      value,
      target: min === undefined ? '—' : `≥ ${min.toFixed(2)}×`,
      pass: min === undefined || !Number.isFinite(value) ? undefined : value >= min,
    });
  const engineName = (engine: Engine) => (engine === 'sqlite' ? 'SQLite' : 'PostgreSQL');

  for (const engine of engines) {
    for (const c of connections)
      add(
        `${engineName(engine)}: listing, 2 instances vs 1, ${c} connections`,
        rps(get(engine, 2), c) / rps(get(engine, 1), c),
        1.6,
      );
    add(
      `${engineName(engine)}: download, 2 instances vs 1`,
      mbps(get(engine, 2)) / mbps(get(engine, 1)),
    );
  }
  if (engines.includes('sqlite') && engines.includes('postgresql')) {
    for (const n of [1, 2]) {
      // The target is for one instance; with two, the figure is for information.
      const min = n === 1 ? 0.9 : undefined;
      for (const c of connections)
        add(
          `PostgreSQL vs SQLite: listing, ${n} instance${n > 1 ? 's' : ''}, ${c} connections`,
          rps(get('postgresql', n), c) / rps(get('sqlite', n), c),
          min,
        );
      add(
        `PostgreSQL vs SQLite: download, ${n} instance${n > 1 ? 's' : ''}`,
        mbps(get('postgresql', n)) / mbps(get('sqlite', n)),
        min,
      );
    }
  }
  for (const engine of engines)
    for (const n of [1, 2]) {
      if (!get('nginx', n)) continue;
      for (const c of connections)
        add(
          `${engineName(engine)} ×${n} vs nginx alone (${n} worker${n > 1 ? 's' : ''}): listing, ${c} connections`,
          rps(get(engine, n), c) / rps(get('nginx', n), c),
        );
      add(
        `${engineName(engine)} ×${n} vs nginx alone (${n} worker${n > 1 ? 's' : ''}): download`,
        mbps(get(engine, n)) / mbps(get('nginx', n)),
      );
    }
  return ratios;
}

const cores = (value: number | undefined) => (value === undefined ? '—' : value.toFixed(2));

export function toMarkdown(results: ScaleResults, connections: readonly number[]): string {
  const m = results.machine;
  const lines = [
    `# Scale-out benchmark, ${results.date}`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Linux ${m.kernel}, Node ${m.node}, ${m.nginx}; ` +
      `load before ${m.loadBefore}, after ${m.loadAfter}; ${m.durationSeconds} s.`,
    `Settings: ${Object.entries(results.settings)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}.`,
    `Listing of ${results.listingEntries.toLocaleString('en-US')} entries; download of ` +
      `${(results.downloadBytes / 1024 ** 3).toFixed(2)} GiB (best of the runs).`,
    '',
    `| Configuration | ${connections.map((c) => `Listing req/s, ${c} conn (p50 ms)`).join(' | ')} | Download MiB/s |`,
    `|---|${connections.map(() => '---:').join('|')}|---:|`,
  ];
  for (const t of results.targets) {
    const cells = connections.map((c) => {
      const entry = t.listing[c];
      if (!entry?.pass) return entry?.error ? `error: ${entry.error}` : '—';
      const { pass } = entry;
      const failed = pass.errors + pass.non2xx;
      return `${fmt(pass.requestsPerSecond, 1)} (${fmt(pass.p50Ms, 0)})${failed ? `, ${failed} failed` : ''}`;
    });
    const download = t.download.runs.length
      ? fmt(best(t.download.runs.map((r) => r.mbps)))
      : t.download.error
        ? `error: ${t.download.error}`
        : '—';
    lines.push(
      t.error
        ? `| ${t.label} | ${connections.map(() => '—').join(' | ')} | error: ${t.error} |`
        : `| ${t.label} | ${cells.join(' | ')} | ${download} |`,
    );
  }
  lines.push(
    '',
    `CPU during the listing passes, in cores (${m.cpus} available): servers (each instance, or nginx) / balancer / client / everything else on the machine.`,
    '',
    `| Configuration | ${connections.map((c) => `${c} conn`).join(' | ')} |`,
    `|---|${connections.map(() => '---').join('|')}|`,
  );
  for (const t of results.targets) {
    if (t.error) continue;
    const cells = connections.map((c) => {
      const cpu = t.listing[c]?.cpu;
      if (!cpu) return '—';
      const servers = cpu.servers.map((s) => cores(s)).join(' + ');
      return `${servers} / ${cores(cpu.balancer)} / ${cores(cpu.client)} / ${cores(cpu.others)}`;
    });
    lines.push(`| ${t.label} | ${cells.join(' | ')} |`);
  }
  const restarts = Object.entries(results.restarts);
  if (restarts.length) {
    lines.push(
      '',
      'Rolling restart of the last instance behind the balancer, under listing load:',
      '',
      '| Engine | Answered | Failed | Stopping, s | Stop to ready again, s |',
      '|---|---:|---:|---:|---:|',
    );
    for (const [engine, r] of restarts)
      lines.push(
        'error' in r
          ? `| ${engine} | error: ${r.error} | | | |`
          : `| ${engine} | ${r.answered} | ${r.failed} | ${fmt(r.stopSeconds)} | ${fmt(r.downSeconds)} |`,
      );
  }
  lines.push('', '| Ratio | Value | Target | Result |', '|---|---:|---:|---|');
  for (const r of results.ratios)
    lines.push(
      `| ${r.name} | ${fmt(r.value, 2)}× | ${r.target} | ${r.pass === undefined ? '—' : r.pass ? 'pass' : 'miss'} |`,
    );
  return lines.join('\n');
}
