import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadTls } from '../src/config/tls-files.ts';
import { startTestServer, type TestServer } from '../testing/index.ts';

/** The script-src directive of a CSP header. */
function scriptSrc(csp: string): string {
  return csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
}

describe("the app's pages and API answers", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('serve the page under a strict CSP whose nonce is its only inline script', async () => {
    const res = await server.fetch('/files/');
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(scriptSrc(csp))?.[1];
    expect(nonce).toBeDefined();
    expect(scriptSrc(csp)).not.toContain('unsafe-inline');
    expect(scriptSrc(csp)).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'self'");
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)].map((m) => m[1]);
    expect(inline).toEqual([` nonce="${nonce}"`]);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('permissions-policy')).toContain('camera=()');
    expect(res.headers.get('strict-transport-security')).toBeNull();

    const again = await server.fetch('/files/');
    const next = /'nonce-([^']+)'/.exec(again.headers.get('content-security-policy') ?? '')?.[1];
    expect(next).not.toBe(nonce);
  });

  it('send no referrer from API answers and downloads either', async () => {
    for (const route of ['/api/resources/', '/api/nothing-here']) {
      const res = await server.fetch(route, { headers: { 'X-Auth': server.admin.token } });
      expect(res.headers.get('referrer-policy'), route).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options'), route).toBe('nosniff');
    }
  });

  it("let the login page's bot check load its script and frame, and nothing else of it", async () => {
    const checked = await startTestServer({
      config: {
        recaptchaHost: 'https://www.recaptcha.net',
        recaptchaKey: 'site-key',
        recaptchaSecret: 'secret',
      },
    });
    try {
      const csp = (await checked.fetch('/login')).headers.get('content-security-policy') ?? '';
      expect(scriptSrc(csp)).toContain('https://www.recaptcha.net https://www.gstatic.com');
      expect(csp).toMatch(/frame-src 'self' https:\/\/www\.recaptcha\.net/);
      expect(scriptSrc(csp)).not.toContain('unsafe-inline');
    } finally {
      await checked.close();
    }
    const plain = (await server.fetch('/login')).headers.get('content-security-policy') ?? '';
    expect(plain).not.toContain('gstatic');
  });

  it('let only the configured origins embed the pages', async () => {
    const embedded = await startTestServer({
      config: { frameAncestors: ['https://intranet.example'] },
    });
    try {
      const res = await embedded.fetch('/login');
      expect(res.headers.get('content-security-policy')).toContain(
        'frame-ancestors https://intranet.example',
      );
    } finally {
      await embedded.close();
    }
  });
});

describe('HTTPS served by Cabinet', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cabinet-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  /** A self-signed certificate for 127.0.0.1 named `cn`, written over cert.pem and key.pem. */
  function makeCertificate(cn: string): string {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        `/CN=${cn}`,
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    return cn;
  }
  /** The common name of the certificate a new connection is served. */
  function servedName(url: string): Promise<string> {
    const { port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = tls.connect(
        { host: '127.0.0.1', port: Number(port), rejectUnauthorized: false },
        () => {
          const subject = socket.getPeerCertificate().subject;
          socket.end();
          resolve(String(subject.CN));
        },
      );
      socket.on('error', reject);
    });
  }
  function get(url: string, ca: Buffer): Promise<{ status: number; hsts?: string }> {
    return new Promise((resolve, reject) => {
      https
        .get(url, { ca }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              hsts: res.headers['strict-transport-security'],
            }),
          );
        })
        .on('error', reject);
    });
  }

  let server: TestServer;
  beforeAll(async () => {
    makeCertificate('first');
    server = await startTestServer({ config: { cert, key } });
  });
  afterAll(() => server.close());

  it('serves the app over TLS with HSTS', async () => {
    expect(server.url.startsWith('https://')).toBe(true);
    const { readFileSync } = await import('node:fs');
    const res = await get(`${server.url}/login`, readFileSync(cert));
    expect(res.status).toBe(200);
    expect(res.hsts).toBe('max-age=31536000');
  });

  it('loads a renewed certificate without a restart and keeps it when the new pair is bad', async () => {
    expect(await servedName(server.url)).toBe('first');
    makeCertificate('renewed');
    reloadTls(server.app.server as unknown as https.Server, server.config);
    expect(await servedName(server.url)).toBe('renewed');

    writeFileSync(key, 'not a key');
    expect(() => reloadTls(server.app.server as unknown as https.Server, server.config)).toThrow();
    expect(await servedName(server.url)).toBe('renewed');
  });

  it('refuses to start with a certificate but no key', async () => {
    await expect(startTestServer({ config: { cert, key: '' } })).rejects.toThrow(
      /--cert and --key/,
    );
  });
});
