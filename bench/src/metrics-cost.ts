/**
 * `npm run metrics-cost -w bench`: what `--metrics` costs the listing and download figures of
 * `npm run bench` (issue #42: under 3%). Two Cabinet processes serve the same data set, one with
 * metrics off and one with them on; rounds alternate which goes first, and each round measures the
 * small and the large listing (requests per second over LIST_CONNECTIONS connections, and p50 of
 * one connection) and the download of big.bin on both. Prometheus is imitated by a scrape of the
 * metrics-on server between rounds. The report gives each figure's median, its spread (min–max)
 * and the change of the medians, on a machine that is shared and noisy.
 *
 * Environment: BENCH_SCALE, BENCH_DATA (the data set, as for `npm run bench`), BENCH_ROUNDS
 * (default 5), BENCH_LIST_CONNECTIONS (default 4).
 */
import { randomBytes } from 'node:crypto';
import { ensureDataset } from './dataset.ts';
import { datasetLayout } from './layout.ts';
import { curlDownload, loadLoop } from './measure.ts';
import { log } from './run-checks.ts';
import { LIST_CONNECTIONS } from './run-config.ts';
import { login, startCabinet, type RunningServer } from './servers.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1)
  throw new Error('BENCH_ROUNDS must be a positive integer');

type Side = 'off' | 'on';
type Figure = 'small req/s' | 'small p50 ms' | 'large req/s' | 'large p50 ms' | 'download MB/s';
const FIGURES: Figure[] = [
  'small req/s',
  'small p50 ms',
  'large req/s',
  'large p50 ms',
  'download MB/s',
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const layout = datasetLayout();
  const { spec, root, names } = layout;
  log(`scale ${spec.scale}: dataset in ${root}`);
  await ensureDataset(layout, log);
  const password = randomBytes(18).toString('base64url');
  const servers: Record<Side, RunningServer | undefined> = { off: undefined, on: undefined };
  const figures: Record<Side, Record<Figure, number[]>> = {
    off: Object.fromEntries(FIGURES.map((f) => [f, []])) as unknown as Record<Figure, number[]>,
    on: Object.fromEntries(FIGURES.map((f) => [f, []])) as unknown as Record<Figure, number[]>,
  };
  try {
    servers.off = await startCabinet({ root, password });
    servers.on = await startCabinet({ root, password, env: { CABINET_METRICS: 'true' } });
    const tokens = {
      off: await login(servers.off.url, 'admin', password),
      on: await login(servers.on.url, 'admin', password),
    };
    const measure = async (side: Side) => {
      const server = servers[side]!;
      const headers = { 'x-auth': tokens[side] };
      for (const size of ['small', 'large'] as const) {
        const folder = size === 'small' ? names.smallListing : names.largeListing;
        const url = `${server.url}/api/resources/${folder}/`;
        const perPass = size === 'small' ? 100 : 30;
        const maxSeconds = size === 'small' ? 30 : 60;
        await loadLoop({ url, headers, connections: 1, maxRequests: 3, maxSeconds }); // warm
        const one = await loadLoop({
          url,
          headers,
          connections: 1,
          maxRequests: perPass,
          maxSeconds,
        });
        const many = await loadLoop({
          url,
          headers,
          connections: LIST_CONNECTIONS,
          maxRequests: perPass * 2,
          maxSeconds,
        });
        if (one.errors || many.errors)
          throw new Error(`${side}: ${one.firstError ?? many.firstError}`);
        figures[side][`${size} p50 ms`].push(one.p50Ms);
        figures[side][`${size} req/s`].push(many.requestsPerSecond);
      }
      const download = await curlDownload(
        `${server.url}/api/raw/${names.bigFile}`,
        headers,
        spec.bigFileBytes,
        300,
      );
      figures[side]['download MB/s'].push(download.mbps);
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Side[] = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      for (const side of order) await measure(side);
      const scrape = await fetch(`${servers.on.url}/metrics`);
      if (scrape.status !== 200) throw new Error(`GET /metrics answered ${scrape.status}`);
      await scrape.text();
      log(
        `round ${round + 1}/${ROUNDS}: ` +
          FIGURES.map(
            (f) =>
              `${f} ${figures.off[f].at(-1)!.toFixed(1)} → ${figures.on[f].at(-1)!.toFixed(1)}`,
          ).join(', '),
      );
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s?.stop().catch(() => undefined)));
  }
  const rows = FIGURES.map((f) => {
    const off = median(figures.off[f]);
    const on = median(figures.on[f]);
    const spread = (values: number[]) =>
      `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
    const change = ((on - off) / off) * 100;
    return `| ${f} | ${off.toFixed(1)} (${spread(figures.off[f])}) | ${on.toFixed(1)} (${spread(figures.on[f])}) | ${change >= 0 ? '+' : ''}${change.toFixed(1)}% |`;
  });
  console.log(
    [
      `Metrics cost, scale ${spec.scale}, ${ROUNDS} alternating rounds, ${LIST_CONNECTIONS} connections for req/s`,
      '',
      '| figure | metrics off: median (min–max) | metrics on: median (min–max) | change of medians |',
      '|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
