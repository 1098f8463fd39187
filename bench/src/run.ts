/**
 * `npm run bench`: one run that generates (or reuses) the dataset, starts Cabinet and nginx on the
 * same folder, measures listings, a download, uploads and archives, samples Cabinet's memory per
 * phase, and writes JSON + markdown to bench/results/ (printing the markdown).
 *
 * Environment: BENCH_SCALE (default 1), BENCH_DATA, BENCH_REPEAT (runs per transfer, default 3),
 * BENCH_NGINX_WORKERS (default 1), BENCH_CABINET_WORKERS (`--workers`, default 1; memory is then
 * sampled in the first worker), BENCH_LIST_CONNECTIONS (default 4), BENCH_TUS_CHUNK_MIB
 * (default 10), BENCH_ONLY (comma list of listing,download,upload,archive), BENCH_CPU_PROF=1
 * (writes a V8 CPU profile of Cabinet to bench/results/profiles/), BENCH_CABINET_BIN (another
 * checkout's server/bin/cabinet.js, to compare a change), BENCH_INDEX_FILES (a tree of that many
 * more files in the root, for the search index).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDataset } from './dataset.ts';
import { ensureSearchTree } from './search-tree.ts';
import { MIB, datasetLayout } from './layout.ts';
import { curlDownload, getJson, loadLoop, timedShell, type TransferResult } from './measure.ts';
import { localWriteWithFsync, uploadTus, uploadWhole } from './measure-upload.ts';
import { computeChecks, type BenchResults } from './report.ts';
import { emptyRootRss, indexReady, memoryPoint, type MemoryCost } from './memory-cost.ts';
import { RssSampler } from './rss.ts';
import { machineOf, writeResults } from './run-results.ts';
import { errorText, folderBytes, log, sameSample, series } from './run-checks.ts';
import {
  CABINET_BIN,
  CPU_PROF,
  EXTRA_NODE_FLAGS,
  INDEX_FILES,
  LIST_CONNECTIONS,
  NGINX_WORKERS,
  CABINET_WORKERS,
  ONLY,
  REPEAT,
  RESULTS,
  TUS_CHUNK,
  UPLOAD_SETTLE_MS,
} from './run-config.ts';
import { login, nginxVersion, startCabinet, startNginx, type RunningServer } from './servers.ts';

/** The oldest child process of a process (Linux), or the process itself when it has none. */
function firstChild(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ');
    return Number(children[0]) || pid;
  } catch {
    return pid;
  }
}

const encodePath = (p: string) => p.split('/').map(encodeURIComponent).join('/');

async function main(): Promise<void> {
  const layout = datasetLayout();
  const { spec, root, names } = layout;
  log(`scale ${spec.scale}: dataset in ${root}`);
  await ensureDataset(layout, log);
  if (INDEX_FILES > 0) {
    // Issue #37's budget holds with a million-file search index loaded: the search benchmark's
    // tree, inside the served root so the server indexes it (no listing or transfer touches it).
    const tree = {
      root: path.join(root, 'search-index', 'root'),
      files: INDEX_FILES,
      folders: 20_000,
    };
    const seconds = ensureSearchTree(tree);
    log(
      `search-index tree of ${INDEX_FILES} files ${seconds ? `built in ${seconds.toFixed(1)} s` : 'reused'}`,
    );
  }
  if (spawnSync('curl', ['--version']).error) throw new Error('curl is required');
  const nginx = nginxVersion();
  if (!nginx) throw new Error('nginx is not installed: apt-get install -y nginx');

  const uploads = path.join(root, names.uploads);
  await rm(uploads, { recursive: true, force: true });
  await mkdir(RESULTS, { recursive: true });
  const profileDir = path.join(RESULTS, 'profiles');
  const password = randomBytes(18).toString('base64url');
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

  const servers: RunningServer[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  process.once('SIGTERM', () => void stopAll().then(() => process.exit(143)));
  // Last resort when the runner dies unexpectedly: do not leave servers behind.
  process.once('exit', () => {
    for (const server of servers) {
      try {
        process.kill(server.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });

  const memory: BenchResults['memory'] = {};
  const memoryCost: MemoryCost = {};
  const started = Date.now();
  // The same server on an empty root first: the base of RSS per indexed entry.
  try {
    memoryCost.emptyRootRss = await emptyRootRss(password, EXTRA_NODE_FLAGS, CABINET_BIN);
  } catch (error) {
    memoryCost.error = errorText(error);
  }
  const cabinetBoot = Date.now();
  const cabinet = await startCabinet({
    root,
    password,
    nodeFlags: [
      ...(CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
      ...EXTRA_NODE_FLAGS,
    ],
    ...(CABINET_BIN && { bin: CABINET_BIN }),
    ...(CABINET_WORKERS > 1 && { env: { CABINET_WORKERS: String(CABINET_WORKERS) } }),
  });
  servers.push(cabinet);
  // With several workers the primary only forks them: the first worker is the process measured.
  const sampler = new RssSampler(CABINET_WORKERS > 1 ? firstChild(cabinet.pid) : cabinet.pid);
  // Startup phase: from "healthy" through a short settle (background indexing, caches).
  sampler.start();
  await new Promise((r) => setTimeout(r, 2000));
  memory.startup = sampler.stop();
  log(`cabinet pid ${cabinet.pid} at ${cabinet.url} (ready in ${Date.now() - cabinetBoot} ms)`);
  const nginxServer = await startNginx({
    root,
    uploadDir: uploads,
    scratch: layout.scratch,
    workers: NGINX_WORKERS,
  });
  servers.push(nginxServer);
  log(`nginx pid ${nginxServer.pid} at ${nginxServer.url}`);

  try {
    const token = await login(cabinet.url, 'admin', password);
    const auth = { 'x-auth': token };
    /** Records a memory point of the run (memory-cost.ts); a failure is noted, not fatal. */
    const markMemory = async (point: 'indexed' | 'listed') => {
      // With several workers /api/memory answers for whichever worker takes the request.
      if (CABINET_WORKERS > 1) {
        memoryCost.error = 'measured with one worker only';
        return;
      }
      try {
        if (point === 'indexed') await indexReady(cabinet.url, token);
        memoryCost[point] = await memoryPoint(sampler.pid, cabinet.url, token);
      } catch (error) {
        memoryCost.error = errorText(error);
      }
    };
    // Listings start once the bench tree is indexed, so no phase measures the index build.
    await markMemory('indexed');

    /** Runs `task` as a memory phase of Cabinet. */
    const phase = async <T>(name: string, task: () => Promise<T>): Promise<T> => {
      log(`phase ${name}`);
      sampler.start();
      try {
        return await task();
      } finally {
        memory[name] = sampler.stop();
      }
    };

    // ---- Listings -------------------------------------------------------------------------
    const emptyListing = (entries: number) => ({
      entries,
      latency: { runs: [] },
      throughput: { runs: [] },
    });
    const listing: BenchResults['listing'] = {
      small: { cabinet: emptyListing(spec.smallListing), nginx: emptyListing(spec.smallListing) },
      large: { cabinet: emptyListing(spec.largeListing), nginx: emptyListing(spec.largeListing) },
    };
    if (ONLY.has('listing')) {
      for (const size of ['small', 'large'] as const) {
        const folder = size === 'small' ? names.smallListing : names.largeListing;
        const entries = listing[size].cabinet.entries;
        // Bigger folders get fewer requests; the time caps bound both anyway.
        const perPass = size === 'small' ? 100 : 30;
        const maxSeconds = size === 'small' ? 30 : 60;
        const targets = {
          cabinet: { url: `${cabinet.url}/api/resources/${folder}/`, headers: auth },
          nginx: { url: `${nginxServer.url}/${folder}/`, headers: {} },
        };
        for (const server of ['nginx', 'cabinet'] as const) {
          const target = targets[server];
          const result = listing[size][server];
          /** One pass; its figures are kept even when some requests failed (errors noted). */
          const pass = async (kind: 'latency' | 'throughput', connections: number, max: number) => {
            const figures = await loadLoop({
              ...target,
              connections,
              maxRequests: max,
              maxSeconds,
            });
            if (figures.requests > 0) result[kind].runs.push(figures);
            if (figures.errors)
              result[kind].error = `${figures.errors} failed requests: ${figures.firstError}`;
            log(
              `  ${server} ${entries} entries, ${connections} conn: p50 ${figures.p50Ms.toFixed(1)} ms, ` +
                `p99 ${figures.p99Ms.toFixed(1)} ms, ${figures.requestsPerSecond.toFixed(2)} req/s` +
                (figures.errors ? `, ${figures.errors} errors (${figures.firstError})` : ''),
            );
          };
          const run = async () => {
            try {
              // Check the listing is complete before timing it (this request also warms caches).
              const body = await getJson(target.url, target.headers);
              const count = Array.isArray(body)
                ? body.length
                : ((body as { items?: unknown[] }).items?.length ?? -1);
              if (count !== entries)
                throw new Error(`${server} listed ${count} entries, expected ${entries}`);
              await pass('latency', 1, perPass);
              await pass('throughput', LIST_CONNECTIONS, perPass * 2);
            } catch (error) {
              result.latency.error = errorText(error);
              log(`  ${server} failed: ${errorText(error)}`);
            }
          };
          if (server === 'cabinet') await phase(`listing-${size}`, run);
          else await run();
        }
      }
      await markMemory('listed');
    }

    // ---- Download ---------------------------------------------------------------------------
    const download: BenchResults['download'] = { cabinet: { runs: [] }, nginx: { runs: [] } };
    if (ONLY.has('download')) {
      const bytes = spec.bigFileBytes;
      const maxSeconds = Math.max(60, bytes / MIB / 10);
      const urls = {
        nginx: { url: `${nginxServer.url}/${names.bigFile}`, headers: {} },
        cabinet: { url: `${cabinet.url}/api/raw/${names.bigFile}`, headers: auth },
      };
      await phase('download', async () => {
        // Interleaved so both servers see the same background noise.
        for (let i = 0; i < REPEAT; i++) {
          for (const server of ['nginx', 'cabinet'] as const) {
            if (download[server].error) continue;
            try {
              const { url, headers } = urls[server];
              const result = await curlDownload(url, headers, bytes, maxSeconds);
              if (result.transferred !== bytes)
                throw new Error(`${server} sent ${result.transferred} bytes, expected ${bytes}`);
              download[server].runs.push(result);
              log(`  ${server} download ${result.mbps.toFixed(1)} MB/s`);
            } catch (error) {
              download[server].error = errorText(error);
              log(`  ${server} download failed: ${errorText(error)}`);
            }
          }
        }
      });
    }

    // ---- Uploads ----------------------------------------------------------------------------
    const upload: BenchResults['upload'] = {
      local: { runs: [] },
      post: { runs: [] },
      tus: { runs: [] },
      nginxPut: { runs: [] },
    };
    if (ONLY.has('upload')) {
      const source = path.join(root, names.bigFile);
      const bytes = spec.bigFileBytes;
      const maxSeconds = Math.max(120, bytes / MIB / 5);
      const localTarget = path.join(layout.scratch, 'local-write.bin');
      const cleanUploads = async () => {
        await rm(uploads, { recursive: true, force: true });
        await rm(localTarget, { force: true });
      };
      /** Before every timed write, baseline and uploads alike (see UPLOAD_SETTLE_MS). */
      const prepareUpload = async () => {
        await cleanUploads();
        await sleep(UPLOAD_SETTLE_MS);
      };
      /**
       * The four writers, each timed after the same preparation; `file` (under the uploads folder)
       * is checked against the source afterwards. A writer that failed is skipped from then on.
       */
      const writers: {
        kind: keyof BenchResults['upload'];
        label: string;
        file?: string;
        write: () => Promise<TransferResult & { chunks?: number }>;
      }[] = [
        {
          kind: 'local',
          label: 'local write+fsync',
          write: () => localWriteWithFsync(source, localTarget),
        },
        {
          kind: 'post',
          label: 'cabinet POST',
          file: 'post.bin',
          write: () =>
            uploadWhole(
              `${cabinet.url}/api/resources/${names.uploads}/post.bin?override=true`,
              'POST',
              auth,
              source,
              bytes,
              maxSeconds,
            ),
        },
        {
          kind: 'tus',
          label: 'cabinet TUS',
          file: 'tus.bin',
          write: () =>
            uploadTus(
              `${cabinet.url}/api/tus/${names.uploads}/tus.bin?override=true`,
              auth,
              source,
              bytes,
              TUS_CHUNK,
              maxSeconds,
            ),
        },
        {
          kind: 'nginxPut',
          label: 'nginx PUT',
          file: 'nginx.bin',
          write: () =>
            uploadWhole(
              `${nginxServer.url}/upload/nginx.bin`,
              'PUT',
              {},
              source,
              bytes,
              maxSeconds,
            ),
        },
      ];
      // Rounds of all four in turn, as for downloads: the machine's speed drifts over minutes, and
      // a ratio is only fair between runs made close together. Cabinet's memory is sampled
      // throughout (the baseline and nginx do not touch it).
      await phase('upload', async () => {
        for (let round = 0; round < REPEAT; round++) {
          for (const { kind, label, file, write } of writers) {
            const runs = upload[kind];
            if (runs.error) continue;
            try {
              await prepareUpload();
              const result = await write();
              if (file) await sameSample(source, path.join(uploads, file));
              runs.runs.push(result);
              const chunks = result.chunks === undefined ? '' : ` (${result.chunks} chunks)`;
              log(`  ${label} ${result.mbps.toFixed(1)} MB/s${chunks}`);
            } catch (error) {
              runs.error = errorText(error);
              log(`  failed: ${runs.error}`);
            }
          }
        }
      });
      await cleanUploads();
    }

    // ---- Archives ---------------------------------------------------------------------------
    const mixedDir = path.join(root, names.mixed);
    const sourceBytes = folderBytes(mixedDir);
    const archive: BenchResults['archive'] = {
      sourceBytes,
      tarPipe: { runs: [] },
      gzipCli: { runs: [] },
      zipCli: { runs: [] },
      tar: { runs: [] },
      targz: { runs: [] },
      zip: { runs: [] },
    };
    if (ONLY.has('archive')) {
      const maxSeconds = Math.max(120, sourceBytes / MIB);
      const folder = names.mixed;
      log('phase archive baselines');
      // Through a pipe: GNU tar does not read the files when its output is /dev/null itself.
      archive.tarPipe = await series(REPEAT, async () => {
        const result = await timedShell(`tar cf - "${folder}"`, root, sourceBytes, maxSeconds);
        log(`  tar pipe ${result.mbps.toFixed(1)} MB/s`);
        return result;
      });
      archive.gzipCli = await series(1, () =>
        timedShell(`tar cf - "${folder}" | gzip -6`, root, sourceBytes, maxSeconds),
      );
      if (spawnSync('sh', ['-c', 'command -v zip']).status === 0)
        archive.zipCli = await series(1, () =>
          timedShell(`zip -q -r - "${folder}"`, root, sourceBytes, maxSeconds),
        );
      else archive.zipCli.error = 'zip not installed';

      for (const algo of ['tar', 'targz', 'zip'] as const) {
        archive[algo] = await phase(`archive-${algo}`, () =>
          series(REPEAT, async () => {
            const result = await curlDownload(
              `${cabinet.url}/api/raw/${encodePath(folder)}?algo=${algo}`,
              auth,
              sourceBytes,
              maxSeconds,
            );
            if (algo === 'tar' && result.transferred < sourceBytes)
              throw new Error(
                `tar archive has ${result.transferred} bytes < source ${sourceBytes}`,
              );
            if (result.transferred < 1024)
              throw new Error(`archive of ${result.transferred} bytes`);
            log(
              `  cabinet ${algo} ${result.mbps.toFixed(1)} MB/s (${(result.transferred / MIB).toFixed(0)} MiB out)`,
            );
            return result;
          }),
        );
      }
    }

    // ---- Report -----------------------------------------------------------------------------
    const results: BenchResults = {
      date: new Date().toISOString(),
      machine: machineOf(nginx, loadBefore, started),
      spec,
      settings: {
        repeat: REPEAT,
        'nginx workers': NGINX_WORKERS,
        'cabinet workers': CABINET_WORKERS,
        'listing connections': LIST_CONNECTIONS,
        'TUS chunk MiB': TUS_CHUNK / MIB,
      },
      listing,
      download,
      upload,
      archive,
      memory,
      memoryCost,
      checks: [],
    };
    results.checks = computeChecks(results);
    await writeResults(results);
  } finally {
    await stopAll();
    if (CPU_PROF && existsSync(profileDir)) log(`CPU profiles in ${profileDir}`);
  }
}

await main();
