// Authentication: rate limits, the bot check, the proxy and noauth methods, signup.
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';
import { claimsOf, login, postFrom } from './helpers/auth.ts';

describe('login and signup rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { rateLimitMax: 3, rateLimitWindow: 600 } });
    await server.updateSettings({ signup: true });
  });
  afterAll(() => server.close());

  it('throttles a username per address: a guesser cannot lock its owner out from elsewhere', async () => {
    const { user, password } = await server.createUser();
    for (let i = 0; i < 3; i++) {
      const res = await postFrom(server, '127.0.0.2', '/api/login', {
        username: user.username,
        password: 'wrong-password-here',
      });
      expect(res.status).toBe(403);
    }
    const blocked = await postFrom(server, '127.0.0.2', '/api/login', {
      username: user.username,
      password,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toMatch(
      /^429 Too Many Requests \(too many attempts, try again in \d+ s\)/,
    );
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, from an address that has not failed, still logs in.
    const owner = await postFrom(server, '127.0.0.5', '/api/login', {
      username: user.username,
      password,
    });
    expect(owner.status).toBe(200);
  });

  it('throttles one address trying many usernames, and not other addresses', async () => {
    for (const name of ['a1', 'a2', 'a3']) {
      const res = await postFrom(server, '127.0.0.6', '/api/login', {
        username: name,
        password: 'whatever-whatever',
      });
      expect(res.status).toBe(403);
    }
    const body = { username: 'admin', password: ADMIN_PASSWORD };
    expect((await postFrom(server, '127.0.0.6', '/api/login', body)).status).toBe(429);
    expect((await postFrom(server, '127.0.0.7', '/api/login', body)).status).toBe(200);
  });

  it('successful logins do not use up the allowance', async () => {
    const body = { username: 'admin', password: ADMIN_PASSWORD };
    for (let i = 0; i < 5; i++) {
      expect((await postFrom(server, '127.0.0.8', '/api/login', body)).status).toBe(200);
    }
  });

  it('counts every signup attempt per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await postFrom(server, '127.0.0.9', '/api/signup', {
        username: `flood${i}`,
        password: 'a-long-enough-unusual-passphrase',
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('bot-check on login', () => {
  let server: TestServer;
  let verifier: Server;
  const calls: URLSearchParams[] = [];
  beforeAll(async () => {
    verifier = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        calls.push(form);
        if (req.url !== '/recaptcha/api/siteverify' || req.method !== 'POST') {
          res.writeHead(404).end();
        } else if (form.get('response') === 'verifier-down') {
          res.writeHead(503).end('{"success":true}');
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: form.get('response') === 'human' }));
        }
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
    const { port } = verifier.address() as { port: number };
    server = await startTestServer({
      config: {
        recaptchaHost: `http://127.0.0.1:${port}`,
        recaptchaKey: 'site-key',
        recaptchaSecret: 'site-secret',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => verifier.close(resolve));
  });

  const body = (recaptcha: string) => ({ username: 'admin', password: ADMIN_PASSWORD, recaptcha });

  it('refuses an empty response without calling the verifier', async () => {
    calls.length = 0;
    expect((await login(server, body(''))).status).toBe(403);
    expect(calls).toHaveLength(0);
  });

  it('sends secret and response to the verifier and accepts a success', async () => {
    calls.length = 0;
    expect((await login(server, body('human'))).status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.get('secret')).toBe('site-secret');
    expect(calls[0]!.get('response')).toBe('human');
  });

  it('refuses success:false and non-200 answers', async () => {
    expect((await login(server, body('robot'))).status).toBe(403);
    expect((await login(server, body('verifier-down'))).status).toBe(403);
  });

  it('still checks the password after a passed bot-check', async () => {
    const res = await login(server, { ...body('human'), password: 'wrong-wrong-wrong' });
    expect(res.status).toBe(403);
  });
});

describe('proxy and noauth methods', () => {
  let proxy: TestServer;
  let noauth: TestServer;
  beforeAll(async () => {
    proxy = await startTestServer({
      config: { authMethod: 'proxy', authHeader: 'X-Remote-User' },
    });
    noauth = await startTestServer({ config: { authMethod: 'noauth' } });
  });
  afterAll(async () => {
    await proxy.close();
    await noauth.close();
  });

  it('provisions an unknown proxy user once, locked and without admin or execute', async () => {
    await proxy.updateSettings({ createUserDir: true });
    const first = await login(proxy, '', { 'X-Remote-User': 'carol' });
    expect(first.status).toBe(200);
    const id = (claimsOf(await first.text()).user as { id: number }).id;
    const again = await login(proxy, '', { 'X-Remote-User': 'carol' });
    expect((claimsOf(await again.text()).user as { id: number }).id).toBe(id);
    const carol = (await proxy.ctx.store.users.byUsername('carol'))!;
    expect(carol).toMatchObject({ lockPassword: true, commands: [], scope: '/users/carol' });
    expect(carol.perm).toMatchObject({ admin: false, execute: false, create: true });
    expect(existsSync(path.join(proxy.root, 'users/carol'))).toBe(true);
  });

  it('signs in an existing user named by the header, ignoring any body', async () => {
    const res = await login(
      proxy,
      { username: 'someone', password: 'x' },
      { 'X-Remote-User': 'admin' },
    );
    expect((claimsOf(await res.text()).user as { id: number }).id).toBe(1);
  });

  it('answers 401 with the expected header name when the proxy sends none', async () => {
    const res = await login(proxy, '');
    expect(res.status).toBe(401);
    expect(await res.text()).toBe(
      '401 Unauthorized (the proxy did not send the X-Remote-User header)\n',
    );
  });

  it('noauth signs everyone in as user 1', async () => {
    const res = await noauth.fetch('/api/login', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(claimsOf(await res.text()).user).toMatchObject({ id: 1, username: 'admin' });
  });
});

describe('signup', () => {
  let server: TestServer;
  const signup = (body: unknown) =>
    server.fetch('/api/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers 405 while signup is disabled', async () => {
    await server.updateSettings({ signup: false });
    const res = await signup({ username: 'dave', password: 'a-long-enough-unusual-passphrase' });
    expect(res.status).toBe(405);
  });

  it.each([
    [
      'an empty username',
      { username: '', password: 'a-long-enough-unusual-passphrase' },
      'username and password are required',
    ],
    ['an empty password', { username: 'erin', password: '' }, 'username and password are required'],
    ['missing fields', {}, 'username and password must be strings'],
    ['malformed JSON', '{"username":', 'invalid JSON'],
    [
      'a short password',
      { username: 'erin', password: 'short' },
      'password is too short, minimum length is 12',
    ],
    ['a common password', { username: 'erin', password: 'password1234' }, 'password is too easy'],
  ])('refuses %s with a 400 that says why', async (_name, body, reason) => {
    await server.updateSettings({ signup: true });
    const res = await signup(body);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(`400 Bad Request (${reason})\n`);
  });

  it('creates a user with the defaults but never admin, execute or commands', async () => {
    const settings = await server.ctx.settings.get();
    await server.updateSettings({
      signup: true,
      defaults: {
        ...settings.defaults,
        locale: 'fr',
        commands: ['ls'],
        perm: { ...settings.defaults.perm, admin: true, execute: true },
      },
    });
    const res = await signup({ username: 'frank', password: 'a-long-enough-unusual-passphrase' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('200 OK\n');
    const frank = (await server.ctx.store.users.byUsername('frank'))!;
    expect(frank).toMatchObject({ locale: 'fr', commands: [], lockPassword: false });
    expect(frank.perm).toMatchObject({ admin: false, execute: false, download: true });
    const token = await login(server, {
      username: 'frank',
      password: 'a-long-enough-unusual-passphrase',
    });
    expect(token.status).toBe(200);
    await server.updateSettings({ defaults: settings.defaults });
  });

  it('answers 409 for a taken username', async () => {
    await server.updateSettings({ signup: true });
    const res = await signup({ username: 'admin', password: 'a-long-enough-unusual-passphrase' });
    expect(res.status).toBe(409);
  });

  it('gives each user a sanitised home and refuses a case-insensitive home collision', async () => {
    await server.updateSettings({ signup: true, createUserDir: true });
    const pw = 'a-long-enough-unusual-passphrase';
    expect((await signup({ username: 'Grace Hopper', password: pw })).status).toBe(200);
    const grace = (await server.ctx.store.users.byUsername('Grace Hopper'))!;
    expect(grace.scope).toBe('/users/Grace-Hopper');
    expect(existsSync(path.join(server.root, 'users/Grace-Hopper'))).toBe(true);
    expect((await signup({ username: 'grace-hopper', password: pw })).status).toBe(409);
    expect((await signup({ username: 'bob..smith!', password: pw })).status).toBe(200);
    expect((await server.ctx.store.users.byUsername('bob..smith!'))!.scope).toBe(
      '/users/bobsmith-',
    );
    expect((await signup({ username: '../../etc', password: pw })).status).toBe(400);
    expect((await signup({ username: '..', password: pw })).status).toBe(400);
  });
});
