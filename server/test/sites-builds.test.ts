// Builds of one site never collide (docs/sites.md, "Builds"): requests that arrive together all
// succeed, joining the build that follows the one running; each build removes only its own temp
// folder; a failed build leaves the previous output served; two instances over one database build
// a site one at a time. Under `npm test` this file runs on both engines.
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SiteBuild } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let a: TestServer;
let b: TestServer;
let ann: TestUser;

const site = () => path.join(a.root, 'users', 'ann', 'many');

async function build(s: TestServer, name = 'many'): Promise<{ status: number; body: SiteBuild }> {
  const response = await s.fetch(`/api/sites/${name}/build`, { method: 'POST', token: ann.token });
  return { status: response.status, body: (await response.json()) as SiteBuild };
}

async function leftovers(): Promise<string[]> {
  return (await readdir(site())).filter((name) => name.startsWith('.cabinet-build-'));
}

/** The site's build runs as recorded, oldest first. */
async function runs(s: TestServer, name: string) {
  return (await s.ctx.store.commandRuns.latest(500))
    .filter((run) => run.kind === 'site_build' && run.line.startsWith(`site ${name}:`))
    .sort((x, y) => x.startedAt - y.startedAt || x.id - y.id);
}

/** Each run starts once the one before it ended. */
function overlaps(list: { startedAt: number; durationMs: number }[]): number {
  let count = 0;
  for (let i = 1; i < list.length; i++) {
    const previous = list[i - 1]!;
    if (list[i]!.startedAt < previous.startedAt + previous.durationMs) count++;
  }
  return count;
}

beforeAll(async () => {
  const config = { sharedState: 'database' as const };
  a = await startTestServer({ config });
  b = await startTestServer({ root: a.root, dataDir: a.dataDir, config });
  await mkdir(path.join(a.root, 'users', 'ann'), { recursive: true });
  ann = await a.createUser({ scope: '/users/ann', perm: { create: true, modify: true } });
  const created = await a.fetch('/api/sites', {
    method: 'POST',
    token: a.admin.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'many',
      folder: '/users/ann/many',
      serve: true,
      starter: true,
    }),
  });
  expect(created.status).toBe(201);
  // Enough published posts that a build takes a while: builds that were not serialised would
  // overlap.
  const posts = path.join(site(), 'content', 'posts');
  for (let i = 0; i < 80; i++) {
    const text = `---\ntitle: Post ${i}\ndate: 2024-01-01T00:00:00Z\ndraft: false\n---\n\n${'Words. '.repeat(200)}\n`;
    await writeFile(path.join(posts, `post-${i}.md`), text);
  }
});

afterAll(async () => {
  await b?.close({ removeFiles: false });
  await a?.close();
});

describe('sites: builds', () => {
  it('answers 15 builds started together with success, one build at a time, and leaves no temp folder', async () => {
    const before = (await runs(a, 'many')).length;
    const results = await Promise.all(Array.from({ length: 15 }, () => build(a)));
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body.ok).toBe(true);
    }
    expect(await leftovers()).toEqual([]);
    const served = await fetch(`${a.url}/sites/many/posts/post-42/`);
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('Post 42');
    const made = (await runs(a, 'many')).slice(before);
    // Requests arriving while a build ran joined the next one instead of each starting their own.
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(15);
    expect(overlaps(made)).toBe(0);
  });

  it('leaves the previous output served, and nothing behind, when a build fails', async () => {
    const page = path.join(site(), 'public', 'posts', 'post-7', 'index.html');
    const before = await readFile(page, 'utf8');
    const layout = path.join(site(), 'layouts', 'post.liquid');
    const good = await readFile(layout, 'utf8');
    await writeFile(layout, '{% if page.title %}never closed');
    try {
      const failed = await build(a);
      expect(failed.status).toBe(200);
      expect(failed.body.ok).toBe(false);
      expect(failed.body.log).not.toBe('');
      expect(await leftovers()).toEqual([]);
      expect(await readFile(page, 'utf8')).toBe(before);
      expect((await fetch(`${a.url}/sites/many/posts/post-7/`)).status).toBe(200);
    } finally {
      await writeFile(layout, good);
    }
  });

  it("removes a crashed build's folder once old, never a younger one (another build's)", async () => {
    const stale = path.join(site(), '.cabinet-build-crashed');
    const young = path.join(site(), '.cabinet-build-running');
    await mkdir(stale);
    await mkdir(young);
    await writeFile(path.join(stale, 'index.html'), 'half');
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    await utimes(stale, old, old);
    try {
      // A build removes only its own folder: the others stay for the sweep to judge.
      expect((await build(a)).body.ok).toBe(true);
      expect(existsSync(stale)).toBe(true);
      expect(existsSync(young)).toBe(true);
      const removed = await a.runtime.services.sites.sweepBuilds(60 * 60 * 1000);
      expect(removed).toBe(1);
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(young)).toBe(true);
    } finally {
      await rm(young, { recursive: true, force: true });
      await rm(stale, { recursive: true, force: true });
    }
  });

  it('builds a site one at a time across two instances over one database', async () => {
    const before = (await runs(a, 'many')).length;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => build(i % 2 === 0 ? a : b)),
    );
    for (const result of results) {
      expect(result.status).toBe(200);
      expect(result.body.ok).toBe(true);
    }
    const made = (await runs(a, 'many')).slice(before);
    // Each instance ran at least one build, and none ran while another instance's did.
    expect(made.length).toBeGreaterThanOrEqual(2);
    expect(overlaps(made)).toBe(0);
    expect(await leftovers()).toEqual([]);
  });
});
