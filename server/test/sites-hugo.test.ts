import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Post, PostActionResult, PostPreview } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let server: TestServer;
let ann: TestUser;

async function call<T>(token: string, method: string, url: string, body?: unknown) {
  const response = await server.fetch(url, {
    method,
    token,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

beforeAll(async () => {
  server = await startTestServer();
  await mkdir(path.join(server.root, 'users', 'ann'), { recursive: true });
  ann = await server.createUser({ scope: '/users/ann', perm: { create: true, modify: true } });
  const created = await call(server.admin.token, 'POST', '/api/sites', {
    name: 'docs',
    title: 'Ann "docs"',
    folder: '/users/ann/docs',
    generator: 'hugo',
    starter: true,
  });
  expect(created.status).toBe(201);
});
afterAll(async () => {
  await server.close();
});

describe('sites: Hugo', () => {
  it('builds a starter site with the real hugo binary, publishing and unpublishing a post', async () => {
    const site = path.join(server.root, 'users', 'ann', 'docs');
    expect(await readFile(path.join(site, 'hugo.toml'), 'utf8')).toContain(
      'title = "Ann \\"docs\\""',
    );
    const post = await call<Post>(ann.token, 'POST', '/api/sites/docs/posts', {
      title: 'First steps',
    });
    expect(post.status).toBe(201);

    const preview = await call<PostPreview>(ann.token, 'POST', '/api/sites/docs/preview', {
      path: post.body.path,
      content: '---\ntitle: Draft view\ndraft: true\n---\n\nNot saved yet\n',
    });
    expect(preview.status).toBe(200);
    const page = await server.fetch(`${preview.body.url}?auth=${ann.token}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Draft view');
    expect(html).toContain('Not saved yet');
    // The preview built into the data folder: nothing new in the site.
    expect(existsSync(path.join(site, 'public'))).toBe(false);
    expect((await readdir(site)).sort()).toEqual(['archetypes', 'content', 'hugo.toml', 'layouts']);

    const published = await call<PostActionResult>(ann.token, 'POST', '/api/sites/docs/publish', {
      path: post.body.path,
    });
    expect(published.body.build?.ok).toBe(true);
    expect(published.body.build?.changed.added).toContain('posts/first-steps/index.html');
    const out = await readFile(
      path.join(site, 'public', 'posts', 'first-steps', 'index.html'),
      'utf8',
    );
    expect(out).toContain('<h1>First steps</h1>');
    expect(await readFile(path.join(site, 'public', 'index.html'), 'utf8')).toContain(
      'First steps',
    );

    const unpublished = await call<PostActionResult>(
      ann.token,
      'POST',
      '/api/sites/docs/unpublish',
      {
        path: post.body.path,
      },
    );
    expect(unpublished.body.build?.changed.removed).toContain('posts/first-steps/index.html');
    expect(existsSync(path.join(site, 'public', 'posts', 'first-steps'))).toBe(false);
    const runs = await server.ctx.store.commandRuns.latest(5);
    expect(runs[0]).toMatchObject({ kind: 'site_build', outcome: 'exited', exitCode: 0 });
    expect(runs[0]!.line).toMatch(/^site docs: hugo --destination/);
  });

  it('reports a Hugo failure with its log and leaves the output as it was', async () => {
    const site = path.join(server.root, 'users', 'ann', 'docs');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(site, 'layouts', 'index.html'), '{{ .Broken ');
    const build = await call<{ ok: boolean; log: string }>(
      ann.token,
      'POST',
      '/api/sites/docs/build',
    );
    expect(build.body.ok).toBe(false);
    expect(build.body.log).toMatch(/index\.html/);
    expect(existsSync(path.join(site, 'public', 'index.html'))).toBe(true);
    expect((await readdir(site)).filter((name) => name.startsWith('.cabinet-build-'))).toEqual([]);
  });
});
