import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, type Settings, type User } from '@cabinet/protocol';
import { ADMIN_PASSWORD, startTestServer, type TestServer } from '../testing/test-server.ts';

/**
 * Locale codes on the wire, sent as the filebrowser client sends them: a JSON string body with no
 * Content-Type of its own (a browser labels it text/plain), the token in X-Auth.
 */
function clientCall(server: TestServer, token: string, url: string, method: string, body: unknown) {
  return server.fetch(url, {
    method,
    headers: { 'X-Auth': token, 'content-type': 'text/plain;charset=UTF-8' },
    body: JSON.stringify(body),
  });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let counter = 0;
function createUser(locale: string) {
  return clientCall(server, server.admin.token, '/api/users', 'POST', {
    what: 'user',
    which: [],
    current_password: ADMIN_PASSWORD,
    data: {
      id: 0,
      username: `locale-${++counter}`,
      password: 'a-long-enough-unusual-passphrase',
      scope: '',
      locale,
    },
  });
}

async function createdLocale(res: Response): Promise<string> {
  expect(res.status).toBe(201);
  const id = Number(res.headers.get('location')?.split('/').pop());
  return (await server.ctx.store.users.byId(id))!.locale;
}

const REFERENCE_SPELLINGS: [string, string][] = [
  ['pt_BR', 'pt-br'],
  ['ptBR', 'pt-br'],
  ['zh-CN', 'zh-cn'],
  ['zhCN', 'zh-cn'],
  ['zhTW', 'zh-tw'],
  ['zh_TW', 'zh-tw'],
  ['zh-Hant-TW', 'zh-tw'],
  ['sv_SE', 'sv-se'],
  ['nl_BE', 'nl-be'],
  ['en_US', 'en'],
  ['en-GB', 'en'],
  ['de_DE', 'de'],
  ['PT', 'pt'],
];

const REFUSED = ['xx', 'klingon', 'en US', 'de-', '../en', 'e', 'tlh-Latn-XX-YY', 'nl_NL_x'];

describe('user locales', () => {
  it.each(LOCALES.map((code) => [code]))('creates a user in %s', async (code) => {
    expect(await createdLocale(await createUser(code))).toBe(code);
  });

  it('creates a user with an empty locale in the default language', async () => {
    expect(await createdLocale(await createUser(''))).toBe('en');
  });

  it.each(REFERENCE_SPELLINGS)('stores the reference spelling %s as %s', async (raw, code) => {
    expect(await createdLocale(await createUser(raw))).toBe(code);
  });

  it.each(REFUSED.map((raw) => [raw]))('refuses to create a user in %j', async (raw) => {
    const res = await createUser(raw);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/not a known locale/);
  });

  it('lets a user switch their own language, mapping reference spellings', async () => {
    const me = await server.createUser();
    const change = (locale: string) =>
      clientCall(server, me.token, `/api/users/${me.user.id}`, 'PUT', {
        what: 'user',
        which: ['locale'],
        data: { id: me.user.id, locale },
      });
    expect((await change('zh_TW')).status).toBe(200);
    expect((await server.ctx.store.users.byId(me.user.id))?.locale).toBe('zh-tw');
    expect((await change('')).status).toBe(200);
    expect((await server.ctx.store.users.byId(me.user.id))?.locale).toBe('');
    const refused = await change('french');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/locale "french" is not a known locale/);
    expect((await server.ctx.store.users.byId(me.user.id))?.locale).toBe('');
  });

  it('reads an account stored with a reference spelling under Cabinet code', async () => {
    const legacy = await server.createUser({ locale: 'ptBR' });
    expect(legacy.user.locale).toBe('pt-br');
    const res = await server.fetch(`/api/users/${legacy.user.id}`, { token: legacy.token });
    expect(((await res.json()) as User).locale).toBe('pt-br');
    const old = await server.createUser({ locale: 'zhCN' });
    const token = await server.fetch('/api/renew', { method: 'POST', token: old.token });
    const claims = JSON.parse(
      Buffer.from((await token.text()).split('.')[1]!, 'base64url').toString(),
    ) as { user: { locale: string } };
    expect(claims.user.locale).toBe('zh-cn');
  });
});

describe('default locale of new users', () => {
  const read = async () =>
    (await (await server.fetch('/api/settings', { token: server.admin.token })).json()) as Settings;
  const save = (settings: Settings) =>
    clientCall(server, server.admin.token, '/api/settings', 'PUT', settings);

  it('accepts a code, maps a reference spelling and refuses an unknown one', async () => {
    const settings = await read();
    expect(
      (await save({ ...settings, defaults: { ...settings.defaults, locale: 'ru' } })).status,
    ).toBe(200);
    expect((await read()).defaults.locale).toBe('ru');
    expect(
      (await save({ ...settings, defaults: { ...settings.defaults, locale: 'sv_SE' } })).status,
    ).toBe(200);
    expect((await read()).defaults.locale).toBe('sv-se');
    const refused = await save({
      ...settings,
      defaults: { ...settings.defaults, locale: 'xx_YY' },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/defaults\.locale "xx_YY" is not a known locale/);
    expect((await read()).defaults.locale).toBe('sv-se');
    await save(settings);
  });
});
