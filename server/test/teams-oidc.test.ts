import { afterEach, describe, expect, it } from 'vitest';
import { OIDC_CODE_FRAGMENT } from '@cabinet/protocol';
import { startOidcProvider, type TestOidcProvider } from '../testing/oidc-provider.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const running: { provider: TestOidcProvider; server: TestServer }[] = [];
afterEach(async () => {
  for (const { provider, server } of running.splice(0)) {
    await server.close();
    await provider.close();
  }
});

async function setUp() {
  const provider = await startOidcProvider();
  const server = await startTestServer({
    config: {
      oidcIssuer: provider.issuer,
      oidcClientId: provider.clientId,
      oidcClientSecret: provider.clientSecret,
      oidcScopes: 'openid profile email groups',
    },
  });
  provider.register(server.url);
  const setup = { provider, server };
  running.push(setup);
  return setup;
}

/** Signs in through the real provider and exchanges the code; returns Cabinet's token. */
async function signIn(setup: { provider: TestOidcProvider; server: TestServer }, login: string) {
  const callback = await setup.provider.signIn(`${setup.server.url}/api/oidc/login`, login);
  const answer = await fetch(callback, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location')!, 'http://x');
  const code = new URLSearchParams(location.hash.slice(1)).get(OIDC_CODE_FRAGMENT)!;
  const exchanged = await setup.server.fetch('/api/oidc/exchange', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  expect(exchanged.status).toBe(200);
}

describe('groups from single sign-on', () => {
  it("follow the provider's groups claim at each sign-in; local groups are left alone", async () => {
    const setup = await setUp();
    const { server } = setup;
    const local = await server.fetch('/api/groups', {
      method: 'POST',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Local', members: [] }),
    });
    expect(local.status).toBe(201);
    setup.provider.accounts.set('gil', { groups: ['design', 'staff', 'Local'] });
    await signIn(setup, 'gil');
    const gil = (await server.ctx.store.users.byUsername('gil'))!;
    const byName = async () =>
      new Map((await server.ctx.store.teams.groups()).map((group) => [group.name, group]));
    let groups = await byName();
    expect(groups.get('design')).toMatchObject({ source: 'oidc', members: [gil.id] });
    expect(groups.get('staff')).toMatchObject({ source: 'oidc', members: [gil.id] });
    // A local group of the same name is the administrators': not joined through the claim.
    expect(groups.get('Local')).toMatchObject({ source: 'local', members: [] });

    setup.provider.accounts.set('gil', { groups: ['staff'] });
    await signIn(setup, 'gil');
    groups = await byName();
    expect(groups.get('design')!.members).toEqual([]);
    expect(groups.get('staff')!.members).toEqual([gil.id]);
  });
});
