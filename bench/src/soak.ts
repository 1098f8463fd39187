/**
 * The soak test (issue 29, docs/benchmarks.md): one Cabinet instance on 127.0.0.1, 50 simulated
 * users created through the API, each looping until the duration is up over a mix of listings,
 * downloads, POST and TUS uploads, searches, renames and deletes in their own folder. Reported:
 * requests per second, p50/p99 per kind, the count of 5xx (must be 0) and of other unexpected
 * answers, the server's RSS and open file descriptors (sockets counted apart) sampled over time (start, end and a
 * least-squares slope), and whether every uploaded byte verifies: each user's files are
 * downloaded at the end and compared by sha256 with what was sent (downloads during the run are
 * compared too).
 *
 *   npm run soak -w bench -- --duration 120      (seconds; or SOAK_DURATION; default 600)
 *                                 --users 50        (or SOAK_USERS)
 *
 * Results: bench/results/soak-<date>.{json,md}; exits 1 when a 5xx, an unexpected answer or a
 * mismatched byte was seen.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BENCH_DIR } from './layout.ts';
import { readMemory } from './rss.ts';
import { login, startCabinet } from './servers.ts';
import { fmt, now, percentile } from './stats.ts';

const { values: args } = parseArgs({
  options: { duration: { type: 'string' }, users: { type: 'string' } },
});
const DURATION_S = Number(args.duration ?? process.env.SOAK_DURATION ?? 600);
const USERS = Number(args.users ?? process.env.SOAK_USERS ?? 50);
if (!(DURATION_S > 0) || !Number.isInteger(USERS) || USERS < 1)
  throw new Error('--duration must be a positive number of seconds, --users a positive integer');
/** RSS and descriptors are read this often. */
const SAMPLE_MS = 5_000;
const PASSWORD = 'soak-admin-password-long-enough';
const USER_PASSWORD = 'a-long-enough-unusual-passphrase';
const KINDS = ['list', 'download', 'upload', 'tus', 'search', 'rename', 'delete'] as const;
type Kind = (typeof KINDS)[number];
/** How often each kind is picked (weights), roughly a browsing user's mix. */
const WEIGHTS: Record<Kind, number> = {
  list: 30,
  download: 25,
  upload: 12,
  tus: 8,
  search: 10,
  rename: 8,
  delete: 7,
};

const sha = (data: Buffer | Uint8Array) => createHash('sha256').update(data).digest('hex');
const latencies = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
let serverErrors = 0;
let unexpected = 0;
let mismatches = 0;
const problems: string[] = [];

function note(problem: string): void {
  if (problems.length < 20) problems.push(problem);
}

interface SoakUser {
  name: string;
  token: string;
  /** name → sha256 of every file the user has (what the server must hand back). */
  files: Map<string, string>;
  counter: number;
}

/** One timed request; counts 5xx and answers other than `expected`. */
async function timed(
  kind: Kind,
  url: string,
  init: RequestInit,
  expected: number[],
): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const started = now();
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  latencies.get(kind)!.push(now() - started);
  if (response.status >= 500) {
    serverErrors++;
    note(
      `${kind} ${init.method ?? 'GET'} ${url}: ${response.status} ${body.toString().slice(0, 200)}`,
    );
  } else if (!expected.includes(response.status)) {
    unexpected++;
    note(
      `${kind} ${init.method ?? 'GET'} ${url}: ${response.status} ${body.toString().slice(0, 200)}`,
    );
  }
  return { status: response.status, body, headers: response.headers };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function pickKind(): Kind {
  const total = KINDS.reduce((sum, kind) => sum + WEIGHTS[kind], 0);
  let roll = Math.random() * total;
  for (const kind of KINDS) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return 'list';
}

/** 1 KiB to 1 MiB, most of them small. */
const uploadSize = () => Math.floor(1024 * 1024 ** Math.random());

async function step(base: string, user: SoakUser, kind: Kind): Promise<void> {
  const auth = { 'X-Auth': user.token };
  const names = [...user.files.keys()];
  // Too few files left for a download, rename or delete: upload one instead.
  if ((kind === 'download' || kind === 'rename' || kind === 'delete') && names.length < 3)
    kind = 'upload';
  switch (kind) {
    case 'list':
      await timed(kind, `${base}/api/resources/`, { headers: auth }, [200]);
      return;
    case 'search':
      await timed(
        kind,
        `${base}/api/search/?query=${pick(['file', 'tus', '7', 'renamed'])}`,
        { headers: auth },
        [200],
      );
      return;
    case 'download': {
      const name = pick(names);
      const expected = user.files.get(name)!;
      const { status, body } = await timed(
        kind,
        `${base}/api/raw/${name}`,
        { headers: auth },
        [200],
      );
      if (status === 200 && sha(body) !== expected) {
        mismatches++;
        note(`download of ${user.name}/${name}: sha256 differs`);
      }
      return;
    }
    case 'upload': {
      const name = `file-${user.counter++}.bin`;
      const data = randomBytes(uploadSize());
      const { status } = await timed(
        kind,
        `${base}/api/resources/${name}`,
        { method: 'POST', headers: auth, body: data },
        [200],
      );
      if (status === 200) user.files.set(name, sha(data));
      return;
    }
    case 'tus': {
      const name = `tus-${user.counter++}.bin`;
      const data = randomBytes(uploadSize());
      const tus = { ...auth, 'Tus-Resumable': '1.0.0' };
      const created = await timed(
        kind,
        `${base}/api/tus/${name}`,
        { method: 'POST', headers: { ...tus, 'Upload-Length': String(data.length) } },
        [201],
      );
      if (created.status !== 201) return;
      // Two chunks, as a client with a chunk size below the file's would send.
      const half = Math.floor(data.length / 2);
      for (const [from, to] of [
        [0, half],
        [half, data.length],
      ] as const) {
        const { status } = await timed(
          kind,
          `${base}/api/tus/${name}`,
          {
            method: 'PATCH',
            headers: {
              ...tus,
              'Content-Type': 'application/offset+octet-stream',
              'Upload-Offset': String(from),
            },
            body: data.subarray(from, to),
          },
          [204],
        );
        if (status !== 204) return;
      }
      user.files.set(name, sha(data));
      return;
    }
    case 'rename': {
      const name = pick(names);
      const renamed = `renamed-${user.counter++}.bin`;
      const { status } = await timed(
        kind,
        `${base}/api/resources/${name}?action=rename&destination=${encodeURIComponent(`/${renamed}`)}`,
        { method: 'PATCH', headers: auth },
        [200],
      );
      if (status === 200) {
        user.files.set(renamed, user.files.get(name)!);
        user.files.delete(name);
      }
      return;
    }
    case 'delete': {
      const name = pick(names);
      const { status } = await timed(
        kind,
        `${base}/api/resources/${name}`,
        { method: 'DELETE', headers: auth },
        [204],
      );
      if (status === 204) user.files.delete(name);
      return;
    }
  }
}

/** Least-squares slope of y over x. */
function slope(points: Array<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

const base = mkdtempSync(path.join(os.tmpdir(), 'cabinet-soak-'));
const root = path.join(base, 'root');
mkdirSync(root);
const server = await startCabinet({ root, password: PASSWORD });
const samples: Array<{ atS: number; rssMiB: number; fds: number; sockets: number }> = [];
let sampler: NodeJS.Timeout | undefined;
try {
  const adminToken = await login(server.url, 'admin', PASSWORD);
  const users: SoakUser[] = [];
  for (let n = 0; n < USERS; n++) {
    const name = `soak${String(n).padStart(2, '0')}`;
    await mkdir(path.join(root, name));
    const created = await fetch(`${server.url}/api/users`, {
      method: 'POST',
      headers: { 'X-Auth': adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        what: 'user',
        which: [],
        current_password: PASSWORD,
        data: {
          username: name,
          password: USER_PASSWORD,
          scope: `/${name}`,
          locale: 'en',
          perm: {
            admin: false,
            execute: false,
            create: true,
            rename: true,
            modify: true,
            delete: true,
            share: false,
            download: true,
          },
        },
      }),
    });
    if (created.status !== 201)
      throw new Error(`creating ${name}: ${created.status} ${await created.text()}`);
    users.push({
      name,
      token: await login(server.url, name, USER_PASSWORD),
      files: new Map(),
      counter: 0,
    });
  }
  // A few files each to start with.
  for (const user of users) {
    for (let n = 0; n < 5; n++) {
      const data = randomBytes(uploadSize());
      const name = `seed-${n}.bin`;
      await writeFile(path.join(root, user.name, name), data);
      user.files.set(name, sha(data));
    }
  }
  console.log(`soak: ${USERS} users for ${DURATION_S} s against ${server.url} (pid ${server.pid})`);

  const started = now();
  const sample = () => {
    const memory = readMemory(server.pid);
    // Sockets apart: the 50 users' keep-alive connections come and go with the load; a leak shows
    // in the other descriptors (files, pipes, watchers).
    let fds = Number.NaN;
    let sockets = Number.NaN;
    try {
      const links = readdirSync(`/proc/${server.pid}/fd`).map((fd) => {
        try {
          return readlinkSync(`/proc/${server.pid}/fd/${fd}`);
        } catch {
          return ''; // closed meanwhile
        }
      });
      sockets = links.filter((link) => link.startsWith('socket:')).length;
      fds = links.filter((link) => link !== '' && !link.startsWith('socket:')).length;
    } catch {
      // the process is gone; the run fails on its requests
    }
    samples.push({
      atS: (now() - started) / 1000,
      rssMiB: (memory?.rss ?? Number.NaN) / 1024 ** 2,
      fds,
      sockets,
    });
  };
  sample();
  sampler = setInterval(sample, SAMPLE_MS);
  const deadline = started + DURATION_S * 1000;
  await Promise.all(
    users.map(async (user) => {
      while (now() < deadline) await step(server.url, user, pickKind());
    }),
  );
  const elapsedS = (now() - started) / 1000;
  clearInterval(sampler);
  sample();

  // Every byte uploaded (and every seed file still there) comes back as sent.
  let verified = 0;
  for (const user of users) {
    for (const [name, digest] of user.files) {
      const response = await fetch(`${server.url}/api/raw/${name}`, {
        headers: { 'X-Auth': user.token },
      });
      const body = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || sha(body) !== digest) {
        mismatches++;
        note(`final check of ${user.name}/${name}: ${response.status}`);
      } else verified++;
    }
  }

  const requests = KINDS.reduce((sum, kind) => sum + latencies.get(kind)!.length, 0);
  // The first minute (or tenth) is warm-up: caches, JIT, the search index filling.
  const warm = samples.filter((s) => s.atS >= Math.min(60, DURATION_S / 10));
  const rssSlope = slope(warm.map((s) => ({ x: s.atS / 60, y: s.rssMiB })));
  const fdSlope = slope(warm.map((s) => ({ x: s.atS / 60, y: s.fds })));
  const socketSlope = slope(warm.map((s) => ({ x: s.atS / 60, y: s.sockets })));
  const first = samples[0]!;
  const last = samples.at(-1)!;
  const date = new Date().toISOString();
  const results = {
    date,
    durationS: Math.round(elapsedS),
    users: USERS,
    machine: {
      cpus: os.cpus().length,
      load: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
      node: process.version,
    },
    requests,
    requestsPerSecond: requests / elapsedS,
    perKind: Object.fromEntries(
      KINDS.map((kind) => {
        const values = latencies.get(kind)!;
        return [
          kind,
          { count: values.length, p50Ms: percentile(values, 50), p99Ms: percentile(values, 99) },
        ];
      }),
    ),
    serverErrors,
    unexpected,
    mismatches,
    verifiedFiles: verified,
    rss: { startMiB: first.rssMiB, endMiB: last.rssMiB, slopeMiBPerMin: rssSlope },
    fds: { start: first.fds, end: last.fds, slopePerMin: fdSlope },
    sockets: { start: first.sockets, end: last.sockets, slopePerMin: socketSlope },
    samples,
    problems,
  };
  const lines = [
    `# Soak: ${USERS} users, ${Math.round(elapsedS)} s (${date})`,
    '',
    `${requests} requests, ${fmt(results.requestsPerSecond)} per second; 5xx: ${serverErrors}; other unexpected answers: ${unexpected}; files verified by sha256 at the end: ${verified}, mismatches: ${mismatches}. Machine: ${results.machine.cpus} CPUs, load ${results.machine.load} at the end.`,
    '',
    '| Kind | Requests | p50 (ms) | p99 (ms) |',
    '| --- | ---: | ---: | ---: |',
    ...KINDS.map((kind) => {
      const k = results.perKind[kind]!;
      return `| ${kind} | ${k.count} | ${fmt(k.p50Ms)} | ${fmt(k.p99Ms)} |`;
    }),
    '',
    'Each request counts once: a TUS upload is three (creation and two PATCH chunks).',
    '',
    '| Server | Start | End | Least-squares slope after warm-up |',
    '| --- | ---: | ---: | ---: |',
    `| RSS (MiB) | ${fmt(first.rssMiB)} | ${fmt(last.rssMiB)} | ${fmt(rssSlope, 2)} MiB/min |`,
    `| Open file descriptors (sockets apart) | ${first.fds} | ${last.fds} | ${fmt(fdSlope, 2)} /min |`,
    `| Open sockets | ${first.sockets} | ${last.sockets} | ${fmt(socketSlope, 2)} /min |`,
    ...(problems.length ? ['', 'First problems:', '', ...problems.map((p) => `- ${p}`)] : []),
  ];
  const markdown = lines.join('\n');
  const results_dir = path.join(BENCH_DIR, 'results');
  await mkdir(results_dir, { recursive: true });
  const stamp = date.replace(/[:.]/g, '-');
  await writeFile(path.join(results_dir, `soak-${stamp}.json`), JSON.stringify(results, null, 2));
  await writeFile(path.join(results_dir, `soak-${stamp}.md`), `${markdown}\n`);
  console.log(markdown);
  console.log(`results in ${path.join(results_dir, `soak-${stamp}.{json,md}`)}`);
  if (serverErrors > 0 || unexpected > 0 || mismatches > 0) process.exitCode = 1;
} finally {
  if (sampler) clearInterval(sampler);
  await server.stop();
  rmSync(base, { recursive: true, force: true });
}
