/**
 * Issue #37's memory figure in two minutes instead of a full `npm run bench`: Cabinet's settled and
 * peak RSS with the search benchmark's 1,000,000-file tree indexed (search-tree.ts), then while
 * folders of 10,000 and 100,000 entries are listed as the benchmark's listing phase lists them
 * (one connection, then BENCH_LIST_CONNECTIONS). The served root is the search tree's parent
 * folder, with the two listing folders made beside the tree (empty files, once).
 *
 *   node --import tsx bench/src/index-listing-memory.ts     # BENCH_SEARCH_FILES etc. as search.ts
 *
 * BENCH_CABINET_BIN: another checkout's server/bin/cabinet.js, to compare a change (run.ts);
 * BENCH_NODE_FLAGS and BENCH_SERVER_LOG as for `npm run bench` (e.g. `--trace-gc`).
 */
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadLoop } from './measure.ts';
import { indexReady, serverMemory } from './memory-cost.ts';
import { readMemory, RssSampler, settledRss } from './rss.ts';
import { EXTRA_NODE_FLAGS } from './run-config.ts';
import { ensureSearchTree, searchTree } from './search-tree.ts';
import { login, startCabinet } from './servers.ts';
import { fmt } from './stats.ts';

const PASSWORD = 'bench-index-listing-password-1234';
const MIB = 1024 * 1024;
const CONNECTIONS = Number(process.env.BENCH_LIST_CONNECTIONS ?? 4);

/** A folder of `count` empty files beside the search tree, made once. */
function listingFolder(base: string, count: number): string {
  const name = `listing-${count}`;
  const folder = path.join(base, name);
  const marker = path.join(base, `${name}.complete`);
  if (!existsSync(marker)) {
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < count; i++) {
      closeSync(openSync(path.join(folder, `file-${String(i).padStart(6, '0')}.txt`), 'w'));
    }
    writeFileSync(marker, '');
  }
  return name;
}

const tree = searchTree();
ensureSearchTree(tree);
const base = path.dirname(tree.root);
const folders = { small: listingFolder(base, 10_000), large: listingFolder(base, 100_000) };
const bin = process.env.BENCH_CABINET_BIN ? path.resolve(process.env.BENCH_CABINET_BIN) : undefined;
const server = await startCabinet({
  root: base,
  password: PASSWORD,
  nodeFlags: EXTRA_NODE_FLAGS,
  ...(bin && { bin }),
});
const sampler = new RssSampler(server.pid);
const report: string[] = [];
try {
  sampler.start();
  const token = await login(server.url, 'admin', PASSWORD);
  const memory = await indexReady(server.url, token);
  const startup = sampler.stop().peak;
  const settled = await settledRss(server.pid);
  const heap = (await serverMemory(server.url, token)).process;
  report.push(`heap total ${fmt(heap.heapTotal / MIB)}, external ${fmt(heap.external / MIB)}`);
  report.push(
    `index: ${memory.searchIndex.entries} entries, ${fmt(memory.searchIndex.bytes / MIB)} MiB of arrays`,
    `startup peak ${fmt(startup / MIB)} MiB; settled ${fmt(settled / MIB)} MiB (heap used ${fmt(heap.heapUsed / MIB)}, array buffers ${fmt(heap.arrayBuffers / MIB)})`,
  );
  for (const [size, folder] of Object.entries(folders)) {
    const perPass = size === 'small' ? 30 : 10;
    const target = { url: `${server.url}/api/resources/${folder}/`, headers: { 'X-Auth': token } };
    sampler.start();
    const one = await loadLoop({ ...target, connections: 1, maxRequests: perPass, maxSeconds: 60 });
    const many = await loadLoop({
      ...target,
      connections: CONNECTIONS,
      maxRequests: perPass * 2,
      maxSeconds: 60,
    });
    const peak = sampler.stop().peak;
    report.push(
      `listing ${folder}: peak ${fmt(peak / MIB)} MiB; p50 ${fmt(one.p50Ms)} ms (1 conn), ${fmt(many.p50Ms)} ms (${CONNECTIONS} conn)${one.errors + many.errors ? `, ${one.errors + many.errors} errors` : ''}`,
    );
  }
  const after = await settledRss(server.pid);
  const hwm = readMemory(server.pid)!.hwm;
  const { process: used, listingCache } = await serverMemory(server.url, token);
  report.push(
    `after the listings: settled ${fmt(after / MIB)} MiB (heap used ${fmt(used.heapUsed / MIB)} of ${fmt(used.heapTotal / MIB)}, external ${fmt(used.external / MIB)}, array buffers ${fmt(used.arrayBuffers / MIB)}, listing cache ${fmt(listingCache.bytes / MIB)} MiB in ${listingCache.folders} folders); VmHWM ${fmt(hwm / MIB)} MiB`,
  );
} finally {
  await server.stop();
}
console.log(report.join('\n'));
