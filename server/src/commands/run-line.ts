import { constants } from 'node:os';
import {
  findGroupLeader,
  isNotInstalled,
  killGroup,
  spawnInGroup,
  type ChildProcess,
  type WarmLeader,
} from '../process/process-group.ts';
import { findCommand } from '../process/run-process.ts';
import { toShellLine, type ParsedLine } from './command-line.ts';
import { OutputLines } from './output-lines.ts';

/** Why a run ended. */
export type RunOutcome = 'exited' | 'timeout' | 'output-limit' | 'aborted';

export interface RunLineOptions {
  /** Real path of the working folder (the user's scope folder, resolved by ScopedFs). */
  cwd: string;
  /** The whole environment of every process; nothing of the server's own is added. */
  env: Readonly<Record<string, string>>;
  /** A configured shell (`["/bin/sh", "-c"]`): the line, re-quoted, runs through it. Empty: argv. */
  shell: readonly string[];
  /** 0 for no time limit. */
  timeoutMs: number;
  /** Bytes of stdout and stderr together; 0 for no limit. */
  outputLimit: number;
  /** Each line of stdout or stderr, in order of arrival. */
  onLine?: (line: string) => void;
  /** Aborting kills every process of the run (the socket closed, the server stops). */
  signal?: AbortSignal;
  /**
   * A group leader started ahead (process-group.ts): it runs the line's first program when that
   * one is found on PATH, so perl's start is not waited for. The caller disposes of it.
   */
  warm?: WarmLeader;
}

export interface RunResult {
  /** Exit status of the last pipeline that ran (128 + n for a signal, 127 when not found). */
  exitCode: number;
  outcome: RunOutcome;
  durationMs: number;
  /** Programs of the line that could not be started because they are not installed, by name. */
  notInstalled: string[];
}

/** Exit status a shell reports for a command it cannot find or start. */
const NOT_FOUND = 127;

/**
 * Runs a parsed line: pipelines in order, `&&` and `||` by exit status, every process in a process
 * group of its own so that stopping the run (time limit, output limit, abort) kills the commands'
 * children too. stdin is closed; stdout and stderr lines are reported as they arrive.
 */
export async function runLine(parsed: ParsedLine, options: RunLineOptions): Promise<RunResult> {
  const started = Date.now();
  const run = new Run(options);
  try {
    const pipelines =
      options.shell.length > 0
        ? [[[...options.shell, toShellLine(parsed)]]]
        : parsed.steps.map((s) => s.commands);
    let status = 0;
    for (let i = 0; i < pipelines.length && !run.stopped; i++) {
      const operator = options.shell.length > 0 ? ';' : parsed.steps[i]!.operator;
      if (operator === '&&' && status !== 0) continue;
      if (operator === '||' && status === 0) continue;
      status = await run.pipeline(pipelines[i]!);
    }
    return {
      exitCode: status,
      outcome: run.stopped ?? 'exited',
      durationMs: Date.now() - started,
      notInstalled: run.notInstalled,
    };
  } finally {
    run.dispose();
  }
}

class Run {
  stopped: RunOutcome | undefined;
  readonly notInstalled: string[] = [];
  private readonly live = new Set<ChildProcess>();
  /** Every process started, live or not: what they left running in their groups goes too. */
  private readonly started: ChildProcess[] = [];
  private readonly timer: NodeJS.Timeout | undefined;
  private outputBytes = 0;
  private readonly onAbort = () => this.stop('aborted');

  constructor(private readonly options: RunLineOptions) {
    // 0 (or less) configures no time limit.
    this.timer =
      options.timeoutMs > 0 ? setTimeout(() => this.stop('timeout'), options.timeoutMs) : undefined;
    if (options.signal?.aborted) this.stopped = 'aborted';
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Starts the commands of one pipeline, stdout of each into stdin of the next; the last's status. */
  async pipeline(commands: string[][]): Promise<number> {
    // Each program is found on the run's PATH first, so the group leader can start it by its path
    // (process-group.ts); a pipeline with a program not found starts as before and reports it.
    const [leader, ...paths] = await Promise.all([
      findGroupLeader(),
      ...commands.map((argv) => findCommand(argv[0] ?? '', this.options.env.PATH ?? '')),
    ]);
    const found = leader !== undefined && paths.every((p) => p?.startsWith('/'));
    // Stopped while looking: nothing is started, the status a killed program would give.
    if (this.stopped) return 128 + signalNumber('SIGKILL');
    const { cwd, env, warm } = this.options;
    const children = commands.map(
      (argv, i) =>
        (found && i === 0 ? warm?.run(paths[0]!, argv, { cwd, env }) : undefined) ??
        spawnInGroup(found ? [paths[i]!, ...argv.slice(1)] : argv, {
          cwd,
          env,
          stdin: i === 0 ? 'ignore' : 'pipe',
          leader: found ? leader : undefined,
        }),
    );
    const ends = children.map((child, i) => this.watch(child, i === children.length - 1));
    for (let i = 1; i < children.length; i++) {
      const from = children[i - 1]!.stdout!;
      const to = children[i]!.stdin!;
      // A reader that exits early (`head`) closes its stdin; the writer then gets EPIPE, as in a shell.
      to.on('error', () => undefined);
      from.pipe(to);
    }
    const statuses = await Promise.all(ends);
    return statuses[statuses.length - 1]!;
  }

  /** Reports a child's output and resolves with its exit status once its streams are closed. */
  private watch(child: ChildProcess, isLast: boolean): Promise<number> {
    this.live.add(child);
    this.started.push(child);
    const streams = isLast ? [child.stdout!, child.stderr!] : [child.stderr!];
    for (const stream of streams) {
      const lines = new OutputLines((line) => this.options.onLine?.(line));
      stream.on('data', (chunk: Buffer) => {
        if (this.stopped) return;
        this.outputBytes += chunk.length;
        if (this.options.outputLimit > 0 && this.outputBytes > this.options.outputLimit) {
          this.stop('output-limit');
          return;
        }
        lines.push(chunk);
      });
      stream.on('end', () => {
        if (!this.stopped) lines.end();
      });
    }
    return new Promise((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.live.delete(child);
        const name = child.spawnargs[0] ?? '';
        if (isNotInstalled(error)) this.notInstalled.push(name);
        const reason = isNotInstalled(error) ? 'command not found' : error.message;
        this.options.onLine?.(`${name}: ${reason}`);
        resolve(NOT_FOUND);
      });
      child.once('close', (code, signal) => {
        this.live.delete(child);
        resolve(code ?? 128 + signalNumber(signal));
      });
    });
  }

  /** Ends the run: every live process group is killed. */
  stop(outcome: RunOutcome): void {
    this.stopped ??= outcome;
    for (const child of this.live) killGroup(child);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onAbort);
    for (const child of this.started) killGroup(child);
  }
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return (signal && constants.signals[signal]) || 1;
}
