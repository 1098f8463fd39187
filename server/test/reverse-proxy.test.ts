import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLog } from './helpers/log-capture.ts';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { fakeDist, pageConfigOf } from './helpers/web-dist.ts';

/**
 * A request as a reverse proxy forwards it: from a chosen loopback address (the proxy's), with
 * the X-Forwarded-* headers nginx, Caddy or Traefik add.
 */
function viaProxy(
  server: TestServer,
  options: { from?: string; method?: string; path: string; headers?: Record<string, string> },
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const url = new URL(`${server.url}${options.path}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'GET',
        localAddress: options.from ?? '127.0.0.1',
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const WRONG = { username: 'admin', password: 'not-the-admin-password' };
const RIGHT = { username: 'admin', password: ADMIN_PASSWORD };

/** A login as forwarded by a proxy for the client chain `forwardedFor`. */
function loginVia(server: TestServer, forwardedFor: string, body: unknown, from?: string) {
  return viaProxy(
    server,
    { method: 'POST', path: '/api/login', from, headers: { 'x-forwarded-for': forwardedFor } },
    body,
  ).then((res) => res.status);
}

describe('behind a trusted reverse proxy', () => {
  let server: TestServer;
  const { log, lines: logged } = captureLog();
  beforeAll(async () => {
    server = await startTestServer({
      config: {
        trustedProxies: ['127.0.0.1', '10.0.0.0/8'],
        rateLimitMax: 3,
        rateLimitWindow: 600,
        webDist: await fakeDist(),
      },
      log,
    });
  });
  afterAll(() => server.close());

  it('limits each client by its forwarded address, so one guesser locks out nobody else', async () => {
    for (let i = 0; i < 3; i++) expect(await loginVia(server, '198.51.100.20', WRONG)).toBe(403);
    expect(await loginVia(server, '198.51.100.20', RIGHT)).toBe(429);
    // Every client arrives from the same proxy address, yet the admin elsewhere still logs in.
    expect(await loginVia(server, '198.51.100.21', RIGHT)).toBe(200);
  });

  it('takes the rightmost untrusted hop, so a client cannot choose its own address', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await loginVia(server, `203.0.113.${i}, 198.51.100.30`, WRONG)).toBe(403);
    }
    expect(await loginVia(server, '203.0.113.99, 198.51.100.30', RIGHT)).toBe(429);
    // A second trusted proxy in the chain is skipped too.
    expect(await loginVia(server, '198.51.100.30, 10.1.2.3', RIGHT)).toBe(429);
  });

  it('logs the forwarded client address', async () => {
    await viaProxy(server, { path: '/health', headers: { 'x-forwarded-for': '198.51.100.40' } });
    const entries = logged.map((line) => JSON.parse(line) as { msg: string; client?: string });
    expect(entries.some((e) => e.msg === 'request' && e.client === '198.51.100.40')).toBe(true);
  });

  it('marks cookies Secure when the proxy says the client used https', async () => {
    const page = async (proto?: string) =>
      pageConfigOf(
        (
          await viaProxy(server, {
            path: '/files/',
            headers: proto ? { 'x-forwarded-proto': proto } : {},
          })
        ).text,
      ).SecureCookies;
    expect(await page('https')).toBe(true);
    expect(await page('http')).toBe(false);
    expect(await page()).toBe(false);
  });
});

describe('without trusted proxies (the default)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      config: { rateLimitMax: 3, rateLimitWindow: 600, webDist: await fakeDist() },
    });
  });
  afterAll(() => server.close());

  it('ignores X-Forwarded-For: the connection address is the client', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await loginVia(server, `198.51.100.${i}`, WRONG, '127.0.0.2')).toBe(403);
    }
    expect(await loginVia(server, '198.51.100.77', RIGHT, '127.0.0.2')).toBe(429);
    expect(await loginVia(server, '198.51.100.0', RIGHT, '127.0.0.3')).toBe(200);
  });

  it('ignores X-Forwarded-Proto', async () => {
    const res = await viaProxy(server, {
      path: '/files/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(pageConfigOf(res.text).SecureCookies).toBe(false);
  });
});
