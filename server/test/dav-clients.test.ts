import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { createAppPassword } from './helpers/dav.ts';

let server: TestServer;
let password: string;
let work: string;

beforeAll(async () => {
  server = await startTestServer();
  password = (await createAppPassword(server, server.admin.token, { name: 'clients' })).password;
  work = await mkdtemp(path.join(os.tmpdir(), 'cabinet-dav-clients-'));
});

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

function run(
  command: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      command,
      args,
      { env: { ...process.env, HOME: work, ...options.env }, timeout: 120_000, cwd: work },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** rclone's `:webdav:` backend configured through its environment, no config file. */
async function rclone(...args: string[]) {
  const obscured = await run('rclone', ['obscure', password]);
  return run('rclone', ['--config', '/dev/null', ...args], {
    env: {
      RCLONE_WEBDAV_URL: `${server.url}/dav/`,
      RCLONE_WEBDAV_VENDOR: 'other',
      RCLONE_WEBDAV_USER: server.admin.user.username,
      RCLONE_WEBDAV_PASS: obscured.output.trim(),
    },
  });
}

describe('WebDAV clients', () => {
  it('rclone syncs a tree up and down and checks it', async () => {
    const local = path.join(work, 'up');
    await mkdir(path.join(local, 'nested', 'deeper'), { recursive: true });
    await writeFile(path.join(local, 'top.txt'), 'top level\n');
    await writeFile(path.join(local, 'nested', 'ünïcode name.md'), '# notes\n');
    await writeFile(path.join(local, 'nested', 'deeper', 'bytes.bin'), Buffer.alloc(300_000, 7));
    const up = await rclone('sync', local, ':webdav:synced');
    expect(up.output).toBe('');
    expect(up.code).toBe(0);
    expect(
      await readFile(path.join(server.root, 'synced', 'nested', 'ünïcode name.md'), 'utf8'),
    ).toBe('# notes\n');
    const check = await rclone('check', local, ':webdav:synced');
    expect(check.code).toBe(0);
    const down = path.join(work, 'down');
    const back = await rclone('sync', ':webdav:synced', down);
    expect(back.code).toBe(0);
    expect(await readFile(path.join(down, 'nested', 'deeper', 'bytes.bin'))).toEqual(
      Buffer.alloc(300_000, 7),
    );
    expect((await run('rclone', ['--config', '/dev/null', 'check', local, down])).code).toBe(0);
    // A local deletion synced up removes the file on the server.
    await rm(path.join(local, 'top.txt'));
    expect((await rclone('sync', local, ':webdav:synced')).code).toBe(0);
    await expect(readFile(path.join(server.root, 'synced', 'top.txt'))).rejects.toThrow();
  }, 120_000);

  it('cadaver round-trips a file from a script', async () => {
    const netrc = `machine 127.0.0.1\nlogin ${server.admin.user.username}\npassword ${password}\n`;
    await writeFile(path.join(work, '.netrc'), netrc, { mode: 0o600 });
    await writeFile(path.join(work, 'upload.txt'), 'sent by cadaver\n');
    const script =
      'mkcol cad\nput upload.txt cad/file.txt\nget cad/file.txt fetched.txt\nls cad\nquit\n';
    const result = await run('cadaver', [`${server.url}/dav/`], { input: script });
    expect(result.output).toContain('file.txt');
    expect(await readFile(path.join(server.root, 'cad', 'file.txt'), 'utf8')).toBe(
      'sent by cadaver\n',
    );
    expect(await readFile(path.join(work, 'fetched.txt'), 'utf8')).toBe('sent by cadaver\n');
  }, 120_000);
});
