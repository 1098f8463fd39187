/**
 * `npm run bench:scale -w bench`: Cabinet scaled out behind nginx on this machine. For each
 * database engine (SQLite, PostgreSQL) it starts instances sharing one root, one data folder and
 * one database, an nginx balancer over the first instance and one over the first two, signs in
 * once, checks the instances behave as one through the balancer, then measures listing requests
 * per second of the 10,000-entry folder at 4 and 16 connections (autocannon, warm-up then a fixed
 * duration) and a download of the 1 GiB file (curl), beside nginx alone (JSON autoindex and static
 * file, 1 and 2 workers). Prints a table with the ratios and writes JSON + markdown to
 * bench/results/scale-<date>.* and scale-latest.*.
 *
 * Environment (docs/benchmarks.md, "Scale-out"): BENCH_SCALE, BENCH_DATA, BENCH_SCALE_ENGINES,
 * BENCH_SCALE_CONNECTIONS, BENCH_SCALE_DURATION_S, BENCH_SCALE_WARMUP_REQUESTS, BENCH_REPEAT,
 * BENCH_BALANCER_WORKERS, BENCH_CABINET_BIN (another checkout's server/bin/cabinet.js).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { timedPass, warmUp } from './autocannon-pass.ts';
import { CpuClock } from './cpu-time.ts';
import { ensureDataset } from './dataset.ts';
import { MIB, datasetLayout } from './layout.ts';
import { curlDownload } from './measure.ts';
import { errorText, log } from './run-checks.ts';
import { machineOf } from './run-results.ts';
import {
  BALANCER_WORKERS,
  CABINET_BIN,
  RESULTS,
  SCALE_CONNECTIONS,
  SCALE_DURATION_S,
  SCALE_ENGINES,
  SCALE_INSTANCES,
  SCALE_REPEAT,
  SCALE_WARMUP_REQUESTS,
  type Engine,
} from './scale-config.ts';
import { checkCommandSocket, checkListing, checkUploadSeenByAll } from './scale-checks.ts';
import { startDeployment, type Deployment } from './scale-deployment.ts';
import { rollingRestart } from './scale-restart.ts';
import {
  computeRatios,
  targetKey,
  toMarkdown,
  type CpuUse,
  type ScaleResults,
  type TargetResult,
} from './scale-report.ts';
import { nginxVersion, startNginx, type RunningServer } from './servers.ts';
import { startTempPostgres, createDatabase, type TempPostgres } from './temp-postgres.ts';

/** First and last line of an error: "server exited (1):" and then what the server said last. */
function shortError(error: unknown): string {
  const lines = (error as Error).message.split('\n').filter((line) => line.trim() !== '');
  return lines.length > 1 ? `${lines[0]} ${(lines.at(-1) as string).trim()}` : errorText(error);
}

const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgresql: 'PostgreSQL' };

/** Where and how a measured configuration is reached, and whose CPU it uses. */
interface Live {
  listingUrl: string;
  downloadUrl: string;
  headers: Record<string, string>;
  /** The Cabinet instances behind the balancer, or the nginx master serving alone. */
  serverPids: number[];
  /** Cabinet rows: the balancer's master (its workers are counted with it). */
  balancerPid?: number;
}

async function main(): Promise<void> {
  const layout = datasetLayout();
  const { spec, root, names } = layout;
  log(`scale ${spec.scale}: dataset in ${root}`);
  await ensureDataset(layout, log);
  if (spawnSync('curl', ['--version']).error) throw new Error('curl is required');
  const nginx = nginxVersion();
  if (!nginx) throw new Error('nginx is not installed: apt-get install -y nginx');
  await mkdir(RESULTS, { recursive: true });
  const uploads = path.join(root, names.uploads);
  await rm(uploads, { recursive: true, force: true });

  const password = randomBytes(18).toString('base64url');
  const loadBefore = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const started = Date.now();
  const cpu = new CpuClock();

  const servers: RunningServer[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    servers.length = 0;
    for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  };
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

  const targets: TargetResult[] = [];
  const live = new Map<string, Live>();
  const target = (kind: 'cabinet' | 'nginx', count: number, engine?: Engine): TargetResult => ({
    key: targetKey(engine ?? 'nginx', count),
    label:
      kind === 'nginx'
        ? `nginx alone, ${count} worker${count > 1 ? 's' : ''}`
        : `Cabinet ×${count} behind nginx, ${ENGINE_NAMES[engine as Engine]}`,
    kind,
    ...(engine && { engine }),
    count,
    listing: {},
    download: { runs: [] },
  });
  let balancerConfig = '';

  try {
    // ---- nginx alone: the same folder and file, as many workers as instances ----------------
    for (const workers of SCALE_INSTANCES) {
      const row = target('nginx', workers);
      targets.push(row);
      try {
        const server = await startNginx({
          root,
          uploadDir: path.join(layout.scratch, 'scale-nginx-uploads'),
          scratch: layout.scratch,
          workers,
        });
        servers.push(server);
        live.set(row.key, {
          listingUrl: `${server.url}/${names.smallListing}/`,
          downloadUrl: `${server.url}/${names.bigFile}`,
          headers: {},
          serverPids: [server.pid],
        });
        await checkListing('nginx', live.get(row.key)!.listingUrl, {}, spec.smallListing);
        log(`nginx alone, ${workers} worker(s): pid ${server.pid} at ${server.url}`);
      } catch (error) {
        row.error = errorText(error);
        log(`nginx alone failed: ${row.error}`);
      }
    }

    // ---- Cabinet deployments, one per engine ------------------------------------------------
    let postgres: TempPostgres | undefined;
    let postgresError: string | undefined;
    if (SCALE_ENGINES.includes('postgresql')) {
      try {
        postgres = await startTempPostgres(log);
        const stop = postgres.stop.bind(postgres);
        cleanups.push(async () => stop());
      } catch (error) {
        postgresError = errorText(error);
        log(`PostgreSQL: ${postgresError}`);
      }
    }
    const deployments = new Map<Engine, Deployment>();
    for (const engine of SCALE_ENGINES) {
      const rows = SCALE_INSTANCES.map((count) => target('cabinet', count, engine));
      targets.push(...rows);
      try {
        if (engine === 'postgresql' && !postgres) throw new Error(postgresError);
        const dataDir = mkdtempSync(path.join(os.tmpdir(), `cabinet-bench-scale-${engine}-`));
        cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
        const deployment = await startDeployment({
          engine,
          root,
          password,
          dataDir,
          ...(postgres &&
            engine === 'postgresql' && {
              postgresUrl: await createDatabase(postgres, 'cabinet_scale'),
            }),
          configurations: SCALE_INSTANCES,
          balancerWorkers: BALANCER_WORKERS,
          ...(CABINET_BIN && { bin: CABINET_BIN }),
          started: (server) => servers.push(server),
          log,
        });
        const headers = { 'x-auth': deployment.token };
        const listingPath = `/api/resources/${names.smallListing}/`;
        // The instances behave as one: the token of one sign-in works on each of them, and what
        // one writes the others read.
        for (const instance of deployment.instances)
          await checkListing(
            instance.url,
            `${instance.url}${listingPath}`,
            headers,
            spec.smallListing,
          );
        for (const balancer of deployment.balancers.values())
          await checkListing(
            balancer.url,
            `${balancer.url}${listingPath}`,
            headers,
            spec.smallListing,
          );
        const widest = deployment.balancers.get(Math.max(...SCALE_INSTANCES))!;
        await checkUploadSeenByAll(
          widest.url,
          deployment.instances.map((i) => i.url),
          headers,
          `${names.uploads}/scale-check.bin`,
          8 * MIB,
        );
        await checkCommandSocket(widest.url, deployment.token);
        log(
          `${engine}: one sign-in, listings, an upload and the command socket work through the balancer`,
        );
        balancerConfig = widest.config;
        deployments.set(engine, deployment);
        for (const row of rows) {
          const balancer = deployment.balancers.get(row.count)!;
          live.set(row.key, {
            listingUrl: `${balancer.url}${listingPath}`,
            downloadUrl: `${balancer.url}/api/raw/${names.bigFile}`,
            headers,
            serverPids: deployment.instances.slice(0, row.count).map((i) => i.pid),
            balancerPid: balancer.pid,
          });
        }
      } catch (error) {
        for (const row of rows) row.error = shortError(error);
        log(`${engine} deployment failed: ${(error as Error).message}`);
      }
    }
    await rm(uploads, { recursive: true, force: true });

    // Every instance has walked the root for its search index when it started; time nothing
    // before that work is over.
    const cabinetPids = [...live.values()].flatMap((l) => (l.balancerPid ? l.serverPids : []));
    const idle = await cpu.waitUntilIdle([...new Set(cabinetPids)]);
    log(idle ? 'instances idle' : 'instances still busy after 120 s; measuring anyway');

    // ---- Listings: every configuration at one connection count, then the next ---------------
    const measured = targets.filter((t) => live.has(t.key));
    for (const connections of SCALE_CONNECTIONS) {
      for (const row of measured) {
        const { listingUrl, headers, serverPids, balancerPid } = live.get(row.key)!;
        try {
          const failedWarmUp = await warmUp({
            url: listingUrl,
            headers,
            connections,
            perConnection: SCALE_WARMUP_REQUESTS,
            maxSeconds: 120,
          });
          if (failedWarmUp > 0) log(`  ${row.label}: ${failedWarmUp} warm-up requests failed`);
          const before = {
            servers: serverPids.map((pid) => cpu.withChildren(pid)),
            balancer: balancerPid ? cpu.withChildren(balancerPid) : 0,
            client: process.cpuUsage(),
            machine: cpu.machineSeconds(),
          };
          const pass = await timedPass({
            url: listingUrl,
            headers,
            connections,
            seconds: SCALE_DURATION_S,
          });
          const perSecond = (seconds: number) => seconds / pass.seconds;
          const client = process.cpuUsage(before.client);
          const machine = perSecond(cpu.machineSeconds() - before.machine);
          const servers = serverPids.map((pid, i) =>
            perSecond(cpu.withChildren(pid) - (before.servers[i] ?? 0)),
          );
          const balancer = balancerPid
            ? perSecond(cpu.withChildren(balancerPid) - before.balancer)
            : undefined;
          const clientCores = perSecond((client.user + client.system) / 1e6);
          const ours = servers.reduce((a, b) => a + b, 0) + (balancer ?? 0) + clientCores;
          const use: CpuUse = {
            servers,
            ...(balancer !== undefined && { balancer }),
            client: clientCores,
            others: Math.max(0, machine - ours),
          };
          row.listing[connections] = { pass, cpu: use };
          // Requests still running when the time was up go on on the server: let them end before
          // the next pass.
          await cpu.waitUntilIdle(serverPids, { windowMs: 500, maxSeconds: 60 });
          const failed = pass.errors + pass.non2xx;
          log(
            `  ${row.label}, ${connections} conn: ${pass.requestsPerSecond.toFixed(1)} req/s, ` +
              `p50 ${pass.p50Ms.toFixed(0)} ms, p99 ${pass.p99Ms.toFixed(0)} ms, ` +
              `CPU ${servers.map((c) => c.toFixed(2)).join(' + ')} cores (others ${use.others.toFixed(2)})` +
              (failed ? `, ${failed} failed` : ''),
          );
        } catch (error) {
          row.listing[connections] = { error: errorText(error) };
          log(`  ${row.label}, ${connections} conn failed: ${errorText(error)}`);
        }
      }
    }

    // ---- Download of the big file, in rounds over the configurations ------------------------
    const bytes = spec.bigFileBytes;
    const maxSeconds = Math.max(60, bytes / MIB / 10);
    // Untimed: the first configuration must not be the one that reads the file into the page cache.
    for await (const _ of createReadStream(path.join(root, names.bigFile), { highWaterMark: MIB }));
    for (let round = 0; round < SCALE_REPEAT; round++) {
      for (const row of measured) {
        if (row.download.error) continue;
        const { downloadUrl, headers } = live.get(row.key)!;
        try {
          const result = await curlDownload(downloadUrl, headers, bytes, maxSeconds);
          if (result.transferred !== bytes)
            throw new Error(`sent ${result.transferred} bytes, expected ${bytes}`);
          row.download.runs.push(result);
          log(`  ${row.label}: download ${result.mbps.toFixed(1)} MiB/s`);
        } catch (error) {
          row.download.error = errorText(error);
          log(`  ${row.label}: download failed: ${row.download.error}`);
        }
      }
    }

    // ---- Rolling restart, last: it replaces an instance the rows above measured -------------
    const restarts: ScaleResults['restarts'] = {};
    for (const [engine, deployment] of deployments) {
      const count = deployment.instances.length;
      if (count < 2) continue;
      try {
        const restart = await rollingRestart({
          url: live.get(targetKey(engine, count))!.listingUrl,
          headers: { 'x-auth': deployment.token },
          connections: 4,
          instance: deployment.instances[count - 1]!,
          start: deployment.instanceOptions,
          loadSeconds: 5,
          restarted: (server) => servers.push(server),
        });
        restarts[engine] = restart;
        log(
          `  ${engine}: rolling restart under load: ${restart.answered} answered, ${restart.failed} failed, ` +
            `stopped in ${restart.stopSeconds.toFixed(1)} s, ready again after ${restart.downSeconds.toFixed(1)} s`,
        );
      } catch (error) {
        restarts[engine] = { error: errorText(error) };
        log(`  ${engine}: rolling restart failed: ${errorText(error)}`);
      }
    }

    // ---- Report -------------------------------------------------------------------------------
    const results: ScaleResults = {
      date: new Date().toISOString(),
      machine: machineOf(nginx, loadBefore, started),
      settings: {
        engines: SCALE_ENGINES.join('+'),
        'timed pass s': SCALE_DURATION_S,
        'warm-up requests per connection': SCALE_WARMUP_REQUESTS,
        'download runs': SCALE_REPEAT,
        'balancer workers': BALANCER_WORKERS,
      },
      listingEntries: spec.smallListing,
      downloadBytes: bytes,
      targets,
      ratios: computeRatios(targets, SCALE_CONNECTIONS, SCALE_ENGINES),
      restarts,
      balancerConfig,
    };
    const markdown = toMarkdown(results, SCALE_CONNECTIONS);
    const stamp = results.date.replace(/[:.]/g, '-');
    const json = JSON.stringify(results, null, 2);
    await writeFile(path.join(RESULTS, `scale-${stamp}.json`), json);
    await writeFile(path.join(RESULTS, `scale-${stamp}.md`), `${markdown}\n`);
    await writeFile(path.join(RESULTS, 'scale-latest.json'), json);
    await writeFile(path.join(RESULTS, 'scale-latest.md'), `${markdown}\n`);
    console.log(markdown);
    log(`results in ${path.join(RESULTS, `scale-${stamp}.{json,md}`)}`);
  } finally {
    await stopAll();
  }
}

await main();
