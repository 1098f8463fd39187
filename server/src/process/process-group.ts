import { spawn, type ChildProcess } from 'node:child_process';

export type { ChildProcess };

/**
 * The one place a child process is started (issue 44). Every child leads a process group of its
 * own, so stopping it (a time limit, a client that left, the server stopping) kills what it
 * started too: soffice forks, a shell pipeline's commands, a compressor's helpers.
 */
export interface GroupSpawnOptions {
  cwd?: string;
  /** The child's whole environment: nothing of the server's own is inherited. */
  env: Readonly<Record<string, string>>;
  /** `pipe` when the caller writes the child's input (a compressor, a pipeline's next step). */
  stdin: 'ignore' | 'pipe';
}

/** Starts `argv[0]` (a path or a name looked up on the given env's PATH) with argv, never a shell. */
export function spawnInGroup(argv: readonly string[], options: GroupSpawnOptions): ChildProcess {
  const [command, ...args] = argv;
  if (!command) throw new Error('spawnInGroup: empty argv');
  return spawn(command, args, {
    cwd: options.cwd,
    env: { ...options.env },
    detached: true,
    stdio: [options.stdin, 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
}

/** Kills a child's whole process group (it leads one: see spawnInGroup); a gone group is fine. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Whether an error from starting a child means the program is not installed. */
export function isNotInstalled(error: NodeJS.ErrnoException): boolean {
  return error.code === 'ENOENT';
}
