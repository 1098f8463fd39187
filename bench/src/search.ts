/**
 * Search benchmark (docs/search.md, "Figures"): one run over a generated tree measures Cabinet's
 * first index build (time, peak RSS, memory per entry), the time from a restart until a search is
 * answered from the persisted index, and query latency (selective, broad, `type:`), next to GNU
 * `find -iname` and `plocate` (Debian packages) on the same tree and queries. Everything runs on
 * 127.0.0.1; every loop has a fixed count, and every wait a deadline.
 *
 *   npm run search -w bench                                  # 1,000,000 files in 20,000 folders
 *   BENCH_SEARCH_FILES=100000 BENCH_SEARCH_FOLDERS=2000 npm run search -w bench
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_DIR } from './layout.ts';
import { readMemory, RssSampler, settledRss } from './rss.ts';
import { ensureSearchTree, fileName, searchTree } from './search-tree.ts';
import { login, startCabinet, waitForLog } from './servers.ts';
import { fmt, now, percentile } from './stats.ts';

const PASSWORD = 'bench-search-password-1234';
const MIB = 1024 * 1024;

interface Timing {
  first50: number[];
  end: number[];
  results: number;
}

/** One search: time to the 50th line (or the end, when fewer) and to the end, in ms. */
async function timeSearch(url: string, token: string, query: string) {
  const started = now();
  const response = await fetch(`${url}/api/search/?query=${encodeURIComponent(query)}`, {
    headers: { 'X-Auth': token },
  });
  if (response.status !== 200) throw new Error(`search ${query}: ${response.status}`);
  let lines = 0;
  let first50: number | undefined;
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const text = decoder.decode(value, { stream: true });
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    if (first50 === undefined && lines >= 50) first50 = now() - started;
  }
  const end = now() - started;
  return { first50: first50 ?? end, end, lines };
}

async function timeQueries(url: string, token: string, query: string, runs: number) {
  const timing: Timing = { first50: [], end: [], results: 0 };
  for (let i = 0; i < runs; i++) {
    const { first50, end, lines } = await timeSearch(url, token, query);
    timing.first50.push(first50);
    timing.end.push(end);
    timing.results = lines;
  }
  return timing;
}

/** Runs a command `runs` times; wall time per run in ms and the lines of the last output. */
function timeCommand(command: string, args: string[], runs: number) {
  const times: number[] = [];
  let lines = 0;
  for (let i = 0; i < runs; i++) {
    const started = now();
    const result = spawnSync(command, args, { maxBuffer: 512 * MIB, encoding: 'utf8' });
    times.push(now() - started);
    if (result.error) throw result.error;
    lines = result.stdout.split('\n').filter((row) => row !== '').length;
  }
  return { times, lines };
}

function available(command: string): boolean {
  return spawnSync(command, ['--version'], { encoding: 'utf8' }).status === 0;
}

async function main() {
  const tree = searchTree();
  const generated = ensureSearchTree(tree);
  const entries = tree.files + tree.folders + Math.round(Math.sqrt(tree.folders / 2));
  console.log(`tree: ${tree.files} files in ${tree.folders} folders (${fmt(generated)} s to make)`);
  // A name that exists once: invoice names are n ≡ 2 (mod 8).
  let rare = Math.floor(tree.files * 0.77);
  while (fileName(rare).startsWith('invoice-') === false) rare++;
  const queries = {
    selective: fileName(rare).replace('.pdf', ''),
    broad: 'report',
    type: 'type:image',
  };

  // Baseline: the same server on an empty root, for the RSS the index adds.
  const emptyRoot = mkdtempSync(path.join(os.tmpdir(), 'cabinet-search-empty-'));
  const env = { CABINET_LOG_LEVEL: 'info' };
  const emptyAt = now();
  const empty = await startCabinet({ root: emptyRoot, password: PASSWORD, env });
  const startup = now() - emptyAt;
  await waitForLog(empty, 'search index ready', 60_000);
  const baseRss = await settledRss(empty.pid);
  await empty.stop();
  rmSync(emptyRoot, { recursive: true, force: true });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-search-data-'));
  const started = now();
  const server = await startCabinet({ root: tree.root, password: PASSWORD, env, dataDir });
  const sampler = new RssSampler(server.pid);
  sampler.start();
  const ready = await waitForLog(server, 'search index ready', 300_000);
  const buildWall = now() - started;
  const buildPeak = sampler.stop().peak;
  const readyRss = readMemory(server.pid)!.rss;
  const settled = await settledRss(server.pid);
  const token = await login(server.url, 'admin', PASSWORD);

  const timings: Record<string, Timing> = {
    selective: await timeQueries(server.url, token, queries.selective, 50),
    broad: await timeQueries(server.url, token, queries.broad, 20),
    type: await timeQueries(server.url, token, queries.type, 10),
  };
  const queryPeak = readMemory(server.pid)!.hwm;
  await server.stop();

  // Restart: time from spawn to the first search answered, and to the end of reconciliation.
  const restartAt = now();
  const again = await startCabinet({ root: tree.root, password: PASSWORD, env, dataDir });
  // Spawn to listening is the process's own start (the same on an empty root); from listening on
  // is what the index controls: login and the first search, answered from the loaded table.
  const listening = now() - restartAt;
  const againToken = await login(again.url, 'admin', PASSWORD);
  const firstAnswer = await timeSearch(again.url, againToken, queries.selective);
  const restartToAnswer = now() - restartAt;
  const listenToAnswer = restartToAnswer - listening;
  const loaded = await waitForLog(again, 'search index loaded', 10_000);
  const reconciled = await waitForLog(again, 'search index reconciled', 300_000);
  await again.stop();
  rmSync(dataDir, { recursive: true, force: true });

  // The same queries with find and plocate.
  const findArgs = {
    selective: [tree.root, '-iname', `*${queries.selective}*`],
    broad: [tree.root, '-iname', `*${queries.broad}*`],
    type: [tree.root, '-type', 'f', '(', '-iname', '*.jpg', '-o', '-iname', '*.png', ')'],
  };
  const find = Object.fromEntries(
    Object.entries(findArgs).map(([name, args]) => [name, timeCommand('find', args, 3)]),
  );
  let plocate: Record<string, { times: number[]; lines: number }> | undefined;
  let updatedbMs: number | undefined;
  if (available('plocate')) {
    const db = path.join(mkdtempSync(path.join(os.tmpdir(), 'plocate-')), 'db');
    const updatedb = timeCommand('updatedb', ['-o', db, '-U', tree.root, '-l', '0'], 1);
    updatedbMs = updatedb.times[0];
    const plocateArgs = {
      selective: ['-d', db, '-i', '-b', queries.selective],
      broad: ['-d', db, '-i', '-b', queries.broad],
      type: ['-d', db, '-b', '--regex', '\\.(jpg|png)$'],
    };
    plocate = Object.fromEntries(
      Object.entries(plocateArgs).map(([name, args]) => [name, timeCommand('plocate', args, 20)]),
    );
    rmSync(path.dirname(db), { recursive: true, force: true });
  }

  const p = (values: number[], q: number) => fmt(percentile(values, q));
  const rows = Object.keys(queries).map((name) => {
    const t = timings[name]!;
    const f = find[name]!;
    const l = plocate?.[name];
    return `| ${name} (\`${queries[name as keyof typeof queries]}\`) | ${t.results} | ${p(t.first50, 50)} / ${p(t.first50, 99)} | ${p(t.end, 50)} / ${p(t.end, 99)} | ${p(f.times, 50)} (${f.lines}) | ${l ? `${p(l.times, 50)} / ${p(l.times, 99)} (${l.lines})` : '—'} |`;
  });
  const report = [
    `## Search, ${new Date().toISOString().slice(0, 16)}Z: ${tree.files.toLocaleString('en')} files in ${tree.folders.toLocaleString('en')} folders`,
    '',
    `- First build: ${fmt(ready.ms / 1000, 2)} s in the server (${fmt(buildWall / 1000, 2)} s from spawn), ${ready.entries} entries, ${ready.folders} folders watched.`,
    `- Peak RSS during the build: ${fmt(buildPeak / MIB)} MiB; after queries (VmHWM): ${fmt(queryPeak / MIB)} MiB.`,
    `- Memory per entry: RSS delta ${fmt((settled - baseRss) / entries)} B once settled (${fmt(settled / MIB)} MiB vs ${fmt(baseRss / MIB)} MiB on an empty root), ${fmt((readyRss - baseRss) / entries)} B when the build ended (${fmt(readyRss / MIB)} MiB); the table's own arrays ${fmt(ready.bytes / entries)} B.`,
    `- Restart: first search answered ${fmt(restartToAnswer / 1000, 2)} s after spawn, ${fmt(listenToAnswer / 1000, 2)} s after the server listened (${fmt(listening / 1000, 2)} s from spawn; login included), with ${firstAnswer.lines} result(s) (index loaded in ${loaded.ms} ms); reconciliation done ${fmt(reconciled.ms / 1000, 2)} s later. For scale: the same server on an empty root answers /health ${fmt(startup / 1000, 2)} s after spawn.`,
    updatedbMs !== undefined
      ? `- plocate's updatedb over the tree: ${fmt(updatedbMs / 1000, 2)} s.`
      : '- plocate: not installed.',
    '',
    '| Query | Results | Cabinet first 50 p50 / p99 (ms) | Cabinet to the end p50 / p99 (ms) | find -iname p50 (results) | plocate p50 / p99 (results) |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  console.log(report);
  const out = path.join(BENCH_DIR, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'search-latest.md'), report);
}

await main();
