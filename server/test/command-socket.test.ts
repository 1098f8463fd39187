import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { COMMAND_CLOSE, type CommandRun } from '@cabinet/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandUrl, openCommand, runCommand } from '../testing/command-socket.ts';
import { startTestServer, type TestServer, type TestUser } from '../testing/test-server.ts';

let server: TestServer;
/** Allowed ls, echo, pwd, env, cat: nothing that runs other programs. */
let ann: TestUser;
/** Also allowed sh and sleep, for commands that take time. */
let sam: TestUser;
let home: string;

const SECRET_NAME = 'CABINET_TEST_SECRET_VALUE';
const url = (dir: string, query = '') => commandUrl(server.url, dir, query);
const auth = (user: TestUser) => ({ 'X-Auth': user.token });

/** Every file under a folder, relative, sorted: what "the files are untouched" compares. */
function tree(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

/** Processes whose command line starts with `prefix` (read from /proc). */
function processesWith(prefix: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.startsWith(prefix)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 25));
}

beforeAll(async () => {
  process.env[SECRET_NAME] = 'do-not-leak';
  server = await startTestServer({ config: { enableExec: true } });
  home = path.join(server.root, 'users', 'ann');
  await mkdir(path.join(home, 'sub'), { recursive: true });
  await mkdir(path.join(home, 'blocked'), { recursive: true });
  await writeFile(path.join(home, 'x'), 'keep me');
  await writeFile(path.join(home, 'sub', 'inner.txt'), 'inner');
  ann = await server.createUser({
    scope: '/users/ann',
    commands: ['ls', 'echo', 'pwd', 'env', 'cat'],
    rules: [{ regex: false, allow: false, path: '/blocked', regexp: null }],
  });
  sam = await server.createUser({ scope: '/users/ann', commands: ['sh', 'sleep', 'echo'] });
});
afterAll(async () => {
  delete process.env[SECRET_NAME];
  await server.close();
});

describe('GET /api/command/{dir}', () => {
  it('runs an allowed command in the folder and closes with 1000', async () => {
    const end = await runCommand(url('sub'), 'ls', auth(ann));
    expect(end.messages).toEqual(['inner.txt']);
    expect(end.code).toBe(COMMAND_CLOSE.success);
  });

  it('streams each line as it is produced, not when the command ends', async () => {
    const open = await openCommand(
      url(''),
      `sh -c 'echo first; while [ ! -e go ]; do sleep 0.05; done; echo second'`,
      auth(sam),
    );
    await open.waitFor((m) => m === 'first');
    expect(open.messages).toEqual(['first']);
    // The command is still waiting for this file: "first" reached us while it ran.
    await writeFile(path.join(home, 'go'), '');
    const end = await open.end;
    expect(end.messages).toEqual(['first', 'second']);
    expect(end.code).toBe(COMMAND_CLOSE.success);
  });

  it('runs pipelines and lists whose every command is allowed, && and || by exit status', async () => {
    const end = await runCommand(url(''), 'echo a b | cat && ls sub; ls none || echo fallback', {
      ...auth(ann),
    });
    expect(end.messages[0]).toBe('a b');
    expect(end.messages[1]).toBe('inner.txt');
    expect(end.messages.at(-1)).toBe('fallback');
    expect(end.code).toBe(COMMAND_CLOSE.success);
  });

  it('closes with 1011 and the exit status when the command fails', async () => {
    const end = await runCommand(url(''), 'ls does-not-exist', auth(ann));
    expect(end.code).toBe(COMMAND_CLOSE.failed);
    expect(end.reason).toBe('Exit status 2');
    expect(end.messages.join('\n')).toMatch(/does-not-exist/);
  });

  it.each([
    ['ls; rm -rf x', 'Command not allowed.'],
    ['ls && rm x', 'Command not allowed.'],
    ['ls | sh', 'Command not allowed.'],
    ['/bin/rm x', 'Command not allowed.'],
    ['./x', 'Command not allowed.'],
    ['$(rm x)', 'Refused: command substitution ($(…)) is not allowed.'],
    ['echo `rm x`', 'Refused: command substitution (`…`) is not allowed.'],
    ['echo hi > file', 'Refused: redirection (>) is not allowed.'],
    ['ls &', 'Refused: running a command in the background (&) is not allowed.'],
    ['ls\nrm x', 'Refused: more than one line (a newline between commands) is not allowed.'],
    ['ls *', 'Refused: file name globbing (*) is not allowed.'],
    ['echo $HOME', 'Refused: variable expansion ($HOME) is not allowed.'],
  ])('refuses %j with %j and leaves the files untouched', async (line, message) => {
    const before = tree(home);
    const end = await runCommand(url(''), line, auth(ann));
    expect(end.messages[0]).toBe(message);
    expect(end.code).toBe(COMMAND_CLOSE.notAllowed);
    expect(tree(home)).toEqual(before);
    expect(readFileSync(path.join(home, 'x'), 'utf8')).toBe('keep me');
  });

  it('says when an allowed command is not installed', async () => {
    const ghost = await server.createUser({ scope: '/users/ann', commands: ['no-such-program-x'] });
    const end = await runCommand(url(''), 'no-such-program-x --help', auth(ghost));
    expect(end.messages).toEqual(['no-such-program-x: command not found']);
    expect(end.code).toBe(COMMAND_CLOSE.failed);
    expect(end.reason).toBe('Exit status 127');
  });

  it('names the command that is not on the list', async () => {
    const end = await runCommand(url(''), 'ls && rm x', auth(ann));
    expect(end.messages[1]).toBe('"rm" is not one of the commands you may run.');
  });

  it('refuses a user without the execute permission', async () => {
    const noExec = await server.createUser({
      scope: '/users/ann',
      commands: ['ls'],
      perm: { execute: false },
    });
    const end = await runCommand(url(''), 'ls', auth(noExec));
    expect(end.messages).toEqual(['Command not allowed.']);
    expect(end.code).toBe(COMMAND_CLOSE.notAllowed);
  });

  it('gives commands PATH, HOME (the scope folder) and LANG, and none of the server variables', async () => {
    const end = await runCommand(url(''), 'env', auth(ann));
    const names = end.messages.map((line) => line.split('=')[0]).sort();
    expect(names).toEqual(['HOME', 'LANG', 'PATH']);
    expect(end.messages).toContain(`HOME=${realpathSync(home)}`);
    expect(end.messages.join('\n')).not.toContain('do-not-leak');
  });

  it('runs in the requested folder of the scope', async () => {
    const end = await runCommand(url('sub'), 'pwd', auth(ann));
    expect(end.messages).toEqual([realpathSync(path.join(home, 'sub'))]);
  });

  it.each([
    ['a folder the rules block', 'blocked'],
    ['a missing folder', 'nowhere'],
    ['a file', 'x'],
  ])('refuses to run in %s', async (_what, dir) => {
    const end = await runCommand(url(dir), 'pwd', auth(ann));
    expect(end.code).toBe(COMMAND_CLOSE.notAllowed);
    expect(end.messages).toHaveLength(1);
    expect(end.messages[0]).not.toContain(server.root);
  });

  it('kills the whole process group when the socket closes', async () => {
    const marker = '313.25';
    const open = await openCommand(
      url(''),
      `sh -c 'sleep ${marker} & echo started; sleep ${marker}'`,
      auth(sam),
    );
    await open.waitFor((m) => m === 'started');
    await until(() => processesWith(`sleep ${marker}`).length === 2);
    open.socket.close();
    await until(() => processesWith(`sleep ${marker}`).length === 0);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it('authenticates before the upgrade: no token is a 401', async () => {
    await expect(openCommand(url(''), 'ls')).rejects.toThrow('HTTP 401');
  });

  it('accepts the token from the auth query parameter and from the auth cookie', async () => {
    const byQuery = await runCommand(url('sub', `?auth=${ann.token}`), 'ls');
    expect(byQuery.messages).toEqual(['inner.txt']);
    const byCookie = await runCommand(url('sub'), 'ls', { Cookie: `auth=${ann.token}` });
    expect(byCookie.messages).toEqual(['inner.txt']);
  });

  it('refuses a handshake from another origin with 403', async () => {
    await expect(
      openCommand(url(''), 'ls', { Cookie: `auth=${ann.token}`, Origin: 'https://evil.example' }),
    ).rejects.toThrow('HTTP 403');
    const sameOrigin = await runCommand(url('sub'), 'ls', {
      ...auth(ann),
      Origin: server.url,
    });
    expect(sameOrigin.messages).toEqual(['inner.txt']);
  });

  it('answers a plain GET that does not upgrade with 426', async () => {
    const response = await server.fetch('/api/command/', { token: ann.token });
    expect(response.status).toBe(426);
  });

  it.each([
    ['redirected to its clean form', '/api/command/sub//..//x'],
    ['to no route', '/api/no-such-route'],
    ['to a page', '/files/'],
  ])('ends the connection of an upgrade answered over HTTP (%s)', async (_case, target) => {
    // Node detaches an upgrade's socket from the HTTP server: left open after an ordinary answer it
    // would outlive the answer and hold a shutdown (found by test/path-fuzz.test.ts).
    const { hostname: host, port } = new URL(server.url);
    const socket = net.connect(Number(port), host);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n` +
        `X-Auth: ${ann.token}\r\n\r\n`,
    );
    await closed;
    expect(Buffer.concat(received).toString('latin1')).toMatch(/^HTTP\/1\.1 (301|404|200) /);
  });

  it('runs through the configured shell with every word quoted', async () => {
    await server.updateSettings({ shell: ['/bin/sh', '-c'] });
    try {
      const end = await runCommand(url(''), `echo 'a $HOME;b' "c'd" | cat`, auth(ann));
      expect(end.messages).toEqual([`a $HOME;b c'd`]);
      const refused = await runCommand(url(''), 'ls && rm x', auth(ann));
      expect(refused.messages[0]).toBe('Command not allowed.');
      expect(existsSync(path.join(home, 'x'))).toBe(true);
    } finally {
      await server.updateSettings({ shell: [] });
    }
  });

  it('records every run for administrators', async () => {
    await runCommand(url('sub'), 'pwd', auth(ann));
    await runCommand(url(''), 'ls; rm -rf x', auth(ann));
    const response = await server.fetch('/api/command-runs?limit=2', { token: server.admin.token });
    expect(response.status).toBe(200);
    const runs = (await response.json()) as CommandRun[];
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({
      kind: 'command',
      username: ann.user.username,
      line: 'ls; rm -rf x',
      outcome: 'refused',
      exitCode: null,
    });
    expect(runs[1]).toMatchObject({ path: '/sub', line: 'pwd', outcome: 'exited', exitCode: 0 });
    expect(Date.parse(runs[1]!.startedAt)).not.toBeNaN();
    expect((await server.fetch('/api/command-runs', { token: ann.token })).status).toBe(403);
    expect(
      (await server.fetch('/api/command-runs?limit=x', { token: server.admin.token })).status,
    ).toBe(400);
  });
});

describe('limits and a server without execution', () => {
  let limited: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    limited = await startTestServer({
      config: { enableExec: true, commandTimeout: 1, commandOutputLimit: 2000, baseURL: '/cab' },
    });
    user = await limited.createUser({ commands: ['sh', 'sleep', 'yes', 'echo'] });
  });
  afterAll(() => limited.close());

  it('serves the socket under the base URL', async () => {
    expect(limited.url).toMatch(/\/cab$/);
    const end = await runCommand(commandUrl(limited.url, ''), 'echo based', auth(user));
    expect(end.messages).toEqual(['based']);
  });

  it('stops a command that runs past the time limit', async () => {
    const end = await runCommand(commandUrl(limited.url, ''), 'sleep 300', auth(user));
    expect(end.messages).toEqual(['Stopped: the command ran longer than 1 second.']);
    expect(end.code).toBe(COMMAND_CLOSE.failed);
  });

  it('stops a command that prints more than the output limit', async () => {
    const end = await runCommand(commandUrl(limited.url, ''), 'yes', auth(user));
    expect(end.messages.at(-1)).toBe(
      'Stopped: the command printed more than 2000 bytes of output.',
    );
    const printed = end.messages.slice(0, -1).join('\n').length;
    expect(printed).toBeLessThanOrEqual(2000);
    expect(end.code).toBe(COMMAND_CLOSE.failed);
  });

  it('refuses every command when execution is disabled', async () => {
    const off = await startTestServer();
    try {
      const admin = { 'X-Auth': off.admin.token };
      await off.fetch('/api/users', { method: 'GET', token: off.admin.token });
      const end = await runCommand(commandUrl(off.url, ''), 'ls', admin);
      expect(end.messages).toEqual(['Command not allowed.']);
      expect(end.code).toBe(COMMAND_CLOSE.notAllowed);
    } finally {
      await off.close();
    }
  });
});
