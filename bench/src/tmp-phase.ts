import path from 'node:path';
import { loadLoop } from './measure.ts';
import { indexReady, serverMemory } from './memory-cost.ts';
import { readMemory } from './rss.ts';
import { searchTree } from './search-tree.ts';
import { login, startCabinet } from './servers.ts';
const MIB = 1024 * 1024;
const base = path.dirname(searchTree().root);
const server = await startCabinet({ root: base, password: 'bench-index-listing-password-1234', nodeFlags: (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean) });
const token = await login(server.url, 'admin', 'bench-index-listing-password-1234');
const snap = async (label: string) => {
  const { process: p } = await serverMemory(server.url, token);
  console.log(label, 'rss', (readMemory(server.pid)!.rss / MIB).toFixed(1), 'heapUsed', (p.heapUsed / MIB).toFixed(1), 'heapTotal', (p.heapTotal / MIB).toFixed(1), 'ab', (p.arrayBuffers / MIB).toFixed(1));
};
try {
  await indexReady(server.url, token);
  await snap('indexed');
  const target = { url: `${server.url}/api/resources/listing-100000/`, headers: { 'X-Auth': token } };
  await loadLoop({ ...target, connections: 1, maxRequests: 1, maxSeconds: 60 });
  await snap('first listing');
  await new Promise((r) => setTimeout(r, 7000));
  await snap('7 s later');
  await loadLoop({ ...target, connections: 4, maxRequests: 40, maxSeconds: 60 });
  await snap('40 cached at 4 conns');
  await new Promise((r) => setTimeout(r, 3000));
  await snap('3 s later');
} finally {
  await server.stop();
}
