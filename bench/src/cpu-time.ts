/**
 * CPU time of server processes, read from /proc: how a measurement's CPU was shared between the
 * Cabinet instances, the balancer and the client on a machine with fewer cores than processes,
 * and whether freshly started instances have finished their start-up work (the search index walk)
 * before anything is timed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Clock ticks per second of /proc's times (100 on Linux unless the kernel was built otherwise). */
function clockTicks(): number {
  const result = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(result.stdout?.trim());
  return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
}

/** Reads CPU seconds (user + system, all threads) of processes; one instance per run. */
export class CpuClock {
  private readonly ticks = clockTicks();

  /** CPU seconds `pid` has used so far (0 once it is gone). */
  seconds(pid: number): number {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
      return (Number(fields[11]) + Number(fields[12])) / this.ticks;
    } catch {
      return 0;
    }
  }

  /** CPU seconds every process on the machine has used so far (busy time of all cores). */
  machineSeconds(): number {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu user nice system idle iowait irq softirq steal ...: all but idle and iowait are busy.
    const [user, nice, system, , , irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (
      ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) /
      this.ticks
    );
  }

  /** CPU seconds of `pid` and its direct children (an nginx master and its workers). */
  withChildren(pid: number): number {
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      // the process is gone, or the kernel does not list children
    }
    return children.reduce((sum, child) => sum + this.seconds(child), this.seconds(pid));
  }

  /**
   * Resolves once every process in `pids` used less than `maxShare` of a core over one `windowMs`
   * (so a search index build or a settling collection is over), or after `maxSeconds`; returns
   * whether they went idle.
   */
  async waitUntilIdle(
    pids: readonly number[],
    { windowMs = 1000, maxShare = 0.05, maxSeconds = 120 } = {},
  ): Promise<boolean> {
    const deadline = Date.now() + maxSeconds * 1000;
    while (Date.now() < deadline) {
      const before = pids.map((pid) => this.seconds(pid));
      await sleep(windowMs);
      const busy = pids.some(
        (pid, i) => (this.seconds(pid) - (before[i] ?? 0)) / (windowMs / 1000) >= maxShare,
      );
      if (!busy) return true;
    }
    return false;
  }
}
