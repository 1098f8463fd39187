import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditPage, TrashItem } from '@cabinet/protocol';
import {
  ADMIN_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/test-server.ts';
import { commandUrl, runCommand } from '../testing/command-socket.ts';
import { login } from './helpers/auth.ts';
import { basic, createAppPassword, dav } from './helpers/dav.ts';
import { newUser, createAsAdmin, send, STRONG } from './helpers/users.ts';
import { runJobNow } from './helpers/run-job-now.ts';

const DAY = 24 * 60 * 60 * 1000;

let server: TestServer;
let alice: TestUser;
/** The clock of the audit entries and of the retention cut-off. */
let clock = Date.now();

/** Requests arrive through a trusted proxy (loopback) that names the client in X-Forwarded-For. */
const from = (address: string) => ({ 'x-forwarded-for': address });

async function auditPage(query = '', token = server.admin.token): Promise<AuditPage> {
  const response = await server.fetch(`/api/audit${query}`, { token });
  expect(response.status).toBe(200);
  return (await response.json()) as AuditPage;
}

/** The newest entry of an action (after a filter), or undefined. */
async function newest(action: string, query = ''): Promise<AuditEntry | undefined> {
  return (await auditPage(`?action=${action}${query}`)).entries[0];
}

/**
 * Waits until the newest entry of an action is the one expected. An entry is recorded once its
 * reply has been sent (http/audit.ts), so a client can read the log before the entry of the
 * request it just made is there; and an older entry of the same action may be the newest until it
 * is.
 */
async function expectLatest(
  action: string,
  expected: Record<string, unknown>,
  query = '',
): Promise<AuditEntry> {
  await expect
    .poll(() => newest(action, query), { message: `newest ${action}` })
    .toMatchObject(expected);
  return (await newest(action, query))!;
}

beforeAll(async () => {
  server = await startTestServer({
    config: { trustedProxies: ['127.0.0.1'], rateLimitMax: 3, enableExec: true },
    now: () => clock,
  });
  alice = await server.createUser({
    username: 'alice',
    password: STRONG,
    scope: '/users/alice',
    commands: ['echo'],
    perm: { execute: true, share: true, download: true, delete: true, create: true },
  });
  await mkdir(path.join(server.root, 'users/alice'), { recursive: true });
});
afterAll(() => server.close());

describe('the audit log records', () => {
  it('a login that succeeds, with the user and the client address', async () => {
    const ok = await login(server, { username: 'alice', password: STRONG }, from('198.51.100.1'));
    expect(ok.status).toBe(200);
    await expectLatest(
      'login',
      {
        userID: alice.user.id,
        username: 'alice',
        address: '198.51.100.1',
        outcome: 'ok',
      },
      '&outcome=ok',
    );
  });

  it('failed logins with their reason, and a throttled one', async () => {
    const address = '198.51.100.2';
    expect(
      (await login(server, { username: 'alice', password: 'wrong' }, from(address))).status,
    ).toBe(403);
    expect((await login(server, { username: 'nobody', password: 'x' }, from(address))).status).toBe(
      403,
    );
    expect(
      (await login(server, { username: 'alice', password: 'wrong' }, from(address))).status,
    ).toBe(403);
    // The address has used its three attempts.
    expect(
      (await login(server, { username: 'alice', password: STRONG }, from(address))).status,
    ).toBe(429);
    const page = await auditPage('?action=login&outcome=refused');
    const mine = page.entries.filter((e) => e.address === address);
    expect(mine.map((e) => [e.username, e.details.reason])).toEqual([
      ['alice', 'throttled'],
      ['alice', 'wrong password'],
      ['nobody', 'unknown user'],
      ['alice', 'wrong password'],
    ]);
    expect(mine.every((e) => e.userID === 0 && e.outcome === 'refused')).toBe(true);
  });

  it('a user update with the changed fields and never the password', async () => {
    const created = await createAsAdmin(server, newUser({ username: 'bob' }));
    expect(created.status).toBe(201);
    const id = Number(created.headers.get('location')!.split('/').pop());
    await expectLatest('user.create', { target: `user:${id}` });
    const secret = 'a-brand-new-secret-passphrase';
    const updated = await send(server, 'PUT', `/api/users/${id}`, server.admin.token, {
      what: 'user',
      which: ['password', 'locale'],
      current_password: ADMIN_PASSWORD,
      data: { id, password: secret, locale: 'de' },
    });
    expect(updated.status).toBe(200);
    await expectLatest('user.update', {
      target: `user:${id}`,
      username: server.admin.user.username,
      outcome: 'ok',
      details: { fields: ['locale', 'password'] },
    });
    const csv = await (await server.fetch('/api/audit.csv', { token: server.admin.token })).text();
    expect(csv).not.toContain(secret);
    expect(JSON.stringify(await auditPage('?limit=500'))).not.toContain(secret);

    const deleted = await send(server, 'DELETE', `/api/users/${id}`, server.admin.token, {
      current_password: ADMIN_PASSWORD,
    });
    expect(deleted.status).toBe(200);
    await expectLatest('user.delete', { details: { username: 'bob' } });
  });

  it('the names of its targets as they were, kept after the target is gone', async () => {
    const created = await createAsAdmin(server, newUser({ username: 'carol' }));
    const id = Number(created.headers.get('location')!.split('/').pop());
    await expectLatest('user.create', {
      target: `user:${id}`,
      targetName: 'carol',
    });
    const deleted = await send(server, 'DELETE', `/api/users/${id}`, server.admin.token, {
      current_password: ADMIN_PASSWORD,
    });
    expect(deleted.status).toBe(200);
    await expectLatest('user.delete', {
      target: `user:${id}`,
      targetName: 'carol',
    });
    // The create entry still says whom it created.
    await expectLatest('user.create', { targetName: 'carol' });

    const password = await createAppPassword(server, alice.token, { name: 'Phone backup' });
    const revoked = await server.fetch(`/api/app-passwords/${password.id}`, {
      method: 'DELETE',
      token: alice.token,
    });
    expect(revoked.status).toBe(200);
    await expectLatest('app-password.revoke', { targetName: 'Phone backup' });
    await expectLatest('app-password.create', { targetName: 'Phone backup' });

    const csv = await (
      await server.fetch('/api/audit.csv?action=app-password.revoke', { token: server.admin.token })
    ).text();
    expect(csv.split('\r\n')[1]).toMatch(/,Phone backup$/);
  });

  it('a restore that asked about a clash only once it is answered, never as failed', async () => {
    const folder = path.join(server.root, 'users/alice');
    await writeFile(path.join(folder, 'clash.txt'), 'first');
    const gone = await server.fetch('/api/resources/clash.txt', {
      method: 'DELETE',
      token: alice.token,
    });
    expect(gone.status).toBe(204);
    await writeFile(path.join(folder, 'clash.txt'), 'second');
    const items = (await (
      await server.fetch('/api/trash', { token: alice.token })
    ).json()) as TrashItem[];
    const item = items.find((i) => i.path === '/clash.txt')!;
    const restore = (body?: unknown) =>
      server.fetch(`/api/trash/${item.id}/restore`, {
        method: 'POST',
        token: alice.token,
        ...(body
          ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
          : {}),
      });
    expect((await restore()).status).toBe(409);
    expect((await restore({ onConflict: 'keep-both' })).status).toBe(200);
    const entries = (await auditPage('?action=trash.restore&limit=500')).entries.filter(
      (entry) => entry.target === `trash:${item.id}`,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ outcome: 'ok', targetName: '/clash.txt' });
  });

  it('a refused user update (not an administrator) as refused', async () => {
    const response = await send(server, 'PUT', `/api/users/1`, alice.token, {
      what: 'user',
      which: ['locale'],
      data: { id: 1, locale: 'de' },
    });
    expect(response.status).toBe(403);
    await expectLatest('user.update', { username: 'alice', target: 'user:1' }, '&outcome=refused');
  });

  it('settings changes with the keys that changed', async () => {
    const settings = (await (
      await server.fetch('/api/settings', { token: server.admin.token })
    ).json()) as Record<string, unknown> & { branding: Record<string, unknown> };
    const saved = await server.fetch('/api/settings', {
      method: 'PUT',
      token: server.admin.token,
      headers: { 'content-type': 'application/json', ...from('198.51.100.9') },
      body: JSON.stringify({ ...settings, branding: { ...settings.branding, name: 'Audited' } }),
    });
    expect(saved.status).toBe(200);
    await expectLatest('settings.update', {
      address: '198.51.100.9',
      details: { keys: ['branding.name'] },
    });
  });

  it('a share created, downloaded by its public link, and deleted', async () => {
    await writeFile(path.join(server.root, 'users/alice/report.txt'), 'figures');
    const shared = await server.fetch('/api/share/report.txt', {
      method: 'POST',
      token: alice.token,
      headers: from('198.51.100.3'),
      body: '{}',
    });
    expect(shared.status).toBe(200);
    const { hash } = (await shared.json()) as { hash: string };
    await expectLatest('share.create', {
      username: 'alice',
      target: '/report.txt',
      address: '198.51.100.3',
      details: { hash },
    });

    const downloaded = await server.fetch(`/api/public/dl/${hash}`, {
      headers: from('203.0.113.5'),
    });
    expect(await downloaded.text()).toBe('figures');
    await expectLatest('share.download', {
      userID: 0,
      target: `share:${hash}`,
      address: '203.0.113.5',
      outcome: 'ok',
    });

    const removed = await server.fetch(`/api/share/${hash}`, {
      method: 'DELETE',
      token: alice.token,
    });
    expect(removed.status).toBe(200);
    await expectLatest('share.delete', { target: `share:${hash}`, outcome: 'ok' });
    // The link is gone: a use of it is recorded as failed.
    expect((await server.fetch(`/api/public/dl/${hash}`)).status).toBe(404);
    await expectLatest('share.download', { outcome: 'failed' });
  });

  it('a WebDAV delete, with the user, the client address and the outcome', async () => {
    await writeFile(path.join(server.root, 'users/alice/dav-old.txt'), 'old');
    const full = await createAppPassword(server, alice.token, { name: 'audit dav' });
    const auth = basic('alice', full.password);
    const headers = from('198.51.100.9');
    expect((await dav(server, 'DELETE', '/dav-old.txt', auth, { headers })).status).toBe(204);
    await expectLatest('file.delete', {
      userID: alice.user.id,
      username: 'alice',
      target: '/dav-old.txt',
      address: '198.51.100.9',
      outcome: 'ok',
      details: { via: 'webdav' },
    });
    expect((await dav(server, 'DELETE', '/missing.txt', auth, { headers })).status).toBe(404);
    await expectLatest('file.delete', {
      username: 'alice',
      target: '/missing.txt',
      outcome: 'failed',
    });
    // A read-only app password may not delete: recorded as refused, and the file stays.
    await writeFile(path.join(server.root, 'users/alice/kept.txt'), 'kept');
    const readOnly = await createAppPassword(server, alice.token, {
      name: 'audit dav read-only',
      readOnly: true,
    });
    const refused = await dav(server, 'DELETE', '/kept.txt', basic('alice', readOnly.password), {
      headers,
    });
    expect(refused.status).toBe(403);
    await expectLatest('file.delete', {
      username: 'alice',
      target: '/kept.txt',
      outcome: 'refused',
    });
    // Reads over WebDAV are not audited.
    const before = (await auditPage('?limit=500')).entries.length;
    expect((await dav(server, 'GET', '/kept.txt', auth, { headers })).status).toBe(200);
    expect((await auditPage('?limit=500')).entries.length).toBe(before);
  });

  it('a delete into the trash and its restore', async () => {
    await writeFile(path.join(server.root, 'users/alice/old.txt'), 'old');
    const deleted = await server.fetch('/api/resources/old.txt', {
      method: 'DELETE',
      token: alice.token,
    });
    expect(deleted.status).toBe(204);
    await expectLatest('file.delete', {
      username: 'alice',
      target: '/old.txt',
      details: { trash: true },
    });
    const items = (await (
      await server.fetch('/api/trash', { token: alice.token })
    ).json()) as TrashItem[];
    const item = items.find((i) => i.path === '/old.txt')!;
    const restored = await server.fetch(`/api/trash/${item.id}/restore`, {
      method: 'POST',
      token: alice.token,
    });
    expect(restored.status).toBe(200);
    await expectLatest('trash.restore', {
      target: `trash:${item.id}`,
      details: { path: '/old.txt' },
      outcome: 'ok',
    });
  });

  it('a shell command run', async () => {
    const ran = await runCommand(commandUrl(server.url, ''), 'echo audited', {
      'X-Auth': alice.token,
      ...from('198.51.100.4'),
    });
    expect(ran.messages).toEqual(['audited']);
    await expectLatest('command.run', {
      username: 'alice',
      address: '198.51.100.4',
      outcome: 'ok',
      details: { line: 'echo audited', exitCode: 0 },
    });
  });

  it('a logout', async () => {
    const token = await server.tokenFor(alice.user);
    const out = await server.fetch('/api/logout', { method: 'POST', token });
    expect(out.status).toBe(200);
    await expectLatest('logout', { username: 'alice', outcome: 'ok' });
  });
});

describe('GET /api/audit', () => {
  it('filters by user, action, outcome and time, and pages newest first', async () => {
    const page = await auditPage('?user=ALICE&action=login');
    expect(page.entries.length).toBeGreaterThan(0);
    expect(page.entries.every((e) => e.username === 'alice' && e.action === 'login')).toBe(true);

    const all = await auditPage('?limit=500');
    const ids = all.entries.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = await auditPage('?limit=2');
    expect(first.entries.map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.next).toBe(ids[1]);
    const second = await auditPage(`?limit=2&before=${first.next}`);
    expect(second.entries.map((e) => e.id)).toEqual(ids.slice(2, 4));

    const future = new Date(clock + DAY).toISOString();
    expect((await auditPage(`?from=${encodeURIComponent(future)}`)).entries).toEqual([]);
    expect((await auditPage(`?to=${encodeURIComponent(future)}`)).entries.length).toBe(
      Math.min(ids.length, 50),
    );
    const refused = await auditPage('?outcome=refused&limit=500');
    expect(refused.entries.every((e) => e.outcome === 'refused')).toBe(true);
  });

  it('answers 400 for a bad filter', async () => {
    for (const query of ['?action=nope', '?outcome=maybe', '?from=yesterday', '?limit=0']) {
      const response = await server.fetch(`/api/audit${query}`, { token: server.admin.token });
      expect(response.status, query).toBe(400);
    }
  });

  it('answers 403 to a non-administrator and 401 without a session', async () => {
    for (const url of ['/api/audit', '/api/audit.csv', '/api/audit/settings']) {
      expect((await server.fetch(url, { token: alice.token })).status).toBe(403);
      expect((await server.fetch(url)).status).toBe(401);
    }
  });
});

describe('GET /api/audit.csv', () => {
  it('streams the filtered entries with RFC 4180 quoting and a formula guard', async () => {
    // A user named like a formula, with a comma and a quote: the export must not run or split it.
    const name = '=HYPERLINK("x",1),y';
    const response = await login(server, { username: name, password: 'nope' }, from('192.0.2.7'));
    expect(response.status).toBe(403);
    const csv = await server.fetch(`/api/audit.csv?action=login&user=${encodeURIComponent(name)}`, {
      token: server.admin.token,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="audit.csv"');
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe(
      'time,user_id,username,action,target,address,outcome,details,target_name',
    );
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    const cells = lines[1]!.split(',');
    expect(cells[1]).toBe('0');
    expect(lines[1]).toContain(`,"'=HYPERLINK(""x"",1),y",login,,192.0.2.7,refused,`);
    expect(lines[1]!.endsWith('"{""reason"":""unknown user""}",')).toBe(true);
  });

  it('guards cells starting with + - @ too', async () => {
    for (const name of ['+1', '-2', '@SUM(A1)']) {
      await login(server, { username: name, password: 'x' }, from('192.0.2.8'));
      const csv = await (
        await server.fetch(`/api/audit.csv?user=${encodeURIComponent(name)}`, {
          token: server.admin.token,
        })
      ).text();
      expect(csv.split('\r\n')[1]).toContain(`,'${name},login,`);
    }
  });
});

describe('retention', () => {
  const setRetention = (days: unknown) =>
    server.fetch('/api/audit/settings', {
      method: 'PUT',
      token: server.admin.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ retentionDays: days }),
    });
  const purge = () => runJobNow(server.runtime.coordination.scheduler, 'audit.purge');

  it('keeps 90 days by default and refuses a bad setting', async () => {
    expect(
      await (await server.fetch('/api/audit/settings', { token: server.admin.token })).json(),
    ).toEqual({ retentionDays: 90 });
    expect((await setRetention(-1)).status).toBe(400);
    expect((await setRetention('7')).status).toBe(400);
    expect((await setRetention(1)).status).toBe(200);
  });

  it('purges entries older than the retention period, and none with 0 days', async () => {
    const oldest = (await auditPage('?limit=500')).entries.length;
    expect(oldest).toBeGreaterThan(0);
    expect((await setRetention(0)).status).toBe(200);
    clock += 400 * DAY;
    await purge();
    expect((await auditPage('?limit=500')).entries.length).toBeGreaterThanOrEqual(oldest);

    expect((await setRetention(30)).status).toBe(200);
    // An entry of "now" (the setting change itself) stays; those of 400 days ago go.
    await purge();
    const left = (await auditPage('?limit=500')).entries;
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((e) => Date.parse(e.time) >= clock - 30 * DAY)).toBe(true);
  });
});
