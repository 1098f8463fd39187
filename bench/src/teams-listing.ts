/**
 * What grants cost a root listing (docs/teams.md, docs/benchmarks.md): 10,000 users and 1,000
 * groups; one user in 50 groups holding 200 grants (100 team folders through their groups, 100
 * shares with people from 100 owners), and one user with the same scope and no grant. Their
 * root listings alternate, one request at a time; the medians and their ratio are printed
 * (target: ≤ 1.25×). A third user without grants, whose own scope holds as many entries as the
 * grants user sees, separates what the grants cost from the longer listing they make.
 *
 *   npm run teams-listing -w bench    (BENCH_TEAMS_REQUESTS, default 300 per user)
 *
 * The server runs in this process: `cd bench && node --cpu-prof --import tsx
 * src/teams-listing.ts` writes a CPU profile of it all. The load average at the end is printed
 * too: on the shared machine the figures move with it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '@cabinet/server/testing';

const REQUESTS = Number(process.env.BENCH_TEAMS_REQUESTS ?? 300);
const USERS = 10_000;
const GROUPS = 1_000;
const ACCESS = { create: true, rename: true, modify: true, delete: true, share: false };

const server = await startTestServer({ config: { logLevel: 'silent' } });
const { store } = server.ctx;
try {
  // The scope both measured users list: 100 files and 20 folders.
  for (let i = 0; i < 100; i++) await writeFile(path.join(server.root, `file-${i}.txt`), 'x');
  for (let i = 0; i < 20; i++) await mkdir(path.join(server.root, `folder-${i}`));
  const withGrants = await server.createUser({ scope: '/' });
  const without = await server.createUser({ scope: '/' });
  const template = (await store.users.byId(without.user.id))!;
  const ids: number[] = [];
  for (let i = 0; i < USERS; i++) {
    const { id: _id, updatedAt: _u, ...record } = template;
    ids.push(
      await store.users.insert({ ...record, username: `bench-user-${i}`, scope: `/users/u${i}` }),
    );
  }
  const groups: number[] = [];
  for (let i = 0; i < GROUPS; i++) {
    const id = await store.teams.insertGroup(`bench-group-${i}`, 'local');
    await store.teams.setMembers(id, ids.slice((i * 10) % USERS, ((i * 10) % USERS) + 10));
    groups.push(id);
  }
  await store.teams.setGroupsOf(withGrants.user.id, groups.slice(0, 50), groups.slice(0, 50));
  for (let i = 0; i < 100; i++) {
    await mkdir(path.join(server.root, 'teams', `t${i}`), { recursive: true });
    const id = await store.teams.insertTeamFolder({
      name: `Team ${i}`,
      path: `/teams/t${i}`,
      access: ACCESS,
      quota: 0,
    });
    await store.teams.setGrantees('team', id, [{ kind: 'group', id: groups[i % 50]! }]);
  }
  for (let i = 0; i < 100; i++) {
    await mkdir(path.join(server.root, 'users', `u${i}`, 'shared'), { recursive: true });
    const id = await store.teams.insertPeopleShare({
      ownerId: ids[i]!,
      path: '/shared',
      target: `/users/u${i}/shared`,
      isDir: true,
      access: ACCESS,
      expire: 0,
    });
    await store.teams.setGrantees('people', id, [{ kind: 'user', id: withGrants.user.id }]);
  }

  const list = async (token: string) => {
    const started = performance.now();
    const res = await server.fetch('/api/resources/', { token });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`listing answered ${res.status}`);
    return performance.now() - started;
  };
  // A third user without grants whose own scope holds as many entries as the grants user sees:
  // what the grants cost apart from the bigger listing they make.
  const seen = await server.fetch('/api/resources/', { token: withGrants.token });
  const entries = ((await seen.json()) as { items: unknown[] }).items.length;
  for (let i = 0; i < 21; i++)
    await mkdir(path.join(server.root, 'plain', `folder-${i}`), { recursive: true });
  for (let i = 0; i < entries - 21; i++) {
    await writeFile(path.join(server.root, 'plain', `file-${i}.txt`), 'x');
  }
  const sameSize = await server.createUser({ scope: '/plain' });
  for (let i = 0; i < 30; i++) {
    await list(withGrants.token);
    await list(without.token);
    await list(sameSize.token);
  }
  const times = { with: [] as number[], without: [] as number[], sameSize: [] as number[] };
  for (let i = 0; i < REQUESTS; i++) {
    times.with.push(await list(withGrants.token));
    times.without.push(await list(without.token));
    times.sameSize.push(await list(sameSize.token));
  }
  const median = (values: number[]) =>
    values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const a = median(times.with);
  const b = median(times.without);
  const c = median(times.sameSize);
  console.log(
    JSON.stringify(
      {
        users: USERS,
        groups: GROUPS,
        grants: 200,
        requests: REQUESTS,
        medianMsWithGrants: Number(a.toFixed(2)),
        medianMsWithout: Number(b.toFixed(2)),
        ratio: Number((a / b).toFixed(2)),
        entriesSeen: entries,
        medianMsSameSizeWithout: Number(c.toFixed(2)),
        ratioSameSize: Number((a / c).toFixed(2)),
        loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
      },
      null,
      2,
    ),
  );
} finally {
  await server.close();
}
