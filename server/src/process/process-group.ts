import { spawn, type ChildProcess } from 'node:child_process';
import { access, constants } from 'node:fs/promises';

export type { ChildProcess };

/**
 * The one place a child process is started (issue 44). Every child leads a process group of its
 * own, so stopping it (a time limit, a client that left, the server stopping) kills what it
 * started too: soffice forks, a shell pipeline's commands, a compressor's helpers.
 *
 * Node makes a group leader only with `detached`, which also starts a new session (setsid). On
 * Linux with autogroup scheduling (the default of most distributions' kernels) a new session is a
 * new scheduling group, and a short-lived child in a fresh group is served late on a busy machine:
 * Hugo's render of one page took 32–87 ms more at the median than the same command in the
 * server's session (docs/benchmarks.md, "Site preview"). So when a group leader is given (perl, found by
 * `findGroupLeader`), the child is started through it: it calls setpgid(0, 0) and execs the
 * program, which keeps its pid, in a process group of its own inside the server's session.
 */
export interface GroupSpawnOptions {
  cwd?: string;
  /** The child's whole environment: nothing of the server's own is inherited. */
  env: Readonly<Record<string, string>>;
  /** `pipe` when the caller writes the child's input (a compressor, a pipeline's next step). */
  stdin: 'ignore' | 'pipe';
  /**
   * The group leader (`findGroupLeader`), used when argv[0] is an absolute path; without it, or
   * when the environment holds variables perl itself reads, the child gets a session of its own.
   */
  leader?: string;
}

/** Where perl is looked for; the server's PATH does not choose the program that starts others. */
const LEADER_PATHS = ['/usr/bin/perl', '/bin/perl', '/usr/local/bin/perl'];

/**
 * Makes its process a group leader and execs the program (an absolute path, then argv with the
 * name the program was asked by), so the program keeps perl's pid; 127 when it cannot be started.
 */
const LEADER_SCRIPT =
  'my $p = shift; setpgrp(0, 0) or die "setpgid: $!\\n"; exec { $p } @ARGV; ' +
  'print STDERR "$ARGV[0]: $!\\n"; exit 127;';

/** perl for `GroupSpawnOptions.leader`, or undefined when it is not installed. */
export async function findGroupLeader(): Promise<string | undefined> {
  for (const candidate of LEADER_PATHS) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not there: the next one.
    }
  }
  return undefined;
}

/** Starts `argv[0]` (a path or a name looked up on the given env's PATH) with argv, never a shell. */
export function spawnInGroup(argv: readonly string[], options: GroupSpawnOptions): ChildProcess {
  const [command, ...args] = argv;
  if (!command) throw new Error('spawnInGroup: empty argv');
  const common = {
    cwd: options.cwd,
    env: { ...options.env },
    stdio: [options.stdin, 'pipe', 'pipe'] as ['ignore' | 'pipe', 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  };
  // perl reads PERL5OPT, PERL5LIB and the like at its start: never through the leader then.
  const perlSafe = !Object.keys(options.env).some((name) => name.startsWith('PERL'));
  if (options.leader && command.startsWith('/') && perlSafe) {
    const name = command.slice(command.lastIndexOf('/') + 1);
    // `--` ends perl's own switches; the indirect `exec { path } list` never goes through a shell.
    return spawn(options.leader, ['-e', LEADER_SCRIPT, '--', command, name, ...args], {
      ...common,
      detached: false,
    });
  }
  return spawn(command, args, { ...common, detached: true });
}

/** Kills a child's whole process group (it leads one: see spawnInGroup); a gone group is fine. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // No such group: gone already, or started through the leader, which has not made its group
    // yet; then it has not started the program either, and stopping it alone is enough (while
    // Node has not reaped it, its pid cannot belong to another process).
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Whether an error from starting a child means the program is not installed. */
export function isNotInstalled(error: NodeJS.ErrnoException): boolean {
  return error.code === 'ENOENT';
}
