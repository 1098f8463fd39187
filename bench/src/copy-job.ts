/**
 * A background copy job against `cp -r` in the same run (docs/jobs.md, docs/benchmarks.md): one
 * source tree of many files on the same disk, copied by `cp -r` and by a Cabinet copy job
 * (`POST /api/jobs`), rounds alternating so a busy machine's drift falls on both. Reported: the
 * median wall time of each, the job's throughput as a share of cp's, the progress events the
 * owner received per second, and the peak RSS of this process (the server runs in it).
 *
 *   npm run copy-job -w bench   (BENCH_COPY_FILES, BENCH_COPY_BYTES, BENCH_COPY_ROUNDS)
 *
 * Cabinet copies every file to a temp name and renames it into place, 8 files at a time, without an
 * fsync (docs/jobs.md, "Durability"); cp writes under the final names. `cp -r` followed by `sync`
 * is reported too, for what a copy made durable costs on this disk.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, rm, statfs, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '@cabinet/server/testing';

const FILES = Number(process.env.BENCH_COPY_FILES ?? 10_000);
const BYTES = Number(process.env.BENCH_COPY_BYTES ?? 2 * 1024 ** 3);
const ROUNDS = Number(process.env.BENCH_COPY_ROUNDS ?? 2);

const median = (values: number[]) =>
  values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 100);

const server = await startTestServer({ config: { logLevel: 'silent' } });
try {
  const free = await statfs(server.root);
  // The source, one cp copy and one job copy at a time, and room to spare.
  if (free.bavail * free.bsize < BYTES * 4) {
    throw new Error(`not enough free space for ${BYTES} bytes × 4 under ${server.root}`);
  }
  const source = path.join(server.root, 'source');
  const perFile = Math.floor(BYTES / FILES);
  const block = Buffer.alloc(perFile, 0x5a);
  for (let n = 0; n < FILES; n++) {
    // A hundred files per folder, as a photo or project tree has.
    const folder = path.join(source, `d${String(Math.floor(n / 100)).padStart(3, '0')}`);
    if (n % 100 === 0) await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, `f${n}.bin`), block);
  }
  execFileSync('sync');

  const cpTimes: number[] = [];
  const cpSyncTimes: number[] = [];
  const jobTimes: number[] = [];
  const eventRates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const cpTarget = path.join(server.root, `cp-${round}`);
    let started = performance.now();
    const cp = spawnSync('cp', ['-r', source, cpTarget]);
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr.toString()}`);
    cpTimes.push(performance.now() - started);
    execFileSync('sync');
    cpSyncTimes.push(performance.now() - started);
    await rm(cpTarget, { recursive: true });
    execFileSync('sync');

    const events = await fetch(`${server.url}/api/events?auth=${server.admin.token}`);
    const reader = events.body!.getReader();
    let jobEvents = 0;
    const counting = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        jobEvents += decoder.decode(value).split('event: job\n').length - 1;
      }
    })().catch(() => undefined);

    started = performance.now();
    const created = await server.fetch('/api/jobs', {
      method: 'POST',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'copy', items: [{ from: '/source', to: `/job-${round}` }] }),
    });
    if (created.status !== 202) throw new Error(`POST /api/jobs: ${created.status}`);
    const { id } = (await created.json()) as { id: string };
    let state = 'queued';
    while (state !== 'done') {
      // Polling is this benchmark's way to see the end; the progress events are counted above.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const job = (await (
        await server.fetch(`/api/jobs/${id}`, { token: server.admin.token })
      ).json()) as { state: string; error: unknown };
      state = job.state;
      if (state === 'failed' || state === 'cancelled') throw new Error(JSON.stringify(job));
    }
    const elapsed = performance.now() - started;
    jobTimes.push(elapsed);
    eventRates.push(jobEvents / (elapsed / 1000));
    await reader.cancel();
    await counting;
    await rm(path.join(server.root, `job-${round}`), { recursive: true });
    execFileSync('sync');
  }

  const cpMs = median(cpTimes);
  const cpSyncMs = median(cpSyncTimes);
  const jobMs = median(jobTimes);
  const mib = BYTES / 1024 ** 2;
  const rate = (ms: number) => (mib / (ms / 1000)).toFixed(0);
  console.log(`copy of ${FILES} files, ${mib.toFixed(0)} MiB, median of ${ROUNDS} rounds`);
  console.log('| Copy | Time (s) | MiB/s | Against cp -r |');
  console.log('| --- | ---: | ---: | ---: |');
  console.log(`| cp -r | ${(cpMs / 1000).toFixed(1)} | ${rate(cpMs)} | 1.00 |`);
  console.log(
    `| cp -r, then sync | ${(cpSyncMs / 1000).toFixed(1)} | ${rate(cpSyncMs)} | ${(cpMs / cpSyncMs).toFixed(2)} |`,
  );
  console.log(
    `| Cabinet copy job | ${(jobMs / 1000).toFixed(1)} | ${rate(jobMs)} | ${(cpMs / jobMs).toFixed(2)} |`,
  );
  console.log(`progress events per second: ${median(eventRates).toFixed(1)}`);
  console.log(
    `peak RSS of the process (server and benchmark): ${(peakRss / 1024 ** 2).toFixed(0)} MiB`,
  );
} finally {
  clearInterval(sampler);
  await server.close();
}
