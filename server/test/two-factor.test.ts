import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { TwoFactorRecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '@cabinet/protocol';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

/**
 * A code of the time step `steps` after now. Enrolment uses the current step; each later check
 * needs a later step (a step is accepted once), and the server accepts one step ahead.
 */
const codeAt = (secret: string, steps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** A six-digit code that is none of the codes the server would accept now. */
async function wrongCode(secret: string): Promise<string> {
  const valid = new Set(await Promise.all([-1, 0, 1].map((s) => codeAt(secret, s))));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

function login(server: TestServer, user: TestUser, otp?: string) {
  return server.fetch('/api/login', {
    method: 'POST',
    body: JSON.stringify({
      username: user.user.username,
      password: user.password,
      ...(otp === undefined ? {} : { otp }),
    }),
  });
}

const post = (server: TestServer, path: string, token: string, body?: unknown) =>
  server.fetch(path, {
    method: 'POST',
    token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });

async function status(server: TestServer, token: string) {
  const res = await server.fetch('/api/two-factor', { token });
  expect(res.status).toBe(200);
  return TwoFactorStatus.parse(await res.json());
}

/** Enrols the user through the API; returns the secret and the recovery codes. */
async function enrol(server: TestServer, user: TestUser, token = user.token) {
  const setup = await post(server, '/api/two-factor/setup', token);
  expect(setup.status).toBe(200);
  const { secret, uri } = TwoFactorSetup.parse(await setup.json());
  expect(uri).toMatch(/^otpauth:\/\/totp\//);
  expect(uri).toContain(encodeURIComponent(user.user.username));
  const enable = await post(server, '/api/two-factor/enable', token, {
    code: await codeAt(secret, 0),
  });
  expect(enable.status).toBe(200);
  const { recoveryCodes } = TwoFactorRecoveryCodes.parse(await enable.json());
  return { secret, recoveryCodes };
}

describe('two-factor sign-in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('enrols with a first code, shows ten recovery codes once and never the secret again', async () => {
    const user = await server.createUser();
    expect(await status(server, user.token)).toEqual({
      enabled: false,
      required: false,
      enrolOnly: false,
      recoveryCodesLeft: 0,
    });
    const setup = await post(server, '/api/two-factor/setup', user.token);
    const { secret } = TwoFactorSetup.parse(await setup.json());
    const wrong = await post(server, '/api/two-factor/enable', user.token, {
      code: await wrongCode(secret),
    });
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get('x-cabinet-two-factor')).toBe('invalid');
    expect((await status(server, user.token)).enabled).toBe(false);

    const enable = await post(server, '/api/two-factor/enable', user.token, {
      code: await codeAt(secret, 0),
    });
    expect(enable.status).toBe(200);
    const { recoveryCodes } = TwoFactorRecoveryCodes.parse(await enable.json());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await status(server, user.token)).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    // A second set-up would show a new secret: refused while two-factor sign-in is on.
    expect((await post(server, '/api/two-factor/setup', user.token)).status).toBe(409);
    // The stored secret is encrypted, and no recovery code is stored as typed.
    const row = await server.ctx.store.twoFactor.get(user.user.id);
    expect(row?.secret).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(recoveryCodes[0]!.replace('-', ''));
    expect(await server.runtime.services.twoFactor.hasTwoFactor(user.user.id)).toBe(true);
  });

  it('refuses enabling without a set-up, and a body without a code', async () => {
    const user = await server.createUser();
    const res = await post(server, '/api/two-factor/enable', user.token, { code: '123456' });
    expect(res.status).toBe(409);
    expect((await post(server, '/api/two-factor/enable', user.token, {})).status).toBe(400);
    expect((await server.fetch('/api/two-factor')).status).toBe(401);
  });

  it('answers the filebrowser-style login without a code with a 401 that names the missing code', async () => {
    const user = await server.createUser();
    await enrol(server, user);
    const res = await login(server, user);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-cabinet-two-factor')).toBe('required');
    expect(await res.text()).toBe('401 Unauthorized (two-factor code required)\n');
    // A wrong password still gets the plain 403, whatever the code.
    const wrongPassword = await server.fetch('/api/login', {
      method: 'POST',
      body: JSON.stringify({ username: user.user.username, password: 'nope', otp: '123456' }),
    });
    expect(wrongPassword.status).toBe(403);
    expect(wrongPassword.headers.get('x-cabinet-two-factor')).toBeNull();
  });

  it('signs in with a code, refuses a wrong code and the same code a second time', async () => {
    const user = await server.createUser();
    const { secret } = await enrol(server, user);
    const wrong = await login(server, user, await wrongCode(secret));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('x-cabinet-two-factor')).toBe('invalid');

    const code = await codeAt(secret, 1);
    const ok = await login(server, user, code);
    expect(ok.status).toBe(200);
    const token = (await ok.text()).trim();
    expect((await server.fetch('/api/resources/', { token })).status).toBe(200);

    const replay = await login(server, user, code);
    expect(replay.status).toBe(401);
    expect(replay.headers.get('x-cabinet-two-factor')).toBe('invalid');
  });

  it('the enrolment code cannot be replayed to sign in', async () => {
    const user = await server.createUser();
    const setup = await post(server, '/api/two-factor/setup', user.token);
    const { secret } = TwoFactorSetup.parse(await setup.json());
    const code = await codeAt(secret, 0);
    expect((await post(server, '/api/two-factor/enable', user.token, { code })).status).toBe(200);
    expect((await login(server, user, code)).status).toBe(401);
  });

  it('accepts each recovery code once, typed in any case and without its dash', async () => {
    const user = await server.createUser();
    const { recoveryCodes } = await enrol(server, user);
    const typed = recoveryCodes[3]!.toUpperCase().replace('-', ' ');
    expect((await login(server, user, typed)).status).toBe(200);
    const again = await login(server, user, recoveryCodes[3]!);
    expect(again.status).toBe(401);
    expect(again.headers.get('x-cabinet-two-factor')).toBe('invalid');
    expect((await status(server, user.token)).recoveryCodesLeft).toBe(9);
    expect((await login(server, user, recoveryCodes[4]!)).status).toBe(200);
  });

  it('turns off with the password and a code, not with a wrong password', async () => {
    const user = await server.createUser();
    const { secret, recoveryCodes } = await enrol(server, user);
    const wrong = await post(server, '/api/two-factor/disable', user.token, {
      password: 'not-the-password',
      code: await codeAt(secret, 1),
    });
    expect(wrong.status).toBe(403);
    expect((await status(server, user.token)).enabled).toBe(true);
    const noCode = await post(server, '/api/two-factor/disable', user.token, {
      password: user.password,
      code: '',
    });
    expect(noCode.status).toBe(403);
    const ok = await post(server, '/api/two-factor/disable', user.token, {
      password: user.password,
      code: recoveryCodes[0],
    });
    expect(ok.status).toBe(200);
    expect((await status(server, user.token)).enabled).toBe(false);
    expect((await login(server, user)).status).toBe(200);
  });

  it('lets an administrator see and reset a user’s enrolment; others may not', async () => {
    const user = await server.createUser();
    const other = await server.createUser();
    await enrol(server, user);
    const path = `/api/users/${user.user.id}/two-factor`;
    const seen = await server.fetch(path, { token: server.admin.token });
    expect(await seen.json()).toEqual({ enabled: true });
    expect((await server.fetch(path, { method: 'DELETE', token: other.token })).status).toBe(403);
    expect((await server.fetch(path, { method: 'DELETE', token: user.token })).status).toBe(403);
    expect((await login(server, user)).status).toBe(401);
    expect((await server.fetch(path, { method: 'DELETE', token: server.admin.token })).status).toBe(
      200,
    );
    expect((await login(server, user)).status).toBe(200);
    expect(await server.runtime.services.twoFactor.hasTwoFactor(user.user.id)).toBe(false);
    const missing = await server.fetch('/api/users/999999/two-factor', {
      method: 'DELETE',
      token: server.admin.token,
    });
    expect(missing.status).toBe(404);
  });
});

describe('two-factor policy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const setPolicy = (token: string, body: unknown) =>
    server.fetch('/api/two-factor/policy', {
      method: 'PUT',
      token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('is the administrator’s to set, with one of the known values', async () => {
    const user = await server.createUser();
    expect((await setPolicy(user.token, { require: 'everyone' })).status).toBe(403);
    expect((await setPolicy(server.admin.token, { require: 'sometimes' })).status).toBe(400);
    const read = await server.fetch('/api/two-factor/policy', { token: server.admin.token });
    expect(await read.json()).toEqual({ require: 'off' });
  });

  it('when required, a user without it may only enrol until done, then everything works', async () => {
    expect((await setPolicy(server.admin.token, { require: 'everyone' })).status).toBe(200);
    try {
      const user = await server.createUser();
      const res = await login(server, user);
      expect(res.status).toBe(200);
      const token = (await res.text()).trim();
      expect(await status(server, token)).toMatchObject({ required: true, enrolOnly: true });
      const blocked = await server.fetch('/api/resources/', { token });
      expect(blocked.status).toBe(403);
      expect((await server.fetch('/api/users', { token })).status).toBe(403);
      const { secret } = await enrol(server, user, token);
      expect((await server.fetch('/api/resources/', { token })).status).toBe(200);
      expect((await status(server, token)).enrolOnly).toBe(false);
      // Once required, it cannot be turned off by the user.
      const off = await post(server, '/api/two-factor/disable', token, {
        password: user.password,
        code: await codeAt(secret, 1),
      });
      expect(off.status).toBe(403);
    } finally {
      await setPolicy(server.admin.token, { require: 'off' });
    }
  });

  it('"admins" asks administrators only', async () => {
    expect((await setPolicy(server.admin.token, { require: 'admins' })).status).toBe(200);
    try {
      const user = await server.createUser();
      const res = await login(server, user);
      const token = (await res.text()).trim();
      expect((await server.fetch('/api/resources/', { token })).status).toBe(200);
      const admin = await server.createUser({ perm: { admin: true } });
      const adminLogin = await login(server, admin);
      const adminToken = (await adminLogin.text()).trim();
      expect((await status(server, adminToken)).enrolOnly).toBe(true);
      expect((await server.fetch('/api/users', { token: adminToken })).status).toBe(403);
    } finally {
      await setPolicy(server.admin.token, { require: 'off' });
    }
  });
});

describe('two-factor throttling', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { rateLimitMax: 3 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses even a right code with 429 once the wrong ones used up the attempts', async () => {
    const user = await server.createUser();
    const { secret } = await enrol(server, user);
    const wrong = await wrongCode(secret);
    for (let i = 0; i < 3; i++) expect((await login(server, user, wrong)).status).toBe(401);
    const res = await login(server, user, await codeAt(secret, 1));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
