import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../test/helpers/eventually.ts';
import { alive, pidsRunning, statFields } from '../../test/helpers/processes.ts';
import { runProcess, streamProcess, type RunResult } from './run-process.ts';

const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 1024 * 1024 };
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'run-process-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('runProcess', () => {
  it('passes arguments as they are, with no shell to expand them', async () => {
    const result = await runProcess('printf', ['%s', '$(echo hi); * `id`'], LIMITS);
    expect(result).toEqual({ kind: 'ok', stdout: Buffer.from('$(echo hi); * `id`') });
  });

  it('answers not-installed for a program that is not on PATH', async () => {
    const result = await runProcess('cabinet-no-such-decoder', [], LIMITS);
    expect(result).toEqual({ kind: 'not-installed', command: 'cabinet-no-such-decoder' });
  });

  it('reports the exit code and the end of stderr of a failing program', async () => {
    const result = await runProcess(
      'sh',
      ['-c', 'echo first >&2; echo broken file >&2; exit 3'],
      LIMITS,
    );
    expect(result).toMatchObject({ kind: 'failed', code: 3 });
    expect((result as Extract<RunResult, { kind: 'failed' }>).stderr).toContain('broken file');
  });

  it('feeds the input to the program, which sees its end', async () => {
    async function* input() {
      yield Buffer.from('b\n');
      yield Buffer.from('a\nc\n');
    }
    const result = await runProcess('sort', [], { ...LIMITS, input: input() });
    expect(result).toEqual({ kind: 'ok', stdout: Buffer.from('a\nb\nc\n') });
    // A program that stops reading early does not fail the run: its exit says how it went.
    const early = await runProcess('head', ['-c', '1'], {
      ...LIMITS,
      input: Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024, 0x61)),
    });
    expect(early).toEqual({ kind: 'ok', stdout: Buffer.from('a') });
  });

  it('counts the exit codes it is told mean success as success', async () => {
    const run = (successCodes?: number[]) =>
      runProcess('sh', ['-c', 'printf partly; exit 1'], { ...LIMITS, successCodes });
    expect(await run([1])).toEqual({ kind: 'ok', stdout: Buffer.from('partly') });
    expect(await run()).toMatchObject({ kind: 'failed', code: 1 });
  });

  it('runs with an empty environment and a throw-away HOME', async () => {
    process.env.CABINET_SECRET_FOR_TEST = 'leak';
    try {
      const result = await runProcess(
        'sh',
        ['-c', 'env; test -d "$HOME" && echo home-exists'],
        LIMITS,
      );
      expect(result.kind).toBe('ok');
      const text = (result as Extract<RunResult, { kind: 'ok' }>).stdout.toString();
      expect(text).not.toContain('CABINET_SECRET_FOR_TEST');
      expect(text).toContain('home-exists');
      const home = /^HOME=(.*)$/m.exec(text)?.[1] ?? '';
      expect(home).toMatch(/cabinet-home-/);
      await expect(stat(home)).rejects.toThrow();
    } finally {
      delete process.env.CABINET_SECRET_FOR_TEST;
    }
  });

  it('runs in the given folder with the given environment', async () => {
    const result = await runProcess('sh', ['-c', 'pwd; echo "$ONLY"'], {
      ...LIMITS,
      cwd: dir,
      env: { ONLY: 'this' },
    });
    expect(result.kind === 'ok' && result.stdout.toString()).toBe(`${dir}\nthis\n`);
  });

  it('kills the whole process group when the wall time is up', async () => {
    const pidFile = path.join(dir, 'pid');
    const result = await runProcess('sh', ['-c', `sleep 60 & echo $! > ${pidFile}; wait`], {
      ...LIMITS,
      timeoutMs: 500,
    });
    expect(result.kind).toBe('timed-out');
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    await until(async () => !(await alive(grandchild)));
  });

  it('stops a program that writes more than the output cap', async () => {
    const result = await runProcess('head', ['-c', '10000000', '/dev/zero'], {
      ...LIMITS,
      maxOutputBytes: 1000,
    });
    expect(result.kind).toBe('output-too-large');
  });

  it('kills the program when the signal aborts', async () => {
    const controller = new AbortController();
    const running = runProcess('sleep', ['60'], { ...LIMITS, signal: controller.signal });
    controller.abort();
    expect(await running).toEqual({ kind: 'cancelled' });
  });

  it('leaves nothing running when aborted the moment it starts', async () => {
    // A duration no other process uses, to find this one among all.
    const seconds = `${60 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    const controller = new AbortController();
    const running = runProcess('sleep', [seconds], { ...LIMITS, signal: controller.signal });
    // Aborted as soon as the program is on its way, before it could settle in its group.
    await until(async () => (await pidsRunning(seconds)).length > 0);
    controller.abort();
    expect(await running).toEqual({ kind: 'cancelled' });
    await until(async () => (await pidsRunning(seconds)).length === 0);
  });

  it('runs the program as the leader of a process group of its own, in the server’s session', async () => {
    // After "(comm)": state, parent, process group, session.
    const result = await runProcess('cat', ['/proc/self/stat'], LIMITS);
    if (result.kind !== 'ok') throw new Error(result.kind);
    const stat = result.stdout.toString();
    const pid = stat.split(' ')[0];
    const [, , group, session] = statFields(stat);
    expect(group).toBe(pid);
    const [, , ownGroup, ownSession] = statFields(await readFile('/proc/self/stat', 'utf8'));
    expect(group).not.toBe(ownGroup);
    // A session of its own would be a scheduling group of its own (process-group.ts).
    expect(session).toBe(ownSession);
  });

  it('limits the address space of the program', async () => {
    const grab = ['-c', 'b = bytearray(300 * 1024 * 1024); print(len(b))'];
    const free = await runProcess('/usr/bin/python3', grab, LIMITS);
    expect(free.kind).toBe('ok');
    const limited = await runProcess('/usr/bin/python3', grab, {
      ...LIMITS,
      memoryBytes: 100 * 1024 * 1024,
    });
    expect(limited.kind).toBe('failed');
    expect((limited as Extract<RunResult, { kind: 'failed' }>).stderr).toContain('MemoryError');
  });
});

describe('streamProcess', () => {
  it('streams the output and settles ok', async () => {
    const run = await streamProcess('head', ['-c', '300000', '/dev/zero'], LIMITS);
    if (!('stdout' in run)) throw new Error(run.kind);
    let bytes = 0;
    for await (const chunk of run.stdout) bytes += (chunk as Buffer).length;
    expect(bytes).toBe(300000);
    expect((await run.result).kind).toBe('ok');
  });

  it('kills the program when the reader leaves', async () => {
    const run = await streamProcess('sh', ['-c', 'while true; do echo data; done'], LIMITS);
    if (!('stdout' in run)) throw new Error(run.kind);
    for await (const _chunk of run.stdout) break;
    expect((await run.result).kind).toBe('cancelled');
  });
});
