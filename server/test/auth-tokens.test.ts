// Authentication: JSON login, renewal, logout and the tokens it hands out.
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../src/credentials/tokens.ts';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { claimsOf, login } from './helpers/auth.ts';

describe('json login, renew, logout and tokens', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('returns a token as plain text whose claims carry the user and a live session', async () => {
    const res = await login(server, { username: 'admin', password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const token = await res.text();
    expect(token.split('.')).toHaveLength(3);
    const claims = claimsOf(token);
    expect(claims.iss).toBe('File Browser');
    expect(claims.user).toMatchObject({ id: 1, username: 'admin', perm: { admin: true } });
    expect(claims.user).not.toHaveProperty('password');
    expect(claims.user).not.toHaveProperty('scope');
    const session = await server.ctx.store.sessions.get(claims.jti as string);
    expect(session).toMatchObject({ userId: 1, revokedAt: null });
  });

  it('accepts a login body sent without a JSON content type', async () => {
    const res = await server.fetch('/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['a wrong password', JSON.stringify({ username: 'admin', password: 'nope-nope-nope' })],
    ['an unknown user', JSON.stringify({ username: 'ghost', password: ADMIN_PASSWORD })],
    ['an undecodable body', '{"username": "admin", '],
    ['a body of the wrong shape', JSON.stringify({ username: 5, password: [] })],
    ['an empty body', ''],
  ])('answers 403 for %s', async (_name, body) => {
    const res = await login(server, body);
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('403 Forbidden\n');
  });

  it('refuses a login body over 1 MiB', async () => {
    const res = await login(server, { username: 'admin', password: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
  });

  it('renews with a token built from the current record for the same session', async () => {
    const { user, token } = await server.createUser();
    await server.ctx.store.users.update({ ...user, locale: 'de' });
    const res = await server.fetch('/api/renew', { method: 'POST', token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-renew-token')).toBe('false');
    const renewed = await res.text();
    expect(claimsOf(renewed).jti).toBe(claimsOf(token).jti);
    expect(claimsOf(renewed).user).toMatchObject({ id: user.id, locale: 'de' });
    const session = await server.ctx.store.sessions.get(claimsOf(renewed).jti as string);
    expect(session?.expiresAt).toBe((claimsOf(renewed).exp as number) * 1000);
    expect((await server.fetch('/api/renew', { method: 'POST', token: renewed })).status).toBe(200);
  });

  it('logs out by revoking the session: the token and its renewals stop working', async () => {
    const { token } = await server.createUser();
    const out = await server.fetch('/api/logout', { method: 'POST', token });
    expect(out.status).toBe(200);
    expect(await out.text()).toBe('200 OK\n');
    expect((await server.fetch('/api/renew', { method: 'POST', token })).status).toBe(401);
    expect(
      (await server.fetch('/api/renew', { headers: { cookie: `auth=${token}` } })).status,
    ).toBe(401);
    expect((await server.fetch('/api/logout', { method: 'POST', token })).status).toBe(401);
  });

  it('accepts the auth cookie on GET only, and a query token only on downloads', async () => {
    const { token } = await server.createUser();
    expect(
      (await server.fetch('/api/renew', { headers: { cookie: `auth=${token}` } })).status,
    ).toBe(200);
    expect((await server.fetch(`/api/renew?auth=${token}`)).status).toBe(401);
    expect((await server.fetch(`/api/raw/?auth=${token}&algo=zip`)).status).toBe(200);
    const post = await server.fetch('/api/renew', {
      method: 'POST',
      headers: { cookie: `auth=${token}` },
    });
    expect(post.status).toBe(401);
    expect((await server.fetch(`/api/renew?auth=${token}`, { method: 'POST' })).status).toBe(401);
  });

  describe('refuses bad tokens with 401', () => {
    const cases: [string, (s: TestServer) => Promise<string>][] = [
      [
        'expired',
        async (s) => {
          const key = s.ctx.signingKey;
          return new SignJWT({ user: { ...claimsOf(s.admin.token).user! } })
            .setProtectedHeader({ alg: 'HS256' })
            .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
            .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
            .setJti(claimsOf(s.admin.token).jti as string)
            .sign(key);
        },
      ],
      [
        'tampered',
        async (s) => {
          const [h, p, sig] = s.admin.token.split('.') as [string, string, string];
          const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as {
            user: { id: number };
          };
          claims.user.id = 2;
          return `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`;
        },
      ],
      [
        'alg none',
        async (s) => {
          const header = Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url');
          return `${header}.${s.admin.token.split('.')[1]}.`;
        },
      ],
      [
        'signed with another key',
        async (s) => {
          const other = new TextEncoder().encode('another-key-another-key-another-key-1234');
          return (await signToken(other, s.admin.user, 3600)).token;
        },
      ],
      ['malformed (two parts)', async (s) => s.admin.token.split('.').slice(0, 2).join('.')],
      ['garbage', async () => 'not-a-token'],
      [
        'of a session that was never recorded',
        async (s) => (await signToken(s.ctx.signingKey, s.admin.user, 3600)).token,
      ],
    ];
    it.each(cases)('%s', async (_name, make) => {
      const token = await make(server);
      const res = await server.fetch('/api/renew', { method: 'POST', token });
      expect(res.status).toBe(401);
      expect(await res.text()).toBe('401 Unauthorized\n');
    });

    it('of a deleted user', async () => {
      const { user, token } = await server.createUser();
      await server.ctx.store.users.remove(user.id);
      expect((await server.fetch('/api/renew', { method: 'POST', token })).status).toBe(401);
    });

    it('without any token', async () => {
      expect((await server.fetch('/api/renew', { method: 'POST' })).status).toBe(401);
      expect((await server.fetch('/api/logout', { method: 'POST' })).status).toBe(401);
    });
  });
});
