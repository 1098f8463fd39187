import type { User } from '@cabinet/protocol';
import { ADMIN_PASSWORD, type TestServer } from '../../testing/test-server.ts';

/** A password the strength check accepts. */
export const STRONG = 'a-long-enough-unusual-passphrase';

/** A request to the users API with an optional JSON body. */
export function send(
  server: TestServer,
  method: string,
  url: string,
  token: string,
  body?: unknown,
) {
  return server.fetch(url, {
    method,
    token,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  });
}

/** A new user's data: a unique name, the strong password, every file permission. */
export function newUser(overrides: Partial<User> = {}): Partial<User> {
  return {
    id: 0,
    username: `new-${Math.random().toString(36).slice(2, 8)}`,
    password: STRONG,
    scope: '',
    locale: 'en',
    perm: {
      admin: false,
      execute: false,
      create: true,
      rename: true,
      modify: true,
      delete: true,
      share: true,
      download: true,
    },
    ...overrides,
  };
}

/** POST /api/users as the admin, confirming with the admin's password. */
export function createAsAdmin(
  server: TestServer,
  data: Partial<User>,
  extra: Record<string, unknown> = {},
) {
  return send(server, 'POST', '/api/users', server.admin.token, {
    what: 'user',
    which: [],
    current_password: ADMIN_PASSWORD,
    data,
    ...extra,
  });
}
