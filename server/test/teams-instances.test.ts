// Grants are kept between requests (docs/teams.md, "How grants are cached"): two instances on one
// database, each with its own cache, must still see a change the other made on the very next
// request. Under `npm test` this file runs on SQLite and on PostgreSQL.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PeopleShare, Resource, TeamFolder } from '@cabinet/protocol';
import {
  ADMIN_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/test-server.ts';
import { encodePath } from './helpers/tus.ts';

const VIEW = { create: false, rename: false, modify: false, delete: false, share: false };

let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  first = await startTestServer({ config: { sharedState: 'database' } });
  second = await startTestServer({
    root: first.root,
    dataDir: first.dataDir,
    config: { sharedState: 'database' },
  });
});
afterAll(async () => {
  // The first server made the folders and the database: it goes last.
  await second?.close({ removeFiles: false });
  await first?.close();
});

function call(on: TestServer, user: TestUser, method: string, url: string, body?: unknown) {
  return on.fetch(url, {
    method,
    token: user.token,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });
}

async function names(on: TestServer, user: TestUser, virtual: string): Promise<string[]> {
  const res = await call(on, user, 'GET', `/api/resources${encodePath(virtual)}`);
  if (res.status !== 200) return [`(${res.status})`];
  return (((await res.json()) as Resource).items ?? []).map((item) => item.name).sort();
}

async function put(relative: string): Promise<void> {
  const file = path.join(first.root, relative);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, relative);
}

describe('grants changed on one instance', () => {
  it('hold on the next request of the other, whatever it had kept', async () => {
    await put('teams/plans/t.txt');
    await put('users/olga/report/r.txt');
    await put('users/olga/report/draft/d.txt');
    await mkdir(path.join(first.root, 'users/pia'), { recursive: true });
    const admin = first.admin;
    const olga = await first.createUser({ scope: '/users/olga' });
    const pia = await first.createUser({ scope: '/users/pia' });
    const group = (await (
      await call(first, admin, 'POST', '/api/groups', { name: 'Planners', members: [pia.user.id] })
    ).json()) as { id: number };
    const folder = (await (
      await call(first, admin, 'POST', '/api/team-folders', {
        name: 'Plans',
        path: '/teams/plans',
        grantees: [{ kind: 'group', id: group.id }],
        access: VIEW,
      })
    ).json()) as TeamFolder;
    const share = (await (
      await call(first, olga, 'POST', '/api/people-shares', {
        path: '/report',
        grantees: [{ kind: 'user', id: pia.user.id }],
        access: VIEW,
      })
    ).json()) as PeopleShare;
    // The second instance reads them, and keeps them.
    expect(await names(second, pia, '/')).toEqual(['Plans', 'Shared with me']);
    expect(await names(second, pia, '/Shared with me/report')).toEqual(['draft', 'r.txt']);

    // The owner's rules change on the first: what they may not see is not shared any more.
    const rules = [{ allow: false, path: '/report/draft', regex: false, regexp: { raw: '' } }];
    const updated = await call(first, admin, 'PUT', `/api/users/${olga.user.id}`, {
      what: 'user',
      which: ['rules'],
      current_password: ADMIN_PASSWORD,
      data: { id: olga.user.id, rules },
    });
    expect(updated.status).toBe(200);
    expect(await names(second, pia, '/Shared with me/report')).toEqual(['r.txt']);

    // A member removed on the first: the team folder is gone on the second at once.
    await call(first, admin, 'PUT', `/api/groups/${group.id}`, { name: 'Planners', members: [] });
    expect(await names(second, pia, '/')).toEqual(['Shared with me']);
    const raw = await call(second, pia, 'GET', `/api/raw${encodePath('/Plans/t.txt')}`);
    expect(raw.status).toBe(404);

    // Back in, then the group deleted.
    await call(first, admin, 'PUT', `/api/groups/${group.id}`, {
      name: 'Planners',
      members: [pia.user.id],
    });
    expect(await names(second, pia, '/')).toEqual(['Plans', 'Shared with me']);
    await call(first, admin, 'DELETE', `/api/groups/${group.id}`);
    expect(await names(second, pia, '/')).toEqual(['Shared with me']);

    // The share revoked by its owner on the first.
    const revoked = await call(first, olga, 'DELETE', `/api/people-shares/${share.id}`);
    expect(revoked.status).toBe(200);
    expect(await names(second, pia, '/')).toEqual([]);
    const gone = await call(
      second,
      pia,
      'GET',
      `/api/raw${encodePath('/Shared with me/report/r.txt')}`,
    );
    expect(gone.status).toBe(404);

    // A team folder granted to her directly, then revoked.
    await call(first, admin, 'PUT', `/api/team-folders/${folder.id}`, {
      name: 'Plans',
      path: '/teams/plans',
      grantees: [{ kind: 'user', id: pia.user.id }],
      access: VIEW,
    });
    expect(await names(second, pia, '/')).toEqual(['Plans']);
    await call(first, admin, 'DELETE', `/api/team-folders/${folder.id}`);
    expect(await names(second, pia, '/')).toEqual([]);
  });
});
