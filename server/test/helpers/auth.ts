import { request as httpRequest } from 'node:http';
import type { TestServer } from '../../testing/test-server.ts';

// Requests of the authentication tests: a JSON login, a POST from a chosen loopback address.

/** The claims of a JWT, unverified. */
export function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

/** POST /api/login with a JSON body (or a raw string). */
export function login(server: TestServer, body: unknown, headers: Record<string, string> = {}) {
  return server.fetch('/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A POST from a chosen loopback address (127.0.0.x), to tell rate-limit keys apart. */
export function postFrom(
  server: TestServer,
  localAddress: string,
  pathname: string,
  body: unknown,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  const url = new URL(`${server.url}${pathname}`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
