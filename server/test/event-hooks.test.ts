import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CommandRun, Settings } from '@cabinet/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';
import { TUS } from './helpers/tus.ts';

let server: TestServer;
let ann: TestUser;
let home: string;
let logDir: string;
let log: string;

/** A hook line that appends `TRIGGER|FILE|DESTINATION|SCOPE|USERNAME|HOME|<server secret>`. */
const RECORD_ENV = () =>
  `sh -c 'echo "$TRIGGER|$FILE|$DESTINATION|$SCOPE|$USERNAME|$HOME|\${HOOK_SECRET-none}" >> ${log}'`;

function logLines(): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Sets these hooks, every other event empty. */
async function hooks(commands: Settings['commands']): Promise<void> {
  const current = await server.ctx.settings.get();
  const empty = Object.fromEntries(Object.keys(current.commands).map((k) => [k, []]));
  await server.updateSettings({ commands: { ...empty, ...commands } });
}

const real = (relative: string) => path.join(realpathSync(home), relative);

beforeAll(async () => {
  process.env.HOOK_SECRET = 'server-secret';
  logDir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-hooks-'));
  log = path.join(logDir, 'hooks.log');
  server = await startTestServer({ config: { enableExec: true } });
  home = path.join(server.root, 'users', 'ann');
  await mkdir(home, { recursive: true });
  ann = await server.createUser({ scope: '/users/ann' });
});
afterAll(async () => {
  delete process.env.HOOK_SECRET;
  await server.close();
  await rm(logDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await rm(log, { force: true });
  await hooks({});
});

describe('event hooks', () => {
  it('fire before and after an upload with FILE, SCOPE, TRIGGER, USERNAME and DESTINATION', async () => {
    await hooks({ before_upload: [RECORD_ENV()], after_upload: [RECORD_ENV()] });
    const response = await server.fetch('/api/resources/up.txt', {
      method: 'POST',
      token: ann.token,
      body: 'hello',
    });
    expect(response.status).toBe(200);
    const expected = (trigger: string) =>
      `${trigger}|${real('up.txt')}|${realpathSync(home)}|/users/ann|${ann.user.username}|${realpathSync(home)}|none`;
    expect(logLines()).toEqual([expected('before_upload'), expected('after_upload')]);
  });

  it.each([
    ['save', 'PUT', '/api/resources/f.txt', 'f.txt', undefined],
    ['delete', 'DELETE', '/api/resources/f.txt', 'f.txt', undefined],
    ['copy', 'PATCH', '/api/resources/f.txt?action=copy&destination=%2Fg.txt', 'f.txt', 'g.txt'],
    [
      'rename',
      'PATCH',
      '/api/resources/f.txt?action=rename&destination=%2Fh.txt',
      'f.txt',
      'h.txt',
    ],
  ])('fire for %s with the right paths', async (event, method, url, file, destination) => {
    await writeFile(path.join(home, 'f.txt'), 'content');
    await hooks({ [`before_${event}`]: [RECORD_ENV()], [`after_${event}`]: [RECORD_ENV()] });
    const response = await server.fetch(url, {
      method,
      token: ann.token,
      body: method === 'PUT' ? 'new' : undefined,
    });
    expect(response.status).toBeLessThan(300);
    const fields = logLines().map((line) => line.split('|'));
    expect(fields.map((f) => f[0])).toEqual([`before_${event}`, `after_${event}`]);
    for (const f of fields) {
      expect(f[1]).toBe(real(file));
      expect(f[2]).toBe(destination ? real(destination) : realpathSync(home));
    }
  });

  it('fire for a folder created by POST and for a resumable upload', async () => {
    await hooks({ before_upload: [RECORD_ENV()], after_upload: [RECORD_ENV()] });
    expect(
      (await server.fetch('/api/resources/made/', { method: 'POST', token: ann.token })).status,
    ).toBe(200);
    const tus = await server.fetch('/api/tus/resumed.bin', {
      method: 'POST',
      token: ann.token,
      headers: { ...TUS, 'Upload-Length': '0' },
    });
    expect(tus.status).toBe(201);
    expect(existsSync(path.join(home, 'resumed.bin'))).toBe(true);
    expect(logLines().map((l) => l.split('|').slice(0, 2).join('|'))).toEqual([
      `before_upload|${real('made')}`,
      `after_upload|${real('made')}`,
      `before_upload|${real('resumed.bin')}`,
      `after_upload|${real('resumed.bin')}`,
    ]);
  });

  it('pass a hostile file name as one argument, never as shell text', async () => {
    const name = `a b;$(touch pwned)'*.txt`;
    await hooks({ before_upload: [`sh -c 'printf "%s\\n" "$#" "$1" >> ${log}' sh $FILE`] });
    const response = await server.fetch(`/api/resources/${encodeURIComponent(name)}`, {
      method: 'POST',
      token: ann.token,
      body: 'x',
    });
    expect(response.status).toBe(200);
    expect(logLines()).toEqual(['1', real(name)]);
    expect(existsSync(path.join(home, 'pwned'))).toBe(false);
  });

  it.each([
    ['upload', 'POST', '/api/resources/new.txt', () => !existsSync(path.join(home, 'new.txt'))],
    [
      'save',
      'PUT',
      '/api/resources/keep.txt',
      () => readFileSync(path.join(home, 'keep.txt'), 'utf8') === 'original',
    ],
    ['delete', 'DELETE', '/api/resources/keep.txt', () => existsSync(path.join(home, 'keep.txt'))],
    [
      'rename',
      'PATCH',
      '/api/resources/keep.txt?action=rename&destination=%2Fmoved.txt',
      () => existsSync(path.join(home, 'keep.txt')) && !existsSync(path.join(home, 'moved.txt')),
    ],
  ])(
    'a failing before_%s hook stops the operation with a clear error and no change',
    async (event, method, url, unchanged) => {
      await writeFile(path.join(home, 'keep.txt'), 'original');
      await hooks({ [`before_${event}`]: ['false'], [`after_${event}`]: [RECORD_ENV()] });
      const response = await server.fetch(url, {
        method,
        token: ann.token,
        body: method === 'POST' || method === 'PUT' ? 'changed' : undefined,
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toBe(
        `400 Bad Request (the before_${event} hook "false" failed with exit status 1)\n`,
      );
      expect(unchanged()).toBe(true);
      expect(logLines()).toEqual([]);
    },
  );

  it('a refused hook line fails its before-hook and says why', async () => {
    await hooks({ before_upload: ['rm $FILE > /dev/null'] });
    const response = await server.fetch('/api/resources/r.txt', {
      method: 'POST',
      token: ann.token,
      body: 'x',
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('redirection (>) is not allowed');
  });

  it('a failing after-hook leaves the completed operation in place', async () => {
    await hooks({ after_save: ['false'] });
    await writeFile(path.join(home, 'done.txt'), 'old');
    const response = await server.fetch('/api/resources/done.txt', {
      method: 'PUT',
      token: ann.token,
      body: 'new',
    });
    expect(response.status).toBe(200);
    expect(readFileSync(path.join(home, 'done.txt'), 'utf8')).toBe('new');
  });

  it('a hook ending in & runs in the background', async () => {
    const go = path.join(logDir, 'go');
    await hooks({
      after_upload: [
        `sh -c 'while [ ! -e ${go} ]; do sleep 0.05; done; echo background >> ${log}' &`,
      ],
    });
    const response = await server.fetch('/api/resources/bg.txt', {
      method: 'POST',
      token: ann.token,
      body: 'x',
    });
    // The reply came while the hook still waits for `go`.
    expect(response.status).toBe(200);
    expect(logLines()).toEqual([]);
    await writeFile(go, '');
    await until(() => logLines().length === 1);
    expect(logLines()).toEqual(['background']);
  });

  it('records every hook run', async () => {
    await hooks({ before_upload: ['true'] });
    await server.fetch('/api/resources/rec.txt', { method: 'POST', token: ann.token, body: 'x' });
    const runs = (await (
      await server.fetch('/api/command-runs?limit=1', { token: server.admin.token })
    ).json()) as CommandRun[];
    expect(runs[0]).toMatchObject({
      kind: 'before_upload',
      username: ann.user.username,
      path: '/rec.txt',
      line: 'true',
      outcome: 'exited',
      exitCode: 0,
    });
  });
});

describe('hooks with a time limit, and without execution', () => {
  it('stops a hook past its time limit and fails its operation', async () => {
    const limited = await startTestServer({ config: { enableExec: true, hookTimeout: 1 } });
    try {
      const user = await limited.createUser();
      const settings = await limited.ctx.settings.get();
      await limited.updateSettings({
        commands: { ...settings.commands, before_upload: ['sleep 271.5'] },
      });
      const response = await limited.fetch('/api/resources/slow.txt', {
        method: 'POST',
        token: user.token,
        body: 'x',
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('ran past its time limit');
      expect(existsSync(path.join(limited.root, 'slow.txt'))).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('never runs hooks when execution is disabled', async () => {
    const off = await startTestServer();
    try {
      const settings = await off.ctx.settings.get();
      await off.updateSettings({ commands: { ...settings.commands, before_upload: ['false'] } });
      const response = await off.fetch('/api/resources/ok.txt', {
        method: 'POST',
        token: off.admin.token,
        body: 'x',
      });
      expect(response.status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
