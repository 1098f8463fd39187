// The users API: updating and deleting users, and the last administrator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@cabinet/protocol';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { STRONG, send } from './helpers/users.ts';

describe('users API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

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
      // Issued-at claims have whole seconds: a token from an earlier second predates the change.
      const token = await server.tokenFor(me.user, Date.now() - 1000);
      const res = await put(token, me.user.id, ['locale', 'hideDotfiles', 'singleClick'], {
        locale: 'de',
        hideDotfiles: true,
        singleClick: true,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('200 OK\n');
      const after = (await server.ctx.store.users.byId(me.user.id))!;
      expect(after).toMatchObject({ locale: 'de', hideDotfiles: true, singleClick: true });
      const next = await server.fetch(`/api/users/${me.user.id}`, { token });
      expect(next.headers.get('x-renew-token')).toBe('true');
      // The renewed token carries the change, so it is not asked to renew again.
      const renewed = await (await server.fetch('/api/renew', { method: 'POST', token })).text();
      const again = await server.fetch(`/api/users/${me.user.id}`, { token: renewed });
      expect(again.headers.get('x-renew-token')).toBeNull();
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
      expect(await res.text()).toBe('400 Bad Request (the current password is incorrect)\n');
      // An empty or missing password is "required", never "incorrect".
      for (const body of [{ current_password: '' }, {}]) {
        const missing = await del(server.admin.token, target.user.id, body);
        expect(await missing.text()).toBe('400 Bad Request (the current password is required)\n');
      }
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
