import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageConfig } from '@cabinet/protocol';
import { renderIndex, scriptSafeJson } from '../src/web-host/index-page.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { BIG_ASSET, fakeDist, INDEX, pageConfigOf } from './helpers/web-dist.ts';

/** A GET with the path sent byte for byte (fetch would normalise `/./` and `%2e%2e` itself). */
function rawGet(
  server: TestServer,
  rawPath: string,
): Promise<{ status: number; location?: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: `${url.pathname.replace(/\/$/, '')}${rawPath}` },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

for (const baseURL of ['', '/fb']) {
  describe(`site under base URL "${baseURL}"`, () => {
    let server: TestServer;
    let dist: string;
    let branding: string;
    beforeAll(async () => {
      dist = await fakeDist();
      branding = await mkdtemp(path.join(os.tmpdir(), 'cabinet-brand-'));
      server = await startTestServer({ config: { webDist: dist, baseURL } });
    });
    afterAll(async () => {
      await server.close();
      await rm(dist, { recursive: true, force: true });
      await rm(branding, { recursive: true, force: true });
    });

    it('renders index.html with the page configuration for SPA routes', async () => {
      for (const route of ['/', '/login', '/files/some/deep/path/', '/settings/users/3']) {
        const res = await server.fetch(route);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-cache');
        const html = await res.text();
        expect(html).not.toContain('__CABINET_BASE__');
        expect(html).not.toContain('<!--cabinet-config-->');
        expect(html).toContain(`src="${baseURL}/static/assets/index-abc123.js"`);
        expect(html).toContain('<title>Cabinet</title>');
        const page = pageConfigOf(html);
        expect(page).toMatchObject({
          Name: 'Cabinet',
          BaseURL: baseURL,
          StaticURL: `${baseURL}/static`,
          AuthMethod: 'json',
          LoginPage: true,
          NoAuth: false,
          Signup: false,
          ReCaptcha: false,
          EnableExec: false,
          EnableThumbs: true,
          ResizePreview: true,
          CSS: false,
          CustomLogo: false,
          TusSettings: { chunkSize: 10485760, retryCount: 5 },
        });
        expect(page).not.toHaveProperty('ReCaptchaKey');
      }
    });

    it('serves hashed assets immutably, other files for a day, and 404 for missing ones', async () => {
      const asset = await server.fetch('/static/assets/index-abc123.js');
      expect(asset.status).toBe(200);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(await asset.text()).toBe('console.log("app");\n');
      const big = await server.fetch('/static/assets/big-def456.js', {
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(big.headers.get('content-encoding')).toBe('gzip');
      expect(await big.text()).toBe(BIG_ASSET);
      const icon = await server.fetch('/static/favicon.svg');
      expect(icon.headers.get('cache-control')).toBe('public, max-age=86400');
      expect((await server.fetch('/static/assets/missing.js')).status).toBe(404);
      expect((await server.fetch('/static/assets/')).status).toBe(404);
      expect((await rawGet(server, '/static/%2e%2e/%2e%2e/etc/passwd')).status).toBe(301);
      expect((await server.fetch('/static/..%5c..%5cindex.html')).status).toBe(404);
      expect((await server.fetch('/static/.env')).status).toBe(404);
    });

    it('applies branding: name, dark theme, custom.css and image overrides', async () => {
      await writeFile(path.join(branding, 'custom.css'), 'body { color: red; }');
      await mkdir(path.join(branding, 'img'), { recursive: true });
      await writeFile(path.join(branding, 'img/logo.svg'), '<svg id="custom"/>');
      const settings = await server.ctx.settings.get();
      await server.updateSettings({
        branding: {
          ...settings.branding,
          name: 'Team <Files> & Co',
          theme: 'dark',
          files: branding,
        },
      });
      const html = await (await server.fetch('/files/')).text();
      expect(html).toContain('<title>Team &lt;Files&gt; &amp; Co</title>');
      expect(html).toContain('<html lang="en" data-theme="dark">');
      expect(html).toContain(`<link rel="stylesheet" href="${baseURL}/static/custom.css" />`);
      expect(html).not.toContain('<Files>');
      const page = pageConfigOf(html);
      expect(page).toMatchObject({
        Name: 'Team <Files> & Co',
        Theme: 'dark',
        CSS: true,
        CustomLogo: true,
      });
      const css = await server.fetch('/static/custom.css');
      expect(await css.text()).toBe('body { color: red; }');
      expect(css.headers.get('cache-control')).toBe('no-cache');
      expect(await (await server.fetch('/static/img/logo.svg')).text()).toBe('<svg id="custom"/>');
      await server.updateSettings({ branding: settings.branding });
    });

    it('keeps API routes out of the SPA fallback and answers unknown non-GETs with 404', async () => {
      expect((await server.fetch('/api/nothing-here')).status).toBe(404);
      const post = await server.fetch('/some/page', { method: 'POST' });
      expect(post.status).toBe(404);
      expect(await post.text()).toBe('404 Not Found\n');
      expect((await server.fetch('/health')).status).toBe(200);
    });

    it('adds the security and no-cache headers to API replies', async () => {
      const res = await server.fetch('/api/users', { token: server.admin.token });
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'self'; style-src 'unsafe-inline';",
      );
      expect(res.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('redirects unclean paths to their cleaned form, keeping the query', async () => {
      const cases: [string, string][] = [
        ['/files//a', `${baseURL}/files/a`],
        ['/files/./a/', `${baseURL}/files/a/`],
        ['/files/a/../b?x=1', `${baseURL}/files/b?x=1`],
        ['/api/resources/%2e%2e/private', `${baseURL}/api/private`],
        ['/api//resources/x', `${baseURL}/api/resources/x`],
      ];
      for (const [from, to] of cases) {
        const res = await rawGet(server, from);
        expect(res.status, from).toBe(301);
        expect(res.location, from).toBe(to);
      }
    });
  });
}

describe('base URL handling', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = await fakeDist();
    server = await startTestServer({ config: { webDist: dist, baseURL: '/fb' } });
  });
  afterAll(async () => {
    await server.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('redirects the bare base URL to base + "/"', async () => {
    const origin = server.url.slice(0, -'/fb'.length);
    const res = await fetch(`${origin}/fb`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/fb/');
    const withQuery = await fetch(`${origin}/fb?x=1`, { redirect: 'manual' });
    expect(withQuery.headers.get('location')).toBe('/fb/?x=1');
  });

  it('also serves paths without the prefix (lenient, as filebrowser)', async () => {
    const origin = server.url.slice(0, -'/fb'.length);
    expect((await fetch(`${origin}/health`)).status).toBe(200);
    expect((await fetch(`${origin}/static/favicon.svg`)).status).toBe(200);
  });

  it('logs in and uses the API under the base URL', async () => {
    const login = await server.fetch('/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: server.admin.password }),
    });
    expect(login.status).toBe(200);
    const token = await login.text();
    expect((await server.fetch('/api/users/1', { token })).status).toBe(200);
  });
});

describe('page configuration per auth method', () => {
  let dist: string;
  beforeAll(async () => {
    dist = await fakeDist();
  });
  afterAll(() => rm(dist, { recursive: true, force: true }));

  it('exposes the bot-check site key (never the secret) only when configured', async () => {
    const server = await startTestServer({
      config: {
        webDist: dist,
        recaptchaHost: 'https://captcha.example',
        recaptchaKey: 'public-site-key',
        recaptchaSecret: 'private-secret',
      },
    });
    try {
      const html = await (await server.fetch('/login')).text();
      expect(pageConfigOf(html)).toMatchObject({
        ReCaptcha: true,
        ReCaptchaHost: 'https://captcha.example',
        ReCaptchaKey: 'public-site-key',
      });
      expect(html).not.toContain('private-secret');
    } finally {
      await server.close();
    }
  });

  it.each([
    ['proxy', { LoginPage: false, NoAuth: false }],
    ['noauth', { LoginPage: false, NoAuth: true }],
  ])('marks %s', async (authMethod, expected) => {
    const server = await startTestServer({ config: { webDist: dist, authMethod } });
    try {
      const page = pageConfigOf(await (await server.fetch('/')).text());
      expect(page).toMatchObject({ AuthMethod: authMethod, ...expected });
    } finally {
      await server.close();
    }
  });

  it('answers 503 with a hint when the web app is not built', async () => {
    const server = await startTestServer({ config: { webDist: path.join(dist, 'nope') } });
    try {
      const res = await server.fetch('/files/');
      expect(res.status).toBe(503);
      expect(await res.text()).toBe('web app not built: run npm run build\n');
      expect((await server.fetch('/static/assets/index-abc123.js')).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('index rendering', () => {
  it('escapes the configuration for a script element', () => {
    const json = scriptSafeJson({ Name: '</script><script>alert(1)</script>\u2028&' });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ Name: '</script><script>alert(1)</script>\u2028&' });
    const html = renderIndex(
      INDEX,
      {
        Name: '</title><script>x()</script>',
        BaseURL: '',
        StaticURL: '/static',
        Theme: '',
        CSS: false,
      } as PageConfig,
      'n0nce',
    );
    expect(html).not.toContain('<script>x()</script>');
    expect(html).toContain('<script nonce="n0nce">window.FileBrowser');
    expect(html).toContain('<html lang="en">');
  });
});
