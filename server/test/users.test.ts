import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@cabinet/protocol';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';

const STRONG = 'a-long-enough-unusual-passphrase';

function send(server: TestServer, method: string, url: string, token: string, body?: unknown) {
  return server.fetch(url, {
    method,
    token,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  });
}

function newUser(overrides: Partial<User> = {}): Partial<User> {
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

describe('users API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const create = (data: Partial<User>, extra: Record<string, unknown> = {}) =>
    send(server, 'POST', '/api/users', server.admin.token, {
      what: 'user',
      which: [],
      current_password: ADMIN_PASSWORD,
      data,
      ...extra,
    });

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

  describe('updating', () => {
    const put = (token: string, id: number, which: string[], data: Partial<User>, pw?: string) =>
      send(server, 'PUT', `/api/users/${id}`, token, {
        what: 'user',
        which,
        ...(pw !== undefined && { current_password: pw }),
        data: { id, ...data },
      });

    it('lets users change their own profile fields and marks them for renewal', async () => {
      const me = await server.createUser();
      const res = await put(me.token, me.user.id, ['locale', 'hideDotfiles', 'singleClick'], {
        locale: 'de',
        hideDotfiles: true,
        singleClick: true,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('200 OK\n');
      const after = (await server.ctx.store.users.byId(me.user.id))!;
      expect(after).toMatchObject({ locale: 'de', hideDotfiles: true, singleClick: true });
      const next = await server.fetch(`/api/users/${me.user.id}`, { token: me.token });
      expect(next.headers.get('x-renew-token')).toBe('true');
    });

    it('matches which entries case-insensitively', async () => {
      const me = await server.createUser();
      const res = await put(me.token, me.user.id, ['VIEWMODE', 'Sorting'], {
        viewMode: 'list',
        sorting: { by: 'size', asc: true },
      });
      expect(res.status).toBe(200);
      expect(await server.ctx.store.users.byId(me.user.id)).toMatchObject({
        viewMode: 'list',
        sorting: { by: 'size', asc: true },
      });
    });

    it.each([
      ['perm', { perm: { admin: true } }],
      ['Perm', { perm: { admin: true } }],
      ['PERM', { perm: { admin: true } }],
      ['perm.admin', { perm: { admin: true } }],
      [' perm ', { perm: { admin: true } }],
      ['scope', { scope: '/' }],
      ['Scope', { scope: '/' }],
      ['username', { username: 'mallory-admin' }],
      ['USERNAME', { username: 'mallory-admin' }],
      ['commands', { commands: ['rm'] }],
      ['Commands', { commands: ['rm'] }],
      ['rules', { rules: [] }],
      ['RULES', { rules: [] }],
      ['lockPassword', { lockPassword: false }],
      ['lockpassword', { lockPassword: false }],
      ['all', { perm: { admin: true } }],
      ['ALL', { perm: { admin: true } }],
    ])('refuses a non-admin naming %j with 403', async (field, data) => {
      const me = await server.createUser({ scope: '/mine' });
      const res = await put(me.token, me.user.id, [field], data as Partial<User>, me.password);
      expect(res.status).toBe(403);
      const after = (await server.ctx.store.users.byId(me.user.id))!;
      expect(after.perm.admin).toBe(false);
      expect(after.scope).toBe('/mine');
      expect(after.username).toBe(me.user.username);
    });

    it('refuses a non-admin an empty which (the whole record) with 403', async () => {
      const me = await server.createUser();
      const res = await put(me.token, me.user.id, [], { perm: { admin: true } } as Partial<User>);
      expect(res.status).toBe(403);
    });

    it('refuses users editing someone else with 403', async () => {
      const me = await server.createUser();
      const other = await server.createUser();
      expect((await put(me.token, other.user.id, ['locale'], { locale: 'fr' })).status).toBe(403);
    });

    it('answers 400 for an unknown which entry and a mismatched id', async () => {
      const me = await server.createUser();
      const unknown = await put(me.token, me.user.id, ['favouriteColour'], {});
      expect(unknown.status).toBe(400);
      expect(await unknown.text()).toBe(
        '400 Bad Request (unknown field in which: favouriteColour)\n',
      );
      const mismatch = await send(server, 'PUT', `/api/users/${me.user.id}`, me.token, {
        what: 'user',
        which: ['locale'],
        data: { id: me.user.id + 1, locale: 'fr' },
      });
      expect(mismatch.status).toBe(400);
    });

    it('changes a password only with the current one, by policy, revoking other sessions', async () => {
      const me = await server.createUser();
      const other = await server.tokenFor(me.user);
      const wrong = await put(me.token, me.user.id, ['password'], { password: STRONG + '!' }, 'x');
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toBe('400 Bad Request (the current password is incorrect)\n');
      const weak = await put(me.token, me.user.id, ['password'], { password: 'abc' }, me.password);
      expect(await weak.text()).toBe(
        '400 Bad Request (password is too short, minimum length is 12)\n',
      );
      const ok = await put(
        me.token,
        me.user.id,
        ['password'],
        { password: STRONG + '!' },
        me.password,
      );
      expect(ok.status).toBe(200);
      expect((await server.fetch('/api/renew', { method: 'POST', token: me.token })).status).toBe(
        200,
      );
      expect((await server.fetch('/api/renew', { method: 'POST', token: other })).status).toBe(401);
      const login = await server.fetch('/api/login', {
        method: 'POST',
        body: JSON.stringify({ username: me.user.username, password: STRONG + '!' }),
      });
      expect(login.status).toBe(200);
    });

    it('stops a user with lockPassword changing their password', async () => {
      const me = await server.createUser({ lockPassword: true });
      const res = await put(me.token, me.user.id, ['password'], { password: STRONG }, me.password);
      expect(res.status).toBe(403);
    });

    it('lets an admin replace a whole user, keeping the password when left blank', async () => {
      const target = await server.createUser();
      const targetSession = await server.tokenFor(target.user);
      const res = await put(
        server.admin.token,
        target.user.id,
        ['all'],
        {
          username: 'renamed-user',
          password: '',
          scope: '/elsewhere',
          perm: { ...target.user.perm, delete: false },
          commands: ['ls'],
        },
        ADMIN_PASSWORD,
      );
      expect(res.status).toBe(200);
      const after = (await server.ctx.store.users.byId(target.user.id))!;
      expect(after).toMatchObject({
        username: 'renamed-user',
        scope: '/elsewhere',
        commands: ['ls'],
      });
      expect(after.perm.delete).toBe(false);
      expect(after.passwordHash).toBe(target.user.passwordHash);
      expect(
        (await server.fetch('/api/renew', { method: 'POST', token: targetSession })).status,
      ).toBe(200);
    });

    it('revokes every session of a user whose password an admin changes', async () => {
      const target = await server.createUser();
      const res = await put(
        server.admin.token,
        target.user.id,
        ['password'],
        { password: STRONG },
        ADMIN_PASSWORD,
      );
      expect(res.status).toBe(200);
      expect(
        (await server.fetch('/api/renew', { method: 'POST', token: target.token })).status,
      ).toBe(401);
    });

    it('refuses renaming onto a taken username with 409', async () => {
      const target = await server.createUser();
      const res = await put(
        server.admin.token,
        target.user.id,
        ['username'],
        { username: 'admin' },
        ADMIN_PASSWORD,
      );
      expect(res.status).toBe(409);
    });
  });

  describe('deleting', () => {
    const del = (token: string, id: number, body?: unknown) =>
      send(server, 'DELETE', `/api/users/${id}`, token, body);

    it('requires a JSON body', async () => {
      const target = await server.createUser();
      expect((await del(server.admin.token, target.user.id)).status).toBe(400);
      expect((await del(server.admin.token, target.user.id, '')).status).toBe(400);
    });

    it('checks the acting user password', async () => {
      const target = await server.createUser();
      const res = await del(server.admin.token, target.user.id, { current_password: 'nope' });
      expect(res.status).toBe(400);
      expect(await server.ctx.store.users.byId(target.user.id)).toBeDefined();
    });

    it('deletes a user with their sessions and shares', async () => {
      const target = await server.createUser();
      await server.ctx.store.db
        .insertInto('shares')
        .values({
          hash: 'abcdefgh',
          path: '/x',
          user_id: target.user.id,
          expire: 0,
          password_hash: '',
          token: '',
        })
        .execute();
      const res = await del(server.admin.token, target.user.id, {
        current_password: ADMIN_PASSWORD,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('200 OK\n');
      expect(await server.ctx.store.users.byId(target.user.id)).toBeUndefined();
      const shares = await server.ctx.store.db.selectFrom('shares').selectAll().execute();
      expect(shares.filter((s) => s.user_id === target.user.id)).toHaveLength(0);
      expect(
        (await server.fetch('/api/renew', { method: 'POST', token: target.token })).status,
      ).toBe(401);
    });

    it('lets users delete themselves but nobody else', async () => {
      const me = await server.createUser();
      const other = await server.createUser();
      expect((await del(me.token, other.user.id, { current_password: me.password })).status).toBe(
        403,
      );
      expect((await del(me.token, me.user.id, { current_password: me.password })).status).toBe(200);
    });

    it('answers 404 for unknown users', async () => {
      expect(
        (await del(server.admin.token, 9999, { current_password: ADMIN_PASSWORD })).status,
      ).toBe(404);
    });
  });
});

describe('the last administrator', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('cannot be demoted', async () => {
    const res = await send(server, 'PUT', '/api/users/1', server.admin.token, {
      what: 'user',
      which: ['perm'],
      current_password: ADMIN_PASSWORD,
      data: { id: 1, perm: { ...server.admin.user.perm, admin: false } },
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(
      '400 Bad Request (the last administrator cannot lose administrator rights)\n',
    );
    expect((await server.ctx.store.users.byId(1))!.perm.admin).toBe(true);
  });

  it('cannot be deleted, but can once another administrator exists', async () => {
    const del = () =>
      send(server, 'DELETE', '/api/users/1', server.admin.token, {
        current_password: ADMIN_PASSWORD,
      });
    expect((await del()).status).toBe(403);
    await server.createUser({ perm: { admin: true } });
    expect((await del()).status).toBe(200);
  });
});
