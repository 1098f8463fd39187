import type { AppPasswordCreated } from '@cabinet/protocol';
import type { TestServer } from '../../testing/test-server.ts';

/** Creates an app password through the API for the token's user. */
export async function createAppPassword(
  server: TestServer,
  token: string,
  body: { name: string; readOnly?: boolean; folder?: string },
): Promise<AppPasswordCreated> {
  const res = await server.fetch('/api/app-passwords', {
    method: 'POST',
    token,
    body: JSON.stringify(body),
  });
  if (res.status !== 201) throw new Error(`creating an app password: ${res.status}`);
  return (await res.json()) as AppPasswordCreated;
}

/** An `Authorization: Basic` value. */
export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** A WebDAV request against /dav with Basic credentials. */
export function dav(
  server: TestServer,
  method: string,
  path: string,
  auth: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return fetch(`${server.url}/dav${path}`, {
    method,
    headers: { authorization: auth, ...init.headers },
    ...(init.body !== undefined && { body: init.body }),
  });
}
