// The users API: listing, reading and creating users.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@cabinet/protocol';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { createAsAdmin, newUser, send } from './helpers/users.ts';

describe('users API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const create = (data: Partial<User>, extra: Record<string, unknown> = {}) =>
    createAsAdmin(server, data, extra);

  describe('listing and reading', () => {
    it('lists every user for admins, sorted by id, without passwords', async () => {
      await server.createUser();
      const res = await server.fetch('/api/users', { token: server.admin.token });
      expect(res.status).toBe(200);
      const users = (await res.json()) as User[];
      expect(users[0]).toMatchObject({ id: 1, username: 'admin', password: '', scope: '.' });
      expect(users.map((u) => u.id)).toEqual([...users.map((u) => u.id)].sort((a, b) => a - b));
      expect(JSON.stringify(users)).not.toMatch(/argon2|passwordHash/);
    });

    it('refuses the list to non-admins and anonymous callers', async () => {
      const { token } = await server.createUser();
      expect((await server.fetch('/api/users', { token })).status).toBe(403);
      expect((await server.fetch('/api/users')).status).toBe(401);
    });

    it('shows users themselves with an empty scope, and refuses other users', async () => {
      const me = await server.createUser({ scope: '/secret/place' });
      const res = await server.fetch(`/api/users/${me.user.id}`, { token: me.token });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: me.user.id, scope: '', password: '' });
      expect((await server.fetch('/api/users/1', { token: me.token })).status).toBe(403);
      const asAdmin = await server.fetch(`/api/users/${me.user.id}`, { token: server.admin.token });
      expect(await asAdmin.json()).toMatchObject({ scope: '/secret/place' });
    });

    it('answers 404 for unknown and malformed ids', async () => {
      expect((await server.fetch('/api/users/9999', { token: server.admin.token })).status).toBe(
        404,
      );
      expect((await server.fetch('/api/users/abc', { token: server.admin.token })).status).toBe(
        404,
      );
    });
  });

  describe('creating', () => {
    it('creates a user: 201, Location, defaults filled, admin implies every permission', async () => {
      const res = await create(
        newUser({
          id: 777,
          username: 'heidi',
          perm: { ...newUser().perm!, admin: true, share: false },
        }),
      );
      expect(res.status).toBe(201);
      expect(await res.text()).toBe('201 Created\n');
      const location = res.headers.get('location')!;
      expect(location).toMatch(/^\/settings\/users\/\d+$/);
      const id = Number(location.split('/').pop());
      expect(id).not.toBe(777);
      const heidi = (await server.ctx.store.users.byId(id))!;
      expect(heidi.username).toBe('heidi');
      expect(Object.values(heidi.perm).every(Boolean)).toBe(true);
      expect(heidi.viewMode).toBe('mosaic');
      expect(heidi.scope).toBe('/');
    });

    it.each([
      [
        'a wrong current password',
        {},
        { current_password: 'wrong' },
        400,
        'the current password is incorrect',
      ],
      ['a non-empty which', {}, { which: ['all'] }, 400, 'which must be empty when creating'],
      ['what other than user', {}, { what: 'share' }, 400, 'invalid data type'],
      ['a missing password', { password: '' }, {}, 400, 'password is required'],
      [
        'a short password',
        { password: 'short' },
        {},
        400,
        'password is too short, minimum length is 12',
      ],
      ['a common password', { password: 'qwertyuiop123' }, {}, 400, 'password is too easy'],
      [
        'share without download',
        { perm: { ...newUser().perm!, download: false } },
        {},
        400,
        'permission to share requires permission to download',
      ],
      [
        'an invalid rule regex',
        { rules: [{ regex: true, allow: false, path: '', regexp: { raw: '(' } }] },
        {},
        400,
        'invalid rule regex: (: /(/: Unterminated group',
      ],
      ['a missing username', { username: '' }, {}, 400, 'username is required'],
    ])('refuses %s', async (_name, data, extra, status, reason) => {
      const res = await create({ ...newUser(), ...data } as Partial<User>, extra);
      expect(res.status).toBe(status);
      expect(await res.text()).toBe(`${status} Bad Request (${reason})\n`);
    });

    it('refuses a duplicate username with 409', async () => {
      expect((await create(newUser({ username: 'ivan' }))).status).toBe(201);
      expect((await create(newUser({ username: 'ivan' }))).status).toBe(409);
    });

    it('refuses malformed JSON and wrong field types with 400', async () => {
      expect(
        (await send(server, 'POST', '/api/users', server.admin.token, '{"what":')).status,
      ).toBe(400);
      const res = await create({ ...newUser(), perm: 'all' } as unknown as Partial<User>);
      expect(res.status).toBe(400);
    });

    it('refuses non-admins with 403', async () => {
      const { token, password } = await server.createUser();
      const res = await send(server, 'POST', '/api/users', token, {
        what: 'user',
        which: [],
        current_password: password,
        data: newUser(),
      });
      expect(res.status).toBe(403);
    });

    it('creates the home folder under the base path with createUserDir and an empty scope', async () => {
      await server.updateSettings({ createUserDir: true });
      const res = await create(newUser({ username: 'Judy Q' }));
      expect(res.status).toBe(201);
      const judy = (await server.ctx.store.users.byUsername('Judy Q'))!;
      expect(judy.scope).toBe('/users/Judy-Q');
      expect(existsSync(path.join(server.root, 'users/Judy-Q'))).toBe(true);
      await server.updateSettings({ createUserDir: false });
    });
  });
});
