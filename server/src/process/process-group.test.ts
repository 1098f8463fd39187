import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { until } from '../../test/helpers/eventually.ts';
import { alive, pidsRunning, statFields } from '../../test/helpers/processes.ts';
import { runLine } from '../commands/run-line.ts';
import { findGroupLeader, WarmLeader } from './process-group.ts';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };

function line(...commands: string[][]) {
  return { steps: [{ operator: ';' as const, commands }], background: false };
}

async function warmLeader(): Promise<WarmLeader> {
  const leader = await findGroupLeader();
  if (!leader) throw new Error('perl is needed by these tests (Debian’s perl-base)');
  return new WarmLeader(leader);
}

describe('a group leader started ahead', () => {
  it('runs the program it is handed later, in its own group in the server’s session, with only the environment given', async () => {
    const warm = await warmLeader();
    process.env.CABINET_SECRET_FOR_TEST = 'leak';
    const lines: string[] = [];
    try {
      const result = await runLine(
        line(['sh', '-c', 'cat /proc/$$/stat; echo "args:$0:$1"; env; pwd; cat', 'a b', '$HOME']),
        {
          cwd: '/tmp',
          env: { ...env, PERL5OPT: '-Mstrict', ODD: 'x=y' },
          shell: [],
          timeoutMs: 30_000,
          outputLimit: 0,
          onLine: (text) => lines.push(text),
          warm,
        },
      );
      expect(result.exitCode).toBe(0);
    } finally {
      delete process.env.CABINET_SECRET_FOR_TEST;
      warm.dispose();
    }
    const [state, , group, session] = statFields(lines[0]!);
    expect(state).toBeDefined();
    // The program kept the leader's pid: the leader started ahead ran it.
    expect(lines[0]!.split(' ')[0]).toBe(String(warm.pid));
    expect(group).toBe(String(warm.pid));
    expect(session).toBe(statFields(await readFile('/proc/self/stat', 'utf8'))[3]);
    // argv as given, no shell of Cabinet's expanding it.
    expect(lines).toContain('args:a b:$HOME');
    const vars = lines.filter((text) => /^[A-Z0-9_]+=/.test(text) && !text.startsWith('PWD='));
    expect(vars.sort()).toEqual(
      [`PATH=${env.PATH}`, 'LANG=C.UTF-8', 'PERL5OPT=-Mstrict', 'ODD=x=y'].sort(),
    );
    expect(lines).toContain('/tmp');
  });

  it('kills what the program started when the run is aborted', async () => {
    const warm = await warmLeader();
    const marker = `cabinet-warm-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const run = runLine(line(['sh', '-c', `sleep 300 & sleep 301; : ${marker}`]), {
      cwd: '/',
      env,
      shell: [],
      timeoutMs: 60_000,
      outputLimit: 0,
      signal: controller.signal,
      warm,
    });
    await until(async () => (await pidsRunning(marker)).length > 0);
    const sleeps = async () => {
      const found: number[] = [];
      for (const pid of await readdir('/proc')) {
        if (!/^\d+$/.test(pid)) continue;
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
        if (stat && statFields(stat)[2] === String(warm.pid) && (await alive(Number(pid))))
          found.push(Number(pid));
      }
      return found;
    };
    await until(async () => (await sleeps()).length >= 3);
    controller.abort();
    const result = await run;
    warm.dispose();
    expect(result.outcome).toBe('aborted');
    await until(async () => (await sleeps()).length === 0);
  });

  it('stops by itself when it is never used', async () => {
    const warm = await warmLeader();
    const pid = warm.pid!;
    await until(() => alive(pid));
    warm.dispose();
    await until(async () => !(await alive(pid)));
  });
});
