import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_KEYS, type Settings } from '@cabinet/protocol';
import { compileRule } from '../src/fs/rules.ts';
import { validateRules } from '../src/services/rules-validation.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

describe('settings API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const read = async () =>
    (await (await server.fetch('/api/settings', { token: server.admin.token })).json()) as Settings;
  const put = (body: unknown, token = server.admin.token) =>
    server.fetch('/api/settings', {
      method: 'PUT',
      token,
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('shows the first-start defaults to admins', async () => {
    const settings = await read();
    expect(settings).toMatchObject({
      signup: false,
      hideLoginButton: true,
      createUserDir: false,
      minimumPasswordLength: 12,
      userHomeBasePath: '/users',
      authMethod: 'json',
      rules: [],
      shell: [],
      tus: { chunkSize: 10485760, retryCount: 5 },
    });
    expect(Object.keys(settings.commands).sort()).toEqual([...HOOK_KEYS].sort());
    expect(settings.defaults).toMatchObject({ scope: '.', locale: 'en', viewMode: 'mosaic' });
  });

  it('is for admins only', async () => {
    const { token } = await server.createUser();
    expect((await server.fetch('/api/settings', { token })).status).toBe(403);
    expect((await put(await read(), token)).status).toBe(403);
    expect((await server.fetch('/api/settings')).status).toBe(401);
  });

  it('replaces the whole object, ignoring authMethod and keeping all hook keys', async () => {
    const settings = await read();
    const res = await put({
      ...settings,
      signup: true,
      authMethod: 'noauth',
      shell: ['/bin/sh', '', '-c'],
      commands: { after_upload: ['echo done', ''] },
      branding: { ...settings.branding, name: 'Archive', theme: 'dark' },
      rules: [
        { regex: true, allow: false, path: '', regexp: { raw: '(?i)\\.secret$' } },
        { regex: false, allow: false, path: '/private' },
      ],
      minimumPasswordLength: 0,
      userHomeBasePath: 'homes/',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('200 OK\n');
    const after = await read();
    expect(after).toMatchObject({
      signup: true,
      authMethod: 'json',
      shell: ['/bin/sh', '-c'],
      branding: { name: 'Archive', theme: 'dark' },
      minimumPasswordLength: 12,
      userHomeBasePath: '/homes',
    });
    expect(after.commands.after_upload).toEqual(['echo done']);
    expect(Object.keys(after.commands).sort()).toEqual([...HOOK_KEYS].sort());
    expect(after.rules).toHaveLength(2);
  });

  it.each([
    [
      'an invalid rule regex',
      (s: Settings) => ({
        ...s,
        rules: [{ regex: true, allow: false, path: '', regexp: { raw: '[a-' } }],
      }),
      /^400 Bad Request \(invalid rule regex: \[a-: /,
    ],
    [
      'an RE2 flag JavaScript lacks',
      (s: Settings) => ({
        ...s,
        rules: [{ regex: true, allow: true, path: '', regexp: { raw: '(?U)a+' } }],
      }),
      /invalid rule regex: \(\?U\)a\+: unsupported inline flag "U"/,
    ],
    ['a missing field', (s: Settings) => ({ ...s, tus: undefined }), /^400 Bad Request \(tus: /],
    [
      'a wrong type',
      (s: Settings) => ({ ...s, signup: 'yes' }),
      /^400 Bad Request \(signup: Invalid input: expected boolean, received string\)/,
    ],
    [
      'an unknown theme',
      (s: Settings) => ({ ...s, branding: { ...s.branding, theme: 'neon' } }),
      /branding.theme must be/,
    ],
    [
      'an unknown hook',
      (s: Settings) => ({ ...s, commands: { before_launch: ['x'] } }),
      /unknown hook event: before_launch/,
    ],
    [
      'shell as a string',
      (s: Settings) => ({ ...s, shell: '/bin/sh -c' }),
      /^400 Bad Request \(shell: /,
    ],
  ])('refuses %s with a 400 that says why', async (_name, change, message) => {
    const before = await read();
    const res = await put(change(before));
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(message);
    expect(await read()).toEqual(before);
  });

  it('refuses malformed JSON and an empty body', async () => {
    expect((await put('{"signup":')).status).toBe(400);
    expect((await put('')).status).toBe(400);
  });
});

describe('rule compilation for the files service', () => {
  it('uses JavaScript RegExp semantics, unanchored, with RE2 leading flags', () => {
    const rule = { regex: true, allow: false, path: '', regexp: { raw: '(?i)\\.SECRET$' } };
    expect(compileRule(rule)!.test('/a/b.secret')).toBe(true);
    expect(compileRule({ ...rule, regexp: { raw: 'priv' } })!.test('/x/private/y')).toBe(true);
    expect(compileRule({ regex: false, allow: true, path: '/x' })).toBeUndefined();
    expect(() => validateRules([{ ...rule, regexp: { raw: '(' } }])).toThrow(/invalid rule regex/);
  });
});
