/**
 * What the audit log costs a request (docs/audit.md, docs/benchmarks.md): the same request mix,
 * public share-link downloads (each one an audited `share.download`), against two servers in this
 * process that differ only in the audit log being on or off. Passes alternate off/on so that a
 * busy machine's drift falls on both; the median of the rounds is reported.
 *
 *   npm run audit-append -w bench    (BENCH_AUDIT_SECONDS, BENCH_AUDIT_ROUNDS, BENCH_AUDIT_CONNECTIONS)
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '@cabinet/server/testing';
import { timedPass, warmUp, type PassResult } from './autocannon-pass.ts';

const SECONDS = Number(process.env.BENCH_AUDIT_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_AUDIT_CONNECTIONS ?? 8);

interface Variant {
  name: 'off' | 'on';
  server: TestServer;
  url: string;
  passes: PassResult[];
}

async function variant(name: 'off' | 'on'): Promise<Variant> {
  const server = await startTestServer({
    auditLog: name === 'on',
    config: { logLevel: 'silent' },
  });
  await writeFile(path.join(server.root, 'report.txt'), 'x'.repeat(4096));
  const shared = await server.fetch('/api/share/report.txt', {
    method: 'POST',
    token: server.admin.token,
    body: '{}',
  });
  const { hash } = (await shared.json()) as { hash: string };
  return { name, server, url: `${server.url}/api/public/dl/${hash}`, passes: [] };
}

const median = (values: number[]) =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

function summary(v: Variant) {
  return {
    rps: median(v.passes.map((p) => p.requestsPerSecond)),
    p50: median(v.passes.map((p) => p.p50Ms)),
    p99: median(v.passes.map((p) => p.p99Ms)),
    failures: v.passes.reduce((n, p) => n + p.errors + p.non2xx, 0),
    requests: v.passes.reduce((n, p) => n + p.requests, 0),
  };
}

const variants = [await variant('off'), await variant('on')];
try {
  for (const v of variants) {
    await warmUp({
      url: v.url,
      headers: {},
      connections: CONNECTIONS,
      perConnection: 200,
      maxSeconds: 60,
    });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of round % 2 === 0 ? variants : variants.toReversed()) {
      v.passes.push(
        await timedPass({ url: v.url, headers: {}, connections: CONNECTIONS, seconds: SECONDS }),
      );
    }
  }
  const [off, on] = variants.map(summary) as [
    ReturnType<typeof summary>,
    ReturnType<typeof summary>,
  ];
  const onServer = variants[1]!.server;
  await onServer.runtime.services.audit.flush();
  const written =
    (await onServer.ctx.store.audit.list({ action: 'share.download', limit: 1 }))[0]?.id ?? 0;
  const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)} %`;
  console.log(
    `audit append: public share downloads, ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s each`,
  );
  console.log(`| audit log | req/s | p50 ms | p99 ms | failures |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |`);
  for (const [name, s] of [
    ['off', off],
    ['on', on],
  ] as const) {
    console.log(
      `| ${name} | ${s.rps.toFixed(0)} | ${s.p50.toFixed(2)} | ${s.p99.toFixed(2)} | ${s.failures} |`,
    );
  }
  console.log(
    `difference (on vs off): req/s ${pct(on.rps, off.rps)}, p50 ${pct(on.p50, off.p50)}, p99 ${pct(on.p99, off.p99)}`,
  );
  console.log(
    `entries written by the "on" server: ${written} (≥ its ${on.requests} answered downloads)`,
  );
} finally {
  for (const v of variants) await v.server.close();
}
