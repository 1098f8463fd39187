import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { login } from './helpers/auth.ts';
import { eventually } from './helpers/eventually.ts';
import { createUpload, patchChunk, randomContent } from './helpers/tus.ts';
import { watched } from './helpers/watched.ts';
import { engineOf } from '../src/store/engine.ts';

const TOKEN = 'scrape-token-0123456789abcdef';

/** The value of one sample (`name{labels} value`) of a Prometheus text page; 0 when absent. */
function sample(page: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of page.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

function scrape(server: TestServer, headers: Record<string, string> = {}): Promise<Response> {
  return server.fetch('/metrics', { headers });
}

/** Runs a command with `input` on stdin; its exit code and output. */
function run(cmd: string, args: string[], input: string) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    child.stdin.end(input);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe('GET /metrics', () => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
  });
  const start = async (config: Parameters<typeof startTestServer>[0] = {}) => {
    const server = await startTestServer(config);
    servers.push(server);
    return server;
  };

  it('is a plain 404 unless --metrics is set', async () => {
    const server = await start();
    const res = await scrape(server, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('404 Not Found\n');
  });

  it('answers loopback (the default allow list) in Prometheus text format', async () => {
    const server = await start({ config: { metrics: true } });
    const res = await scrape(server);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const page = await res.text();
    expect(page).toContain('# TYPE cabinet_http_requests_total counter');
    expect(page).toContain('process_resident_memory_bytes');
    expect(page).toContain('nodejs_eventloop_lag_seconds');
  });

  it('refuses an address outside --metrics-allow, and a user session, but opens with the token', async () => {
    const server = await start({
      config: { metrics: true, metricsToken: TOKEN, metricsAllow: ['10.0.0.0/8'] },
    });
    const none = await scrape(server);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // The administrator's own session is no credential here, as header or as cookie.
    const session = await server.fetch('/metrics', { token: server.admin.token });
    expect(session.status).toBe(401);
    const cookie = await scrape(server, { cookie: `auth=${server.admin.token}` });
    expect(cookie.status).toBe(401);
    const wrong = await scrape(server, { authorization: 'Bearer not-the-token' });
    expect(wrong.status).toBe(403);
    const right = await scrape(server, { authorization: `Bearer ${TOKEN}` });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain('cabinet_http_requests_total');
  });

  it('believes the client address a trusted proxy names, and no address a stray proxy names', async () => {
    const behindProxy = await start({
      config: { metrics: true, metricsAllow: ['10.0.0.0/8'], trustedProxies: ['127.0.0.1'] },
    });
    expect((await scrape(behindProxy, { 'x-forwarded-for': '10.1.2.3' })).status).toBe(200);
    expect((await scrape(behindProxy, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(401);
    // A reverse proxy on loopback that Cabinet was not told to trust: its clients are unknown.
    const stray = await start({ config: { metrics: true } });
    expect((await scrape(stray)).status).toBe(200);
    expect((await scrape(stray, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(401);
  });

  it('counts requests by route pattern, failed sign-ins and upload bytes', async () => {
    const server = await start({ config: { metrics: true } });
    const before = await (await scrape(server)).text();
    for (const name of ['a.txt', 'b.txt', 'c.txt']) {
      const res = await server.fetch(`/api/resources/${name}`, { token: server.admin.token });
      expect(res.status).toBe(404);
    }
    expect((await login(server, { username: 'admin', password: 'wrong' })).status).toBe(403);
    const data = randomContent(1000);
    const created = await createUpload(server, server.admin.token, '/up.bin', data.length);
    expect(created.status).toBe(201);
    expect((await patchChunk(server, server.admin.token, '/up.bin', 0, data)).status).toBe(204);

    const page = await (await scrape(server)).text();
    const resource = { route: '/api/resources/*', method: 'GET', status: '404' };
    expect(sample(page, 'cabinet_http_requests_total', resource)).toBe(
      sample(before, 'cabinet_http_requests_total', resource) + 3,
    );
    // The pattern, never the file names asked for.
    expect(page).not.toContain('a.txt');
    expect(
      sample(page, 'cabinet_http_request_duration_seconds_count', { route: '/api/resources/*' }),
    ).toBeGreaterThanOrEqual(3);
    expect(sample(page, 'cabinet_failed_sign_ins_total')).toBe(1);
    expect(sample(page, 'cabinet_upload_bytes_total')).toBe(1000);
    expect(sample(page, 'cabinet_watch_trusted', { mount: '/' })).toBe(1);
    expect(page).toMatch(/cabinet_file_jobs\{state="queued"\} 0/);
    for (const name of [
      'cabinet_listing_cache_hits_total',
      'cabinet_listing_cache_misses_total',
      'cabinet_listing_cache_bytes',
      'cabinet_search_index_entries',
      'cabinet_event_stream_clients',
    ]) {
      expect(page).toContain(`# TYPE ${name} `);
    }
  });

  it('counts listings of a watched folder read, then answered by the listing cache', async () => {
    const server = await start({ config: { metrics: true } });
    await mkdir(path.join(server.root, 'docs'));
    await writeFile(path.join(server.root, 'docs', 'a.txt'), 'a');
    await watched(server, '/docs');
    const listed = async () => {
      const res = await server.fetch('/api/resources/docs/', { token: server.admin.token });
      expect(res.status).toBe(200);
      return (await scrape(server)).text();
    };
    const first = await listed();
    const misses = sample(first, 'cabinet_listing_cache_misses_total');
    expect(misses).toBeGreaterThanOrEqual(1);
    // The fill the first listing started is kept in the background; the next ones are served from it.
    const later = await eventually(
      listed,
      (page) => sample(page, 'cabinet_listing_cache_hits_total') >= 1,
    );
    expect(sample(later, 'cabinet_listing_cache_bytes')).toBeGreaterThan(0);
    expect(sample(later, 'cabinet_search_index_entries')).toBeGreaterThanOrEqual(2);
    expect(later).toMatch(/^cabinet_search_index_age_seconds \d/m);
  });

  it('counts background file jobs by state', async () => {
    const server = await start({ config: { metrics: true } });
    await mkdir(path.join(server.root, 'src'));
    await writeFile(path.join(server.root, 'src', 'a.txt'), 'a');
    const res = await server.fetch('/api/jobs', {
      method: 'POST',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'copy', items: [{ from: '/src', to: '/dst' }] }),
    });
    expect(res.status).toBe(202);
    const page = await eventually(
      async () => (await scrape(server)).text(),
      (text) => sample(text, 'cabinet_file_jobs', { state: 'done' }) === 1,
    );
    expect(sample(page, 'cabinet_file_jobs', { state: 'queued' })).toBe(0);
    expect(page).toMatch(/^cabinet_file_jobs\{state="waiting"\} 0$/m);
    expect(page).toMatch(/^cabinet_file_jobs_queue_delay_seconds 0$/m);
  });

  it('shows how long the oldest queued job has waited, and how late the scheduler is', async () => {
    const server = await start({ config: { metrics: true } });
    // A job queued 90 s ago that no run has taken yet (as one queued by a stalled instance).
    await server.ctx.store.fileJobs.insert({
      id: 'queued-long-ago',
      userId: server.admin.user.id,
      kind: 'copy',
      onConflict: 'ask',
      items: [{ from: '/a', to: '/b' }],
      now: Date.now() - 90_000,
      address: '',
    });
    // A scheduled job due two minutes ago, of a kind no instance handles: it waits unclaimed.
    const { scheduler } = server.runtime.coordination;
    await scheduler.schedule('metrics-test.nobody', Date.now() - 120_000, null, {
      key: 'metrics-test',
    });
    const page = await (await scrape(server)).text();
    expect(sample(page, 'cabinet_file_jobs_queue_delay_seconds')).toBeGreaterThanOrEqual(90);
    expect(sample(page, 'cabinet_scheduler_lag_seconds')).toBeGreaterThanOrEqual(120);
    await scheduler.cancel('metrics-test');
    const later = await (await scrape(server)).text();
    expect(sample(later, 'cabinet_scheduler_lag_seconds')).toBeLessThan(120);
  });

  it('shows the PostgreSQL pool in use and waiting, and no pool on SQLite', async () => {
    const server = await start({ config: { metrics: true } });
    const page = await (await scrape(server)).text();
    if (engineOf(server.ctx.store.db) === 'postgres') {
      const inUse = sample(page, 'cabinet_db_pool_connections', { state: 'in_use' });
      const idle = sample(page, 'cabinet_db_pool_connections', { state: 'idle' });
      expect(inUse + idle).toBeGreaterThanOrEqual(1);
      expect(page).toMatch(/^cabinet_db_pool_waiting \d+$/m);
    } else {
      // SQLite: one connection, no pool, no series.
      expect(page).not.toContain('cabinet_db_pool_');
    }
  });

  it("passes promtool's check of the exposition format", async () => {
    const server = await start({ config: { metrics: true } });
    await server.fetch('/api/resources/', { token: server.admin.token });
    const page = await (await scrape(server)).text();
    const checked = await run('promtool', ['check', 'metrics'], page);
    expect(checked.output).toBe('');
    expect(checked.code).toBe(0);
  });
});

describe('a real Prometheus server scraping Cabinet', () => {
  let server: TestServer;
  let prometheus: ChildProcess | undefined;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer({
      config: { metrics: true, metricsToken: TOKEN, metricsAllow: ['10.0.0.0/8'] },
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-prometheus-'));
  });
  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers a PromQL query about Cabinet once it has scraped it with the token', async () => {
    const target = new URL(server.url);
    // Only the token opens /metrics to it (loopback is not on this server's allow list).
    const config = [
      'global:',
      '  scrape_interval: 1s',
      'scrape_configs:',
      '  - job_name: cabinet',
      '    authorization:',
      '      type: Bearer',
      `      credentials: ${TOKEN}`,
      '    static_configs:',
      `      - targets: ['${target.host}']`,
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'prometheus.yml'), config);
    const port = await freePort();
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${path.join(dir, 'prometheus.yml')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--storage.tsdb.path=${path.join(dir, 'data')}`,
      ],
      { stdio: 'ignore' },
    );
    await server.fetch('/api/resources/', { token: server.admin.token });

    const query = async () => {
      try {
        const res = await fetch(
          `http://127.0.0.1:${port}/api/v1/query?query=cabinet_http_requests_total`,
        );
        if (!res.ok) return [];
        const body = (await res.json()) as {
          data: { result: { metric: Record<string, string>; value: [number, string] }[] };
        };
        return body.data.result;
      } catch {
        return []; // not listening yet
      }
    };
    const result = await eventually(query, (rows) =>
      rows.some((row) => row.metric.route === '/api/resources/*'),
    );
    const row = result.find((r) => r.metric.route === '/api/resources/*')!;
    expect(row.metric).toMatchObject({ job: 'cabinet', method: 'GET', status: '200' });
    expect(Number(row.value[1])).toBeGreaterThanOrEqual(1);
  }, 60_000);
});
