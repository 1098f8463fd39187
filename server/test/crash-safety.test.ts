// Crash safety (issue 29): the real server, a child process, is killed with SIGKILL in the middle
// of a POST upload, a TUS upload, an editor save, a copy, a move, a rename and a delete, at chosen
// points (after N bytes of the body, after a TUS chunk was acknowledged) and at random moments,
// then started again on the same root, data folder and database. After each restart: the target
// holds the old content or the new, whole (sha256), and the new one whenever the server had
// answered 2xx; no temp file is left under the root; the database passes an integrity check; a
// moved or renamed item exists exactly once; a deleted item is in place or in the trash, whole; an
// interrupted TUS upload resumes to the right bytes.
//
// A restart costs seconds, so each cycle runs the seven operations at once (each from a random
// start), kills once — at a chosen point of one of them or at a random moment — and checks all.
// The kill moments come from a seeded PRNG: a failure names its seed, and CRASH_SEED=<seed>
// replays the same kill points (random delays are the thing under test here, not a wait).
import { createHash, randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMP_PREFIX } from '../src/fs/temp-files.ts';
import { freePort, loginAdmin, SpawnedServers } from '../testing/spawned-server.ts';
import { seededRandom } from '../testing/seeded-random.ts';
import { testDatabaseFor, type TestDatabaseHandle } from '../testing/test-database.ts';

/** Kill cycles: each runs all seven operations at once and kills the server once. */
const CYCLES = 8;
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const MiB = 1024 * 1024;
/** Bytes written to the socket at a time (a kill "after N bytes" lands on this grain). */
const GRAIN = 64 * 1024;

const random = seededRandom(SEED);
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let base: string;
let root: string;
let dataDir: string;
let database: TestDatabaseHandle;
let url: string;
let port: number;
let token: string;
let child: ChildProcess;
const servers = new SpawnedServers();

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'cabinet-crash-'));
  root = path.join(base, 'files');
  dataDir = path.join(base, 'data');
  await mkdir(root, { recursive: true });
  database = await testDatabaseFor(dataDir);
  port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = await servers.start({ root, dataDir, database: database.database, port });
  token = await loginAdmin(url);
});

afterAll(async () => {
  await servers.killAll();
  await database?.drop();
  await rm(base, { recursive: true, force: true });
}, 60_000);

/** Whether a request kills the server itself: after this many bytes of its body went out. */
type KillPlan = { afterBytes: number } | { never: true };

/**
 * Sends a request, writing the body GRAIN bytes at a time, and calls `kill` per the plan. Resolves
 * to the status the server answered, or `cut` when a kill came first.
 */
async function sendKilling(
  method: string,
  target: string,
  body: Buffer | undefined,
  plan: KillPlan,
  headers: Record<string, string> = {},
  kill: () => Promise<void> = () => Promise.resolve(),
): Promise<{ status: number | 'cut'; headers: http.IncomingHttpHeaders }> {
  const request = http.request(`${url}${target}`, {
    method,
    headers: {
      'X-Auth': token,
      ...(body ? { 'content-length': String(body.length) } : {}),
      ...headers,
    },
  });
  const answered = new Promise<{ status: number | 'cut'; headers: http.IncomingHttpHeaders }>(
    (resolve) => {
      request.on('response', (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers }),
        );
        response.on('error', () => resolve({ status: 'cut', headers: {} }));
      });
      request.on('error', () => resolve({ status: 'cut', headers: {} }));
    },
  );
  let sent = 0;
  let done = false;
  void answered.then(() => (done = true));
  if (body) {
    while (sent < body.length && !done) {
      if ('afterBytes' in plan && sent >= plan.afterBytes) break;
      const piece = body.subarray(sent, sent + GRAIN);
      sent += piece.length;
      if (!request.write(piece)) await Promise.race([once(request, 'drain'), answered]);
    }
  }
  if ('afterBytes' in plan && sent < (body?.length ?? 0)) {
    await kill();
  } else {
    request.end();
    if ('afterBytes' in plan) {
      // The whole body went out: the kill lands as the server finishes the request.
      await kill();
    }
  }
  const outcome = await answered;
  return outcome;
}

/** Every name under the root that is one of Cabinet's temp files. */
async function tempsUnder(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.name.startsWith(TEMP_PREFIX)) found.push(path.relative(root, full));
    if (entry.isDirectory()) found.push(...(await tempsUnder(full)));
  }
  return found;
}

async function digestOf(relative: string): Promise<string | undefined> {
  try {
    return sha(await readFile(path.join(root, relative)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function exists(relative: string): Promise<boolean> {
  return stat(path.join(root, relative)).then(
    () => true,
    () => false,
  );
}

/** The database after a kill: SQLite's integrity check; on PostgreSQL every table reads. */
async function checkDatabase(): Promise<void> {
  if (database.engine === 'sqlite') {
    const sqlite = new SQLite(database.database);
    try {
      const rows = sqlite.pragma('integrity_check') as Array<{ integrity_check: string }>;
      expect(rows).toEqual([{ integrity_check: 'ok' }]);
    } finally {
      sqlite.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.database.replace(/\?.*$/, '') });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select table_name as name from information_schema.tables where table_schema = 'public'",
    );
    expect(rows.length).toBeGreaterThan(5);
    for (const { name } of rows) await client.query(`select count(*) from "${name}"`);
  } finally {
    await client.end();
  }
}

const enc = (virtual: string) => encodeURIComponent(virtual);
const tus = { 'Tus-Resumable': '1.0.0' };
const TUS_CHUNK = MiB;

/** What a cycle's kill is: a chosen point of the POST upload or of the TUS upload, or a moment. */
type Trigger =
  | { kind: 'post-bytes'; afterBytes: number }
  | { kind: 'tus-acknowledged'; chunk: number }
  | { kind: 'tus-bytes'; chunk: number; afterBytes: number }
  | { kind: 'moment'; afterMs: number };

/** One operation of a cycle: set up (server up), run (until done or cut), check (after restart). */
interface Operation {
  name: string;
  prepare(cycle: number): Promise<void>;
  run(cycle: number, trigger: Trigger, kill: () => Promise<void>): Promise<void>;
  check(cycle: number): Promise<void>;
}

/** A folder of files, each its own content; returns their digests by name. */
async function folderOf(relative: string, count: number): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  await mkdir(path.join(root, relative), { recursive: true });
  for (let n = 0; n < count; n++) {
    const data = randomBytes(between(1, 512 * 1024));
    await writeFile(path.join(root, relative, `part-${n}.bin`), data);
    digests.set(`part-${n}.bin`, sha(data));
  }
  return digests;
}

async function digestsOf(relative: string): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  for (const name of await readdir(path.join(root, relative))) {
    digests.set(name, (await digestOf(`${relative}/${name}`))!);
  }
  return digests;
}

/** A file replaced by a request with a body (POST upload, editor save): old or new, whole. */
function replacement(
  name: string,
  method: 'POST' | 'PUT',
  file: string,
  query: string,
  make: (size: number) => Buffer,
): Operation {
  let old: Buffer = Buffer.alloc(0);
  let next: Buffer = Buffer.alloc(0);
  let status: number | 'cut' = 'cut';
  return {
    name,
    async prepare() {
      old = make(between(1, 6 * MiB));
      next = make(between(6 * MiB, 12 * MiB));
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), old);
    },
    async run(_cycle, trigger, kill) {
      const plan: KillPlan =
        method === 'POST' && trigger.kind === 'post-bytes'
          ? { afterBytes: Math.min(trigger.afterBytes, next.length) }
          : { never: true };
      ({ status } = await sendKilling(
        method,
        `/api/resources/${file}${query}`,
        next,
        plan,
        {},
        kill,
      ));
    },
    async check() {
      const now = await digestOf(file);
      if (status === 200) expect(now, `${name} answered 200`).toBe(sha(next));
      else expect([sha(old), sha(next)], `${name}: old or new`).toContain(now);
    },
  };
}

const text = (size: number) => Buffer.from(randomBytes(size).toString('base64').slice(0, size));

const operations: Operation[] = [
  replacement('POST upload', 'POST', 'post/target.bin', '?override=true', randomBytes),
  replacement('editor save', 'PUT', 'save/notes.txt', '', text),
  (() => {
    let old: Buffer = Buffer.alloc(0);
    let source: Buffer = Buffer.alloc(0);
    let acknowledged = 0;
    /** Where the PATCH last sent ends (the upload is complete there when it reaches the length). */
    let inFlightEnd = 0;
    const target = (cycle: number) => `/tus/file-${cycle}.bin`;
    const patch = (
      cycle: number,
      offset: number,
      body: Buffer,
      plan: KillPlan,
      kill?: () => Promise<void>,
    ) =>
      sendKilling(
        'PATCH',
        `/api/tus${target(cycle)}`,
        body,
        plan,
        {
          ...tus,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        kill,
      );
    return {
      name: 'TUS upload',
      async prepare(cycle) {
        old = randomBytes(between(1, 2 * MiB));
        source = randomBytes(between(8 * MiB, 10 * MiB));
        acknowledged = 0;
        inFlightEnd = 0;
        await mkdir(path.join(root, 'tus'), { recursive: true });
        await writeFile(path.join(root, target(cycle)), old);
        const created = await sendKilling(
          'POST',
          `/api/tus${target(cycle)}?override=true`,
          undefined,
          { never: true },
          { ...tus, 'upload-length': String(source.length) },
        );
        expect(created.status).toBe(201);
      },
      async run(cycle, trigger, kill) {
        let chunk = 0;
        while (acknowledged < source.length) {
          const body = source.subarray(acknowledged, acknowledged + TUS_CHUNK);
          const plan: KillPlan =
            trigger.kind === 'tus-bytes' && trigger.chunk === chunk
              ? { afterBytes: trigger.afterBytes }
              : { never: true };
          inFlightEnd = acknowledged + body.length;
          const answer = await patch(cycle, acknowledged, body, plan, kill);
          if (answer.status !== 204) return;
          acknowledged = Number(answer.headers['upload-offset']);
          if (trigger.kind === 'tus-acknowledged' && trigger.chunk === chunk) return kill();
          chunk++;
        }
      },
      async check(cycle) {
        // The last chunk's answer may be lost to the kill after the server landed the upload: the
        // client then knows fewer bytes than the server completed with.
        const landedUnanswered =
          inFlightEnd === source.length && (await digestOf(target(cycle))) === sha(source);
        if (acknowledged < source.length && !landedUnanswered) {
          // Not complete: the old file stands, whole, until the resumed upload lands.
          expect(await digestOf(target(cycle)), 'TUS: the old file until complete').toBe(sha(old));
          const head = await fetch(`${url}/api/tus${target(cycle)}`, {
            method: 'HEAD',
            headers: { ...tus, 'X-Auth': token },
          });
          expect(head.status).toBe(200);
          const offset = Number(head.headers.get('upload-offset'));
          expect(offset, 'TUS: acknowledged bytes are kept').toBeGreaterThanOrEqual(acknowledged);
          expect(offset).toBeLessThanOrEqual(source.length);
          const rest = await patch(cycle, offset, source.subarray(offset), { never: true });
          expect(rest.status, 'TUS: the resumed upload').toBe(204);
          expect(Number(rest.headers['upload-offset'])).toBe(source.length);
        }
        expect(await digestOf(target(cycle)), 'TUS: the uploaded bytes').toBe(sha(source));
      },
    } satisfies Operation;
  })(),
  (() => {
    let source: Buffer = Buffer.alloc(0);
    let old: Buffer = Buffer.alloc(0);
    let status: number | 'cut' = 'cut';
    return {
      name: 'copy',
      async prepare() {
        source = randomBytes(between(16 * MiB, 32 * MiB));
        old = randomBytes(between(1, 4 * MiB));
        await mkdir(path.join(root, 'copy'), { recursive: true });
        await writeFile(path.join(root, 'copy/src.bin'), source);
        await writeFile(path.join(root, 'copy/dst.bin'), old);
      },
      async run(_cycle, _trigger, kill) {
        ({ status } = await sendKilling(
          'PATCH',
          `/api/resources/copy/src.bin?action=copy&destination=${enc('/copy/dst.bin')}&override=true`,
          undefined,
          { never: true },
          {},
          kill,
        ));
      },
      async check() {
        expect(await digestOf('copy/src.bin'), 'copy: the source').toBe(sha(source));
        const now = await digestOf('copy/dst.bin');
        if (status === 200) expect(now, 'copy answered 200').toBe(sha(source));
        else expect([sha(old), sha(source)], 'copy: old or new').toContain(now);
      },
    } satisfies Operation;
  })(),
  ...(['move', 'rename'] as const).map((kind): Operation => {
    const from = (n: number) => `${kind}/a/item-${n}`;
    const to = (n: number) => (kind === 'move' ? `${kind}/b/item-${n}` : `${kind}/a/renamed-${n}`);
    let digests = new Map<string, string>();
    let status: number | 'cut' = 'cut';
    return {
      name: kind,
      async prepare(cycle) {
        await mkdir(path.join(root, kind, 'b'), { recursive: true });
        digests = await folderOf(from(cycle), 12);
      },
      async run(cycle, _trigger, kill) {
        ({ status } = await sendKilling(
          'PATCH',
          `/api/resources/${from(cycle)}?action=rename&destination=${enc(`/${to(cycle)}`)}`,
          undefined,
          { never: true },
          {},
          kill,
        ));
      },
      async check(cycle) {
        const atSource = await exists(from(cycle));
        const atDestination = await exists(to(cycle));
        expect([atSource, atDestination], `${kind}: exactly once (source, destination)`).toSatisfy(
          ([a, b]: boolean[]) => a !== b,
        );
        if (status === 200) expect(atDestination, `${kind} answered 200`).toBe(true);
        expect(await digestsOf(atSource ? from(cycle) : to(cycle)), `${kind}: whole`).toEqual(
          digests,
        );
      },
    };
  }),
  (() => {
    let data: Buffer = Buffer.alloc(0);
    let status: number | 'cut' = 'cut';
    const name = (cycle: number) => `file-${cycle}.bin`;
    return {
      name: 'delete',
      async prepare(cycle) {
        data = randomBytes(between(1, 4 * MiB));
        await mkdir(path.join(root, 'del'), { recursive: true });
        await writeFile(path.join(root, 'del', name(cycle)), data);
      },
      async run(cycle, _trigger, kill) {
        ({ status } = await sendKilling(
          'DELETE',
          `/api/resources/del/${name(cycle)}`,
          undefined,
          { never: true },
          {},
          kill,
        ));
      },
      async check(cycle) {
        const response = await fetch(`${url}/api/trash`, { headers: { 'X-Auth': token } });
        expect(response.status).toBe(200);
        const trash = (await response.json()) as Array<{ id: string; path: string }>;
        const trashed = trash.filter((item) => item.path === `/del/${name(cycle)}`);
        const inPlace = await digestOf(`del/${name(cycle)}`);
        expect(trashed.length + (inPlace ? 1 : 0), 'delete: in place or in the trash, once').toBe(
          1,
        );
        if (status === 204) expect(inPlace, 'delete answered 204').toBeUndefined();
        // Nothing in the trash folder without its row (only the admin deletes here).
        const trashBase = path.join(dataDir, 'trash');
        for (const owner of await readdir(trashBase).catch(() => [] as string[])) {
          const entries = await readdir(path.join(trashBase, owner));
          expect(
            entries.filter((entry) => !trash.some((item) => item.id === entry)),
            'delete: no trash folder entry without its row',
          ).toEqual([]);
        }
        if (inPlace) expect(inPlace, 'delete: in place, whole').toBe(sha(data));
        else {
          const raw = await fetch(`${url}/api/trash/${trashed[0]!.id}/raw`, {
            headers: { 'X-Auth': token },
          });
          expect(raw.status).toBe(200);
          expect(sha(Buffer.from(await raw.arrayBuffer())), 'delete: whole in the trash').toBe(
            sha(data),
          );
        }
      },
    } satisfies Operation;
  })(),
];

/** Runs every operation, each from a random start within `spread` ms; resolves when all settle. */
async function runAll(cycle: number, trigger: Trigger, spread: number, kill: () => Promise<void>) {
  await Promise.all(
    operations.map(async (operation) => {
      await delay(random() * spread);
      await operation.run(cycle, trigger, kill);
    }),
  );
}

function describeTrigger(trigger: Trigger): string {
  switch (trigger.kind) {
    case 'post-bytes':
      return `after ${trigger.afterBytes} bytes of the POST upload's body`;
    case 'tus-acknowledged':
      return `once TUS chunk ${trigger.chunk} was acknowledged`;
    case 'tus-bytes':
      return `after ${trigger.afterBytes} bytes of TUS chunk ${trigger.chunk}`;
    case 'moment':
      return `${trigger.afterMs.toFixed(1)} ms into the cycle`;
  }
}

describe(`a server killed with SIGKILL (seed ${SEED})`, () => {
  it('loses nothing and leaves no temp file, whatever operation it was in', async () => {
    // A cycle without a kill: every operation works, and how long they take sets the kill window.
    const never = () => Promise.resolve();
    for (const operation of operations) await operation.prepare(CYCLES);
    const started = performance.now();
    await runAll(CYCLES, { kind: 'moment', afterMs: Infinity }, 0, never);
    const took = performance.now() - started;
    for (const operation of operations) await operation.check(CYCLES);
    expect(await tempsUnder(root)).toEqual([]);

    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const chunks = 8;
      const trigger: Trigger = [
        (): Trigger => ({ kind: 'post-bytes', afterBytes: between(0, 12 * MiB) }),
        (): Trigger => ({ kind: 'moment', afterMs: random() * took }),
        (): Trigger => ({ kind: 'tus-acknowledged', chunk: between(0, chunks - 1) }),
        (): Trigger => ({
          kind: 'tus-bytes',
          chunk: between(0, chunks - 1),
          afterBytes: between(0, TUS_CHUNK),
        }),
      ][cycle % 4]!();
      const label = `cycle ${cycle}, killed ${describeTrigger(trigger)}`;
      try {
        for (const operation of operations) await operation.prepare(cycle);
        let killing: Promise<void> | undefined;
        const kill = () => (killing ??= servers.kill(child));
        const moment = trigger.kind === 'moment' ? delay(trigger.afterMs).then(kill) : undefined;
        await runAll(cycle, trigger, took / 2, kill);
        // Every operation ran to its end without the trigger (an upload smaller than the point):
        // the kill comes now.
        await (moment ?? kill());
        await killing;
        await checkDatabase();
        child = await servers.start({ root, dataDir, database: database.database, port });
        token = await loginAdmin(url);
        // The staging file of the interrupted TUS upload is meant to survive (until it resumes).
        const staging = new RegExp(`^tus/${TEMP_PREFIX}tus-[0-9a-f]+$`);
        const temps = (await tempsUnder(root)).filter((name) => !staging.test(name));
        expect(temps, 'no temp file under the root').toEqual([]);
        for (const operation of operations) await operation.check(cycle);
        expect(await tempsUnder(root), 'no temp file after the resumed upload').toEqual([]);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${label}: ${message}\n(replay with CRASH_SEED=${SEED})`, { cause: error });
      }
    }
  }, 600_000);
});
