// The root listing's team folders are served from the listing cache of the folders that hold
// them (docs/teams.md, "Cost"): what happens to a team folder on the disk, outside Cabinet, must
// still show in the next listings. Under `npm test` this file runs on SQLite and on PostgreSQL.
import { chmod, mkdir, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource, ResourceItem } from '@cabinet/protocol';
import {
  ADMIN_PASSWORD,
  startTestServer,
  type TestServer,
  type TestUser,
} from '../testing/test-server.ts';
import { VIEW, callAs } from './helpers/teams.ts';
import { encodePath } from './helpers/tus.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function top(user: TestUser): Promise<Map<string, ResourceItem>> {
  const res = await server.fetch('/api/resources/', { token: user.token });
  expect(res.status).toBe(200);
  const items = ((await res.json()) as Resource).items ?? [];
  return new Map(items.map((item) => [item.name, item]));
}

async function grant(name: string, folder: string, user: TestUser): Promise<void> {
  const res = await server.fetch('/api/team-folders', {
    method: 'POST',
    token: server.admin.token,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      path: folder,
      grantees: [{ kind: 'user', id: user.user.id }],
      access: VIEW,
    }),
  });
  expect(res.status).toBe(201);
}

describe('team folders at the top of a view', () => {
  it('show what the disk holds now: a folder deleted outside Cabinet goes, a changed one says so', async () => {
    for (const name of ['north', 'south', 'west']) {
      await mkdir(path.join(server.root, 'teams', name), { recursive: true });
    }
    await mkdir(path.join(server.root, 'users/tess'), { recursive: true });
    const tess = await server.createUser({ scope: '/users/tess' });
    await grant('North', '/teams/north', tess);
    await grant('South', '/teams/south', tess);
    await grant('West', '/teams/west', tess);
    // Read twice: the second answer comes from what the first kept.
    expect([...(await top(tess)).keys()].sort()).toEqual(['North', 'South', 'West']);
    expect([...(await top(tess)).keys()].sort()).toEqual(['North', 'South', 'West']);

    // Deleted on the disk by someone else: gone from the very next listing.
    await rm(path.join(server.root, 'teams/south'), { recursive: true });
    expect([...(await top(tess)).keys()].sort()).toEqual(['North', 'West']);

    // Replaced by a file of the same name: shown as what it is now, a file.
    await rm(path.join(server.root, 'teams/west'), { recursive: true });
    await writeFile(path.join(server.root, 'teams/west'), 'not a folder any more');
    expect((await top(tess)).get('West')?.isDir).toBe(false);

    // A file added inside, and the folder's time set back: the listing follows the disk.
    const north = path.join(server.root, 'teams/north');
    await writeFile(path.join(north, 'added.txt'), 'x');
    const past = new Date('2020-01-02T03:04:05Z');
    await utimes(north, past, past);
    const wanted = (await stat(north)).mtime.toISOString();
    await expect
      .poll(async () => new Date((await top(tess)).get('North')!.modified).toISOString())
      .toBe(wanted);
  });
});

describe('the team folders a view keeps between listings', () => {
  // Listed again and again with the same grants, the entries and items are kept with the
  // placement (docs/teams.md, "Cost"): each change below must show in the very next listings.
  it("follow every change of a top on the disk, and of the user's rules", async () => {
    const holder = path.join(server.root, 'kept');
    for (const name of ['east', 'harbor'])
      await mkdir(path.join(holder, name), { recursive: true });
    await mkdir(path.join(server.root, 'users/uma'), { recursive: true });
    const uma = await server.createUser({ scope: '/users/uma' });
    await grant('East', '/kept/east', uma);
    await grant('Harbor', '/kept/harbor', uma);
    const east = path.join(holder, 'east');
    /** The East item as listed, and as a fresh stat of the folder says it should be. */
    const eastNow = async () => {
      const item = (await top(uma)).get('East')!;
      const info = await stat(east);
      return {
        listed: [item.size, new Date(item.modified).toISOString(), item.mode & 0o777],
        // Whole milliseconds, as the listing's time reads back.
        disk: [info.size, new Date(Math.floor(info.mtimeMs)).toISOString(), info.mode & 0o777],
      };
    };
    const listedAsOnDisk = async () => {
      const { listed, disk } = await eastNow();
      return JSON.stringify(listed) === JSON.stringify(disk);
    };
    for (let i = 0; i < 3; i++) {
      expect([...(await top(uma)).keys()].sort()).toEqual(['East', 'Harbor']);
    }
    expect(await listedAsOnDisk()).toBe(true);

    // Only its time changed (no name added anywhere): the next listings follow.
    const past = new Date('2021-03-04T05:06:07Z');
    await utimes(east, past, past);
    await expect.poll(async () => (await eastNow()).listed[1]).toBe(past.toISOString());
    expect(await listedAsOnDisk()).toBe(true);

    // Its mode, then its size and time (many names added inside, its time set after them).
    await chmod(east, 0o750);
    await expect.poll(async () => (await eastNow()).listed[2]).toBe(0o750);
    for (let i = 0; i < 200; i++) {
      await writeFile(path.join(east, `a-rather-long-file-name-to-grow-the-folder-${i}.txt`), 'x');
    }
    const later = new Date('2022-05-06T07:08:09Z');
    await utimes(east, later, later);
    await expect.poll(listedAsOnDisk).toBe(true);
    expect((await eastNow()).listed[1]).toBe(later.toISOString());

    // Renamed away on the disk, then back; replaced by another folder.
    await rename(path.join(holder, 'harbor'), path.join(holder, 'harbor-old'));
    expect([...(await top(uma)).keys()].sort()).toEqual(['East']);
    await rename(path.join(holder, 'harbor-old'), path.join(holder, 'harbor'));
    expect([...(await top(uma)).keys()].sort()).toEqual(['East', 'Harbor']);
    await rm(east, { recursive: true });
    await mkdir(east);
    const replaced = new Date('2023-07-08T09:10:11Z');
    await utimes(east, replaced, replaced);
    expect(new Date((await top(uma)).get('East')!.modified).toISOString()).toBe(
      replaced.toISOString(),
    );

    // The holding folder itself replaced by a link to another one: its team folders are there.
    const other = path.join(server.root, 'kept-elsewhere');
    await mkdir(path.join(other, 'east'), { recursive: true });
    await mkdir(path.join(other, 'harbor'));
    const elsewhere = new Date('2024-09-10T11:12:13Z');
    await utimes(path.join(other, 'east'), elsewhere, elsewhere);
    await rename(holder, path.join(server.root, 'kept-old'));
    await symlink('kept-elsewhere', holder);
    expect(new Date((await top(uma)).get('East')!.modified).toISOString()).toBe(
      elsewhere.toISOString(),
    );
    await rm(holder);
    await rename(path.join(server.root, 'kept-old'), holder);
    expect(new Date((await top(uma)).get('East')!.modified).toISOString()).toBe(
      replaced.toISOString(),
    );

    // A rule of the user's own hides one at once, and shows it again once lifted.
    const setRules = async (rules: unknown[]) => {
      const res = await server.fetch(`/api/users/${uma.user.id}`, {
        method: 'PUT',
        token: server.admin.token,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          what: 'user',
          which: ['rules'],
          current_password: ADMIN_PASSWORD,
          data: { id: uma.user.id, rules },
        }),
      });
      expect(res.status).toBe(200);
    };
    await setRules([{ allow: false, path: '/Harbor', regex: false, regexp: { raw: '' } }]);
    for (let i = 0; i < 2; i++) expect([...(await top(uma)).keys()].sort()).toEqual(['East']);
    await setRules([]);
    for (let i = 0; i < 2; i++) {
      expect([...(await top(uma)).keys()].sort()).toEqual(['East', 'Harbor']);
    }
  });
});

describe('a share with an end date', () => {
  let timed: TestServer;
  /** The runtime's clock: moved past the end date instead of waiting for it. */
  let clock = Date.UTC(2026, 10, 29, 12);

  beforeAll(async () => {
    timed = await startTestServer({ now: () => clock });
  });
  afterAll(() => timed.close());

  async function names(user: TestUser, virtual: string): Promise<string[] | number> {
    const res = await timed.fetch(`/api/resources${encodePath(virtual)}`, { token: user.token });
    if (res.status !== 200) return res.status;
    return (((await res.json()) as Resource).items ?? []).map((item) => item.name).sort();
  }

  it('ends on the next request once its time has passed, though the grants were kept', async () => {
    await mkdir(path.join(timed.root, 'users/owen/plans'), { recursive: true });
    await writeFile(path.join(timed.root, 'users/owen/plans/q3.txt'), 'figures');
    await mkdir(path.join(timed.root, 'users/rita'), { recursive: true });
    const owen = await timed.createUser({ scope: '/users/owen', perm: { share: true } });
    const rita = await timed.createUser({ scope: '/users/rita' });
    const shared = await callAs(timed, owen, 'POST', '/api/people-shares', {
      path: '/plans',
      grantees: [{ kind: 'user', id: rita.user.id }],
      access: VIEW,
      expire: Math.floor(clock / 1000) + 3600,
    });
    expect(shared.status).toBe(201);
    // Listed twice: the second answer uses the grants the first kept.
    expect(await names(rita, '/Shared with me')).toEqual(['plans']);
    expect(await names(rita, '/Shared with me/plans')).toEqual(['q3.txt']);

    clock += 2 * 3600 * 1000;
    expect(await names(rita, '/')).toEqual([]);
    expect(await names(rita, '/Shared with me/plans')).toBe(404);
  });
});
