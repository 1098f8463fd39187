import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverMemory } from './memory-cost.ts';
import { settledRss } from './rss.ts';
import { login, startCabinet } from './servers.ts';
const MIB = 1024 * 1024;
for (let run = 0; run < Number(process.env.RUNS ?? 2); run++) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'cabinet-empty-'));
  const server = await startCabinet({ root, password: 'bench-index-listing-password-1234' });
  try {
    const token = await login(server.url, 'admin', 'bench-index-listing-password-1234');
    const settled = await settledRss(server.pid, 4000);
    const { process: p } = await serverMemory(server.url, token);
    console.log('empty root: settled', (settled / MIB).toFixed(1), 'heapUsed', (p.heapUsed / MIB).toFixed(1), 'heapTotal', (p.heapTotal / MIB).toFixed(1), 'ab', (p.arrayBuffers / MIB).toFixed(1));
  } finally {
    await server.stop();
  }
}
