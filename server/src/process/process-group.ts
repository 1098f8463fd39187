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

/**
 * The warm leader's script: it makes its group at once, then waits for what to run, sent on its
 * stdin as NUL-separated fields (folder, count of variables, `NAME=value` each, program path,
 * argv) ended by closing the pipe; nothing sent (the pipe closed empty) means not wanted. It sets
 * exactly that environment, moves to the folder, reopens stdin on /dev/null and execs the program,
 * which keeps its pid and its group.
 */
const WARM_SCRIPT =
  'setpgrp(0, 0) or die "setpgid: $!\\n"; local $/; my $spec = <STDIN>; ' +
  'exit 0 unless defined $spec && length $spec; my @f = split /\\0/, $spec, -1; ' +
  'my $cwd = shift @f; my $n = shift @f; %ENV = (); ' +
  'for (1 .. $n) { my ($k, $v) = split /=/, shift(@f), 2; $ENV{$k} = $v; } ' +
  'my $p = shift @f; open STDIN, "<", "/dev/null" or die "stdin: $!\\n"; ' +
  'chdir $cwd or do { print STDERR "$cwd: $!\\n"; exit 127 }; ' +
  'exec { $p } @f; print STDERR "$f[0]: $!\\n"; exit 127;';

/**
 * A group leader started before the program it will run is known (a Hugo preview starts one when
 * the request arrives): perl's own start (3–10 ms on a busy machine, docs/commands.md) then runs
 * while the request's checks do, instead of after them. It is spawned with an empty environment
 * and stdin a pipe; `run` hands it the program once, `dispose` stops it when it was not used. The
 * program gets what `spawnInGroup` gives it: its own group in the server's session, exactly the
 * environment given, argv with no shell, stdin closed (`/dev/null`).
 */
export class WarmLeader {
  private readonly child: ChildProcess;
  private used = false;

  constructor(leader: string) {
    this.child = spawn(leader, ['-e', WARM_SCRIPT], {
      cwd: '/',
      env: {},
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
      detached: false,
    });
    // A leader that died before it was handed a program refuses the write; `run` then says so.
    this.child.stdin!.on('error', () => undefined);
    this.child.on('error', () => undefined);
  }

  /** The leader's pid, which the program it runs keeps. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Starts `argv` (argv[0] an absolute path; argv[1..] as the program sees them, its name first)
   * in the leader; undefined when it was used already or has exited (spawn normally then). The
   * caller listens to the child's events in the same tick.
   */
  run(
    path: string,
    argv: readonly string[],
    options: { cwd?: string; env: Readonly<Record<string, string>> },
  ): ChildProcess | undefined {
    const child = this.child;
    const gone = child.pid === undefined || child.exitCode !== null || child.signalCode !== null;
    if (this.used || gone || !child.stdin) {
      return undefined;
    }
    const vars = Object.entries(options.env).map(([name, value]) => `${name}=${value}`);
    const fields = [options.cwd ?? process.cwd(), String(vars.length), ...vars, path, ...argv];
    // NUL cannot occur in a path, an argument or a variable: a field holding one is refused.
    if (fields.some((field) => field.includes('\0'))) return undefined;
    this.used = true;
    child.stdin.end(fields.join('\0'));
    return child;
  }

  /** Stops the leader unless it was handed a program (then the program's run owns it). */
  dispose(): void {
    if (this.used) return;
    this.used = true;
    killGroup(this.child);
  }
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
