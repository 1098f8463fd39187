/**
 * The live preview of a post on a 1,000-post site (docs/sites.md, "Preview"; docs/benchmarks.md):
 * the wall time of `POST /api/sites/{name}/preview` with unsaved text, as the editor asks after a
 * typing pause, with the built-in generator and with Hugo. For Hugo the same page is also rendered
 * by `hugo` itself, started by this script with the preview's arguments (the site's configuration
 * and layouts, a content folder holding only that post), rounds alternating so a busy machine's
 * drift falls on both; and once, a whole-site build, which is what a preview cost before.
 *
 *   npm run site-preview -w bench   (BENCH_SITE_POSTS, BENCH_SITE_ROUNDS)
 *
 * Targets: built-in p50 under 500 ms; Hugo p50 at most Hugo's own p50 + 20%.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '@cabinet/server/testing';
import { fmt, percentile } from './stats.ts';

const run = promisify(execFile);
const POSTS = Number(process.env.BENCH_SITE_POSTS ?? 1000);
const ROUNDS = Number(process.env.BENCH_SITE_ROUNDS ?? 25);

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

/** Hugo alone rendering the same page: the site's own config and layouts, one post. */
async function hugoAlone(site: string, scratch: string, round: number): Promise<number> {
  await rm(scratch, { recursive: true, force: true });
  await mkdir(path.join(scratch, 'content', 'posts'), { recursive: true });
  await writeFile(path.join(scratch, 'content', 'posts', 'post-500.md'), postText(500 + round));
  const args = ['--buildDrafts', '--buildFuture', '--noBuildLock', '--quiet'];
  args.push('--destination', path.join(scratch, 'out'), '--cacheDir', path.join(scratch, 'cache'));
  args.push('--contentDir', path.join(scratch, 'content'), '--baseURL', '/preview/');
  // Started as the server starts it, without blocking this process (the server runs in it): a
  // synchronous spawn would stop the server's own work meanwhile and flatter Hugo alone.
  const started = performance.now();
  await run('hugo', args, {
    cwd: site,
    env: { PATH: process.env.PATH ?? '', HOME: site, HUGO_RESOURCEDIR: path.join(scratch, 'res') },
  });
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
  const builtin: number[] = [];
  const hugoPreview: number[] = [];
  const hugoOwn: number[] = [];
  // One of each first, unrecorded: the first runs pay for cold caches.
  await preview('builtin', -1);
  await preview('hugo', -1);
  await hugoAlone(hugoSite, scratch, -1);
  for (let round = 0; round < ROUNDS; round++) {
    builtin.push(await preview('builtin', round));
    // Which of the two goes first alternates: the second finds the files the first read cached.
    if (round % 2 === 0) {
      hugoPreview.push(await preview('hugo', round));
      hugoOwn.push(await hugoAlone(hugoSite, scratch, round));
    } else {
      hugoOwn.push(await hugoAlone(hugoSite, scratch, round));
      hugoPreview.push(await preview('hugo', round));
    }
  }
  const whole = hugoWholeSite(hugoSite, path.join(scratch, 'whole'));
  const p50 = (values: number[]) => percentile(values, 50);
  const p95 = (values: number[]) => percentile(values, 95);
  const ratio = p50(hugoPreview) / p50(hugoOwn);
  console.log(`Live preview of one post on a ${POSTS}-post site, ${ROUNDS} rounds`);
  console.log(
    `  built-in preview     p50 ${fmt(p50(builtin), 0)} ms  p95 ${fmt(p95(builtin), 0)} ms  (target p50 < 500 ms)`,
  );
  console.log(
    `  Hugo preview         p50 ${fmt(p50(hugoPreview), 0)} ms  p95 ${fmt(p95(hugoPreview), 0)} ms`,
  );
  console.log(
    `  hugo alone, same page p50 ${fmt(p50(hugoOwn), 0)} ms  p95 ${fmt(p95(hugoOwn), 0)} ms`,
  );
  console.log(`  Hugo preview / hugo alone (p50): ${fmt(ratio, 2)} (target ≤ 1.20)`);
  console.log(`  hugo, whole site (what a preview cost before): ${fmt(whole, 0)} ms`);
} finally {
  await rm(scratch, { recursive: true, force: true });
  await server.close();
}
