/**
 * The live preview of a post on a 1,000-post site (docs/sites.md, "Preview"; docs/benchmarks.md):
 * the wall time of `POST /api/sites/{name}/preview` with unsaved text, as the editor asks after a
 * typing pause, with the built-in generator and with Hugo. For Hugo the same page is also rendered
 * by `hugo` itself with the preview's arguments (the site's configuration and layouts, a content
 * folder holding only that post, the same environment), started two ways: a plain `execFile`
 * (Hugo's own render) and the commands' runner the server uses (`runLine`: its own process group,
 * output read line by line), and a third way for comparison: Node's `detached`, which the runner
 * used before and which puts the child in a session (on Linux, a scheduling group) of its own. The Hugo sides run in every round, in an order that rotates, so
 * a busy machine's drift falls on all; warm-up rounds go first, unrecorded. Reported: p50 and p90
 * of each side, the ratio preview / Hugo's own both from the p50s and as the median of the rounds'
 * ratios, the per-round differences (what Cabinet adds; what the runner adds), the load average
 * before and after, and once a whole-site build, which is what a preview cost before.
 *
 *   npm run site-preview -w bench   (BENCH_SITE_POSTS, BENCH_SITE_ROUNDS, BENCH_SITE_WARMUP)
 *
 * Targets: built-in p50 under 500 ms; Hugo preview at most Hugo's own render + 20%.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { commandEnvironment, HUGO_POLICY, runLine, startTestServer } from '@cabinet/server/testing';
import { fmt, percentile } from './stats.ts';

const run = promisify(execFile);
const POSTS = Number(process.env.BENCH_SITE_POSTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_SITE_ROUNDS ?? 25);
const WARMUP = Number(process.env.BENCH_SITE_WARMUP ?? 3);

const server = await startTestServer({ config: { logLevel: 'silent' } });
const token = server.admin.token;

async function api(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await server.fetch(url, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

function postText(i: number, words = 300): string {
  const body = Array.from({ length: words }, (_, w) => `word${(w * 7 + i) % 97}`).join(' ');
  return `---\ntitle: "Post ${i}"\ndate: 2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z\ndraft: false\ntags: [t${i % 10}]\n---\n\n## Part\n\n${body}\n`;
}

async function declare(name: string, generator: 'builtin' | 'hugo'): Promise<string> {
  const declared = await api('/api/sites', {
    name,
    folder: `/${name}`,
    generator,
    starter: true,
  });
  if (declared.status !== 201) throw new Error(`declare ${name}: ${declared.text}`);
  const posts = path.join(server.root, name, 'content', 'posts');
  for (let i = 0; i < POSTS; i++) await writeFile(path.join(posts, `post-${i}.md`), postText(i));
  return path.join(server.root, name);
}

/** Wall times (ms) of previews of one post with a new text each round. */
async function preview(name: string, round: number): Promise<number> {
  const started = performance.now();
  const answer = await api(`/api/sites/${name}/preview`, {
    path: 'posts/post-500.md',
    content: postText(500 + round),
  });
  const elapsed = performance.now() - started;
  if (answer.status !== 200) throw new Error(`preview ${name}: ${answer.text}`);
  return elapsed;
}

/** How `hugo` is started for Hugo's own render of the page. */
type Starter = 'execFile' | 'runner' | 'session';

/**
 * Hugo alone rendering the same page: the site's own config and layouts, one post, the preview's
 * arguments and environment. Only Hugo's run is timed (the scratch folder is made before).
 */
async function hugoAlone(
  site: string,
  scratch: string,
  round: number,
  how: Starter,
): Promise<number> {
  await rm(scratch, { recursive: true, force: true });
  await mkdir(path.join(scratch, 'content', 'posts'), { recursive: true });
  await writeFile(path.join(scratch, 'content', 'posts', 'post-500.md'), postText(500 + round));
  const args = ['--buildDrafts', '--buildFuture', '--noBuildLock', '--quiet'];
  args.push('--destination', path.join(scratch, 'out'), '--cacheDir', path.join(scratch, 'cache'));
  args.push('--contentDir', path.join(scratch, 'content'), '--baseURL', '/preview/');
  const env = commandEnvironment(site, {
    HUGO_RESOURCEDIR: path.join(scratch, 'res'),
    ...HUGO_POLICY,
  });
  // Both without blocking this process (the server runs in it): a synchronous spawn would stop
  // the server's own work meanwhile and flatter Hugo alone.
  const started = performance.now();
  if (how === 'execFile') {
    await run('hugo', args, { cwd: site, env });
  } else if (how === 'session') {
    // As the runner started programs before: Node's `detached`, a session of its own (setsid).
    await new Promise<void>((resolve, reject) => {
      const child = spawn('hugo', args, { cwd: site, env, detached: true, stdio: 'ignore' });
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`hugo: ${code}`))));
    });
  } else {
    const result = await runLine(
      { steps: [{ operator: ';', commands: [['hugo', ...args]] }], background: false },
      { cwd: site, env, shell: [], timeoutMs: 120_000, outputLimit: 1 << 20 },
    );
    if (result.exitCode !== 0) throw new Error(`hugo through the runner: ${result.exitCode}`);
  }
  return performance.now() - started;
}

function hugoWholeSite(site: string, out: string): number {
  const started = performance.now();
  const run = spawnSync('hugo', ['--buildDrafts', '--quiet', '--destination', out], {
    cwd: site,
    env: { PATH: process.env.PATH ?? '', HOME: site },
  });
  if (run.status !== 0) throw new Error(`hugo: ${run.stderr.toString()}`);
  return performance.now() - started;
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'cabinet-bench-hugo-'));
try {
  await declare('builtin', 'builtin');
  const hugoSite = await declare('hugo', 'hugo');
  const sides = {
    builtin: [] as number[],
    preview: [] as number[],
    execFile: [] as number[],
    runner: [] as number[],
    session: [] as number[],
  };
  const hugoSides = ['preview', 'execFile', 'runner', 'session'] as const;
  const measure = (side: (typeof hugoSides)[number], round: number) =>
    side === 'preview' ? preview('hugo', round) : hugoAlone(hugoSite, scratch, round, side);
  const loadBefore = os.loadavg();
  for (let round = -WARMUP; round < ROUNDS; round++) {
    const builtin = await preview('builtin', round);
    // The order of the Hugo sides rotates: whichever goes second finds what the first read
    // in the page cache, and a load that rises or falls meanwhile falls on each in turn.
    const order = hugoSides.map((_, i) => hugoSides[(i + round + WARMUP) % hugoSides.length]!);
    const times: Partial<Record<(typeof hugoSides)[number], number>> = {};
    for (const side of order) times[side] = await measure(side, round);
    if (round < 0) continue;
    sides.builtin.push(builtin);
    for (const side of hugoSides) sides[side].push(times[side]!);
  }
  const loadAfter = os.loadavg();
  const whole = hugoWholeSite(hugoSite, path.join(scratch, 'whole'));
  const p50 = (values: number[]) => percentile(values, 50);
  const p90 = (values: number[]) => percentile(values, 90);
  const each = <T>(f: (i: number) => T) => sides.preview.map((_, i) => f(i));
  const ratios = each((i) => sides.preview[i]! / sides.execFile[i]!);
  const added = each((i) => sides.preview[i]! - sides.execFile[i]!);
  const runnerAdded = each((i) => sides.runner[i]! - sides.execFile[i]!);
  const sessionAdded = each((i) => sides.session[i]! - sides.execFile[i]!);
  const load = (l: number[]) => l.map((v) => fmt(v, 2)).join(' ');
  const line = (label: string, values: number[], note = '') =>
    console.log(
      `  ${label.padEnd(38)} p50 ${fmt(p50(values), 0).padStart(4)} ms  p90 ${fmt(p90(values), 0).padStart(4)} ms${note}`,
    );
  console.log(
    `Live preview of one post on a ${POSTS}-post site: ${ROUNDS} rounds after ${WARMUP} warm-up rounds`,
  );
  console.log(
    `  load average (1, 5, 15 min): before ${load(loadBefore)}, after ${load(loadAfter)}`,
  );
  line('built-in preview', sides.builtin, '  (target p50 < 500 ms)');
  line('Hugo preview (the HTTP request)', sides.preview);
  line("hugo alone, same page (Hugo's own)", sides.execFile);
  line('hugo alone, through the runner', sides.runner);
  line('hugo alone, in a session of its own', sides.session);
  console.log(
    `  Hugo preview / hugo alone: ${fmt(p50(sides.preview) / p50(sides.execFile), 2)} (p50s), ${fmt(p50(ratios), 2)} (median of the rounds' ratios); target ≤ 1.20`,
  );
  line('preview − hugo alone, per round', added, "  (Cabinet's own share)");
  line('runner − execFile, per round', runnerAdded, '  (what the runner adds)');
  line('own session − execFile, per round', sessionAdded, '  (what setsid added)');
  console.log(`  hugo, whole site (what a preview cost before): ${fmt(whole, 0)} ms`);
} finally {
  await rm(scratch, { recursive: true, force: true });
  await server.close();
}
