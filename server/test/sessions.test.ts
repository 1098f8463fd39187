import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionList } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.close();
});

/** Logs in through /api/login as a browser would, with a User-Agent. */
async function loginAs(user: TestUser, userAgent: string): Promise<string> {
  const res = await server.fetch('/api/login', {
    method: 'POST',
    headers: { 'user-agent': userAgent },
    body: JSON.stringify({ username: user.user.username, password: user.password }),
  });
  expect(res.status).toBe(200);
  return (await res.text()).trim();
}

async function sessionsOf(id: number, token: string) {
  const res = await server.fetch(`/api/users/${id}/sessions`, { token });
  expect(res.status).toBe(200);
  return SessionList.parse(await res.json());
}

const whoAmI = (token: string) => server.fetch('/api/resources/', { token });

describe('sessions API', () => {
  it('lists the user agent, address and times of each session and marks the current one', async () => {
    const user = await server.createUser();
    const firefox = await loginAs(user, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0');
    const chrome = await loginAs(user, 'Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537');
    const sessions = await sessionsOf(user.user.id, firefox);
    const byAgent = new Map(sessions.map((s) => [s.userAgent, s]));
    const mine = byAgent.get('Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0');
    expect(mine?.current).toBe(true);
    expect(mine?.address).toBe('127.0.0.1');
    expect(mine!.createdAt).toBeLessThanOrEqual(mine!.lastUsedAt);
    expect(mine!.expiresAt).toBeGreaterThan(Date.now());
    expect(byAgent.get('Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537')?.current).toBe(
      false,
    );
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect((await whoAmI(chrome)).status).toBe(200);
  });

  it('ends one session: its token answers 401 at once, the others keep working', async () => {
    const user = await server.createUser();
    const keep = await loginAs(user, 'keep');
    const end = await loginAs(user, 'end');
    const target = (await sessionsOf(user.user.id, keep)).find((s) => s.userAgent === 'end')!;
    const res = await server.fetch(`/api/users/${user.user.id}/sessions/${target.id}`, {
      method: 'DELETE',
      token: keep,
    });
    expect(res.status).toBe(200);
    expect((await whoAmI(end)).status).toBe(401);
    expect((await whoAmI(keep)).status).toBe(200);
    expect((await sessionsOf(user.user.id, keep)).map((s) => s.userAgent)).not.toContain('end');
  });

  it('ends every other session but keeps the caller logged in', async () => {
    const user = await server.createUser();
    const me = await loginAs(user, 'me');
    const others = [await loginAs(user, 'a'), await loginAs(user, 'b'), user.token];
    const res = await server.fetch(`/api/users/${user.user.id}/sessions`, {
      method: 'DELETE',
      token: me,
    });
    expect(res.status).toBe(200);
    for (const token of others) expect((await whoAmI(token)).status).toBe(401);
    expect((await whoAmI(me)).status).toBe(200);
    expect((await sessionsOf(user.user.id, me)).map((s) => s.userAgent)).toEqual(['me']);
  });

  it('lets an administrator see and end all sessions of another user', async () => {
    const user = await server.createUser();
    const token = await loginAs(user, 'victim browser');
    const listed = await sessionsOf(user.user.id, server.admin.token);
    expect(listed.some((s) => s.userAgent === 'victim browser' && !s.current)).toBe(true);
    const res = await server.fetch(`/api/users/${user.user.id}/sessions`, {
      method: 'DELETE',
      token: server.admin.token,
    });
    expect(res.status).toBe(200);
    expect((await whoAmI(token)).status).toBe(401);
    expect((await whoAmI(user.token)).status).toBe(401);
    expect((await whoAmI(server.admin.token)).status).toBe(200);
  });

  it.each([
    ['GET', (other: number) => `/api/users/${other}/sessions`],
    ['DELETE', (other: number) => `/api/users/${other}/sessions`],
    ['DELETE', (other: number) => `/api/users/${other}/sessions/whatever`],
  ])('refuses a non-admin %s on another user’s sessions (403)', async (method, url) => {
    const user = await server.createUser();
    const other = await server.createUser();
    const res = await server.fetch(url(other.user.id), { method, token: user.token });
    expect(res.status).toBe(403);
    expect((await whoAmI(other.token)).status).toBe(200);
  });

  it('answers 404 for a session of another user, an unknown session or user, and 401 without a token', async () => {
    const user = await server.createUser();
    const other = await server.createUser();
    const otherSession = (await sessionsOf(other.user.id, other.token))[0]!;
    const cross = await server.fetch(`/api/users/${user.user.id}/sessions/${otherSession.id}`, {
      method: 'DELETE',
      token: server.admin.token,
    });
    expect(cross.status).toBe(404);
    expect((await whoAmI(other.token)).status).toBe(200);
    const unknown = await server.fetch(`/api/users/${user.user.id}/sessions/nope`, {
      method: 'DELETE',
      token: user.token,
    });
    expect(unknown.status).toBe(404);
    const noUser = await server.fetch('/api/users/999999/sessions', {
      token: server.admin.token,
    });
    expect(noUser.status).toBe(404);
    const badId = await server.fetch('/api/users/abc/sessions', { token: server.admin.token });
    expect(badId.status).toBe(404);
    expect((await server.fetch(`/api/users/${user.user.id}/sessions`)).status).toBe(401);
  });
});
