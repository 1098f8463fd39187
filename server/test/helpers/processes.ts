// What /proc says of running processes, for tests that start programs and check they are gone.
import { readdir, readFile } from 'node:fs/promises';

/** The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, session… */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Whether a process still runs: a killed one may linger as a zombie until something reaps it. */
export async function alive(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && statFields(stat)[0] !== 'Z';
}

/** Pids of the running processes whose command line holds `marker`. */
export async function pidsRunning(marker: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const line = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (line.includes(marker) && (await alive(Number(pid)))) found.push(Number(pid));
  }
  return found;
}
