import { describe, expect, it } from 'vitest';
import { runLine } from './run-line.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

function line(...commands: string[][]) {
  return { steps: [{ operator: ';' as const, commands }], background: false };
}

describe('runLine', () => {
  it('names a program that is not installed, by its code and not by its message', async () => {
    const lines: string[] = [];
    const result = await runLine(line(['no-such-program-for-cabinet', '--version']), {
      cwd: '/',
      env,
      shell: [],
      timeoutMs: 30_000,
      outputLimit: 0,
      onLine: (text) => lines.push(text),
    });
    expect(result.exitCode).toBe(127);
    expect(result.notInstalled).toEqual(['no-such-program-for-cabinet']);
    expect(lines).toEqual(['no-such-program-for-cabinet: command not found']);
  });

  it('reports no missing program when every one started, whatever its exit status', async () => {
    const result = await runLine(line(['sh', '-c', 'exit 127']), {
      cwd: '/',
      env,
      shell: [],
      timeoutMs: 30_000,
      outputLimit: 0,
    });
    expect(result.exitCode).toBe(127);
    expect(result.notInstalled).toEqual([]);
  });
});
