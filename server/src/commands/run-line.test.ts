import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runLine } from './run-line.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

function line(...commands: string[][]) {
  return { steps: [{ operator: ';' as const, commands }], background: false };
}

/** A run from `/` with the test's environment, no shell, no output kept. */
const OPTIONS = { cwd: '/', env, shell: [], timeoutMs: 30_000, outputLimit: 0 };

describe('runLine', () => {
  it('names a program that is not installed, by its code and not by its message', async () => {
    const lines: string[] = [];
    const result = await runLine(line(['no-such-program-for-cabinet', '--version']), {
      ...OPTIONS,
      onLine: (text) => lines.push(text),
    });
    expect(result.exitCode).toBe(127);
    expect(result.notInstalled).toEqual(['no-such-program-for-cabinet']);
    expect(lines).toEqual(['no-such-program-for-cabinet: command not found']);
  });

  it('reports no missing program when every one started, whatever its exit status', async () => {
    const result = await runLine(line(['sh', '-c', 'exit 127']), {
      ...OPTIONS,
    });
    expect(result.exitCode).toBe(127);
    expect(result.notInstalled).toEqual([]);
  });

  it('starts each program of a pipeline by the name typed, leading a group in the server’s session', async () => {
    const lines: string[] = [];
    const result = await runLine(line(['cat', '/proc/self/cmdline'], ['tr', '\\0', ' ']), {
      ...OPTIONS,
      onLine: (text) => lines.push(text),
    });
    expect(result.exitCode).toBe(0);
    // The program sees the name it was asked by, not the path it was found at.
    expect(lines).toEqual(['cat /proc/self/cmdline ']);
    const stats: string[] = [];
    await runLine(line(['cat', '/proc/self/stat']), {
      ...OPTIONS,
      onLine: (text) => stats.push(text),
    });
    const fields = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [, , group, session] = fields(stats[0]!);
    expect(group).toBe(stats[0]!.split(' ')[0]);
    expect(session).toBe(fields(await readFile('/proc/self/stat', 'utf8'))[3]);
  });
});
