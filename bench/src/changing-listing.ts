/**
 * Listings of a folder a user is working in (docs/benchmarks.md, "Listing cache"): a 10,000- and
 * a 100,000-entry folder listed by Cabinet and by nginx's JSON autoindex side by side in one run,
 * once repeated as they are and once with a file added before each request (the folder then
 * changed since its last listing, so no cache can answer). Requests go one at a time, the two
 * servers taking turns, and each reply is read whole. Prints p50 and p90 per server and the p50
 * ratio (target: at most 1.25× nginx, issue 37).
 *
 * `npm run changing-listing -w bench` (BENCH_CHANGING_REPS: requests per case, default 40 for 10k
 * and 20 for 100k; BENCH_CHANGING_FOLDERS: `k10`, `k100` or both, comma separated; BENCH_NODE_FLAGS
 * as for `npm run bench`, e.g. `--cpu-prof --cpu-prof-dir=<dir>`; BENCH_CABINET_BIN: another
 * checkout's server/bin/cabinet.js, started beside this one and taking its turn in the same
 * rounds, so a change is compared A/B in one run).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileNames } from './dataset.ts';
import { CABINET_BIN, EXTRA_NODE_FLAGS } from './run-config.ts';
import { login, startCabinet, startNginx, type RunningServer } from './servers.ts';
import { fmt, now, percentile } from './stats.ts';

const PASSWORD = 'bench-changing-listing-password';
const REPS = Number(process.env.BENCH_CHANGING_REPS ?? 0);
const ONLY = new Set((process.env.BENCH_CHANGING_FOLDERS ?? 'k10,k100').split(','));
const FOLDERS = [
  { name: 'k10', count: 10_000, reps: REPS || 40 },
  { name: 'k100', count: 100_000, reps: REPS || 20 },
].filter((folder) => ONLY.has(folder.name));

/** One GET read whole; its time in ms (throws on a status other than 200). */
function timedGet(
  url: string,
  headers: Record<string, string>,
  agent: http.Agent,
): Promise<number> {
  const started = now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent, timeout: 60_000 }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(now() - started)
          : reject(new Error(`${url} answered ${response.statusCode}`)),
      );
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${url}: timeout`)));
    request.on('error', reject);
  });
}

interface Target {
  label: string;
  server: RunningServer;
  url: (folder: string) => string;
  headers: Record<string, string>;
}

async function main(): Promise<void> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'cabinet-changing-'));
  const root = path.join(base, 'root');
  for (const folder of FOLDERS) {
    mkdirSync(path.join(root, folder.name), { recursive: true });
    for (const name of fileNames(folder.count, folder.count)) {
      writeFileSync(path.join(root, folder.name, name), 'x');
    }
  }
  const cabinet = await startCabinet({ root, password: PASSWORD, nodeFlags: EXTRA_NODE_FLAGS });
  const other = CABINET_BIN
    ? await startCabinet({
        root,
        password: PASSWORD,
        nodeFlags: EXTRA_NODE_FLAGS,
        bin: CABINET_BIN,
      })
    : null;
  const nginx = await startNginx({
    root,
    uploadDir: path.join(base, 'upload'),
    scratch: base,
    workers: 1,
  });
  try {
    const cabinets = [
      { label: 'Cabinet', server: cabinet },
      ...(other ? [{ label: 'Cabinet B', server: other }] : []),
    ];
    const targets: Target[] = [];
    for (const { label, server } of cabinets) {
      const token = await login(server.url, 'admin', PASSWORD);
      targets.push({
        label,
        server,
        url: (folder) => `${server.url}/api/resources/${folder}/`,
        headers: { 'X-Auth': token },
      });
    }
    targets.push({
      label: 'nginx autoindex',
      server: nginx,
      url: (folder) => `${nginx.url}/${folder}/`,
      headers: {},
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const rows: string[] = [];
    let added = 0;
    for (const folder of FOLDERS) {
      for (const changed of [false, true]) {
        const times = new Map<Target, number[]>(targets.map((t) => [t, []]));
        // Warm-up: the index has the folder and its watch.
        for (let i = 0; i < 3; i++) {
          for (const target of targets)
            await timedGet(target.url(folder.name), target.headers, agent);
        }
        for (let i = 0; i < folder.reps; i++) {
          for (const target of targets) {
            if (changed) writeFileSync(path.join(root, folder.name, `added ${added++}.txt`), 'new');
            times.get(target)!.push(await timedGet(target.url(folder.name), target.headers, agent));
          }
        }
        const theirs = times.get(targets[targets.length - 1]!)!;
        const p50 = (values: number[]) => percentile(values, 50);
        for (const target of targets.slice(0, -1)) {
          const mine = times.get(target)!;
          rows.push(
            `| ${target.label}: ${folder.count / 1000}k listing, ` +
              `${changed ? 'a file added before each request' : 'repeated'} ` +
              `| ${fmt(p50(mine))} ms (p90 ${fmt(percentile(mine, 90))}) ` +
              `| ${fmt(p50(theirs))} ms (p90 ${fmt(percentile(theirs, 90))}) ` +
              `| ${fmt(p50(mine) / p50(theirs), 2)}× |`,
          );
        }
      }
    }
    agent.destroy();
    console.log('| | Cabinet p50 | nginx autoindex p50 | ratio |\n|---|---:|---:|---:|');
    for (const row of rows) console.log(row);
  } finally {
    await cabinet.stop();
    await other?.stop();
    await nginx.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

await main();
