import { access, constants, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import {
  findGroupLeader,
  isNotInstalled,
  killGroup as killProcessGroup,
  spawnInGroup,
} from './process-group.ts';

/**
 * The one way Cabinet runs another program (issue 44): argv only (never a shell), an explicit
 * environment, a wall-time limit that kills the whole process group, an address-space limit
 * (`prlimit --as`), a cap on output bytes, cancellation by AbortSignal, and a typed result in
 * which "not installed" is its own case rather than a message to match.
 *
 * There is no flag that takes the network away from a child without privileges (namespaces need
 * root or user namespaces, which containers often forbid), so decoders are run with an empty
 * environment (no proxy variables, no DISPLAY) and a throw-away HOME, and are only ever handed
 * local files.
 */
export interface RunLimits {
  /** Wall time before the process group is killed with SIGKILL. */
  timeoutMs: number;
  /** Address-space limit in bytes (`prlimit --as`); undefined runs without one. */
  memoryBytes?: number;
  /** Bytes of stdout kept; more kills the process group (`output-too-large`). */
  maxOutputBytes: number;
}

export interface RunOptions extends RunLimits {
  cwd?: string;
  /**
   * The child's whole environment (nothing of the server's is inherited). Default: PATH, LANG=C
   * and HOME in a fresh temp folder removed afterwards.
   */
  env?: Record<string, string>;
  /** Aborting kills the process group (`cancelled`). */
  signal?: AbortSignal;
  /** Written to the child's stdin, which is closed after it; without, stdin is /dev/null. */
  input?: Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
  /** Exit codes besides 0 that mean success (`find` exits 1 when a file it was given is gone). */
  successCodes?: readonly number[];
}

/** What became of a run. */
export type RunResult =
  | { kind: 'ok'; stdout: Buffer }
  | { kind: 'failed'; code: number | null; signal: NodeJS.Signals | null; stderr: string }
  | { kind: 'not-installed'; command: string }
  | { kind: 'timed-out'; stderr: string }
  | { kind: 'output-too-large'; stderr: string }
  | { kind: 'cancelled' };

/** Last bytes of stderr kept for a failure's message. */
const STDERR_TAIL = 4096;
/** PATH the children search; the server's own PATH is not passed on. */
export const CHILD_PATH = '/usr/local/bin:/usr/bin:/bin';

/** Absolute path of `command` on PATH, or undefined when it is not installed. */
export async function findCommand(
  command: string,
  searchPath = process.env.PATH ?? CHILD_PATH,
): Promise<string | undefined> {
  if (command.includes('/')) {
    return (await isExecutable(command)) ? command : undefined;
  }
  // Every folder is asked at once and the first in PATH's order wins: asked one after another, a
  // long PATH made the lookup as long as the sum of every check's wait on a busy machine.
  const candidates = searchPath
    .split(':')
    .filter((dir) => dir !== '')
    .map((dir) => path.join(dir, command));
  const executable = await Promise.all(candidates.map(isExecutable));
  return candidates[executable.indexOf(true)];
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A private temp folder a program writes its output into (decoders that cannot use stdout). */
export interface TempDir {
  readonly path: string;
  /** Reads a file the program wrote, refusing one larger than `maxBytes` (undefined if absent). */
  read(name: string, maxBytes: number): Promise<Buffer | undefined>;
}

/** Runs `task` with a fresh private temp folder, removed afterwards whatever happens. */
export async function withTempDir<T>(task: (dir: TempDir) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cabinet-proc-'));
  const read = async (name: string, maxBytes: number) => {
    const file = path.join(dir, name);
    try {
      if ((await stat(file)).size > maxBytes) return undefined;
      return await readFile(file);
    } catch {
      return undefined;
    }
  };
  try {
    return await task({ path: dir, read });
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A running child whose stdout is read as a stream (a remux sent while it is made). */
export interface StreamingRun {
  stdout: Readable;
  /** Settles when the child has exited; `ok` carries an empty buffer (the bytes went to stdout). */
  result: Promise<RunResult>;
}

/** Runs a program to completion and collects its output (at most `maxOutputBytes`). */
export async function runProcess(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<RunResult> {
  const started = await start(command, args, options, false);
  if ('kind' in started) return started;
  return started.result;
}

/**
 * Runs a program whose stdout is consumed as it is made. The output cap counts the bytes passed
 * on; destroying `stdout` (the client left) kills the child.
 */
export async function streamProcess(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<StreamingRun | Extract<RunResult, { kind: 'not-installed' | 'cancelled' }>> {
  const started = await start(command, args, options, true);
  if ('kind' in started) return started;
  return { stdout: started.stdout!, result: started.result };
}

async function start(
  command: string,
  args: readonly string[],
  options: RunOptions,
  streaming: boolean,
): Promise<
  | { result: Promise<RunResult>; stdout?: Readable }
  | Extract<RunResult, { kind: 'not-installed' | 'cancelled' }>
> {
  if (options.signal?.aborted) return { kind: 'cancelled' };
  const executable = await findCommand(command);
  if (!executable) return { kind: 'not-installed', command };
  let argv = [executable, ...args];
  if (options.memoryBytes !== undefined) {
    // prlimit sets RLIMIT_AS and execs the program, so the limit holds for it and its children.
    const prlimit = await findCommand('prlimit');
    if (prlimit) argv = [prlimit, `--as=${Math.floor(options.memoryBytes)}`, '--', ...argv];
  }
  const leader = await findGroupLeader();
  if (options.env) return { ...launch(argv, options, options.env, streaming, leader) };
  // The default HOME is a temp folder of its own, removed once the child has exited.
  const home = await mkdtemp(path.join(os.tmpdir(), 'cabinet-home-'));
  const env = { PATH: CHILD_PATH, HOME: home, LANG: 'C.UTF-8', TMPDIR: home };
  const launched = launch(argv, options, env, streaming, leader);
  return {
    stdout: launched.stdout,
    result: launched.result.finally(() =>
      rm(home, { recursive: true, force: true }).catch(() => undefined),
    ),
  };
}

function launch(
  argv: string[],
  options: RunOptions,
  env: Record<string, string>,
  streaming: boolean,
  leader: string | undefined,
): { result: Promise<RunResult>; stdout?: Readable } {
  const program = argv[0] ?? '';
  // Its own process group, so a timeout kills what the program started too (soffice forks).
  const stdin = options.input ? 'pipe' : 'ignore';
  const child = spawnInGroup(argv, { cwd: options.cwd, env, stdin, leader });
  if (options.input) {
    // A child that exits before reading all of it closes the pipe: its exit says what happened.
    pipeline(Readable.from(options.input, { objectMode: false }), child.stdin!, () => undefined);
  }
  const childOut = child.stdout!;
  const childErr = child.stderr!;
  let ending: 'timed-out' | 'output-too-large' | 'cancelled' | undefined;
  const killGroup = (why: NonNullable<typeof ending>) => {
    ending ??= why;
    killProcessGroup(child);
  };
  const timer = setTimeout(() => killGroup('timed-out'), options.timeoutMs);
  const onAbort = () => killGroup('cancelled');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Aborted while the program was being looked up.
  if (options.signal?.aborted) onAbort();

  let stderr = '';
  childErr.setEncoding('utf8');
  childErr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });

  const chunks: Buffer[] = [];
  let bytes = 0;
  let stdout: Readable | undefined;
  let stdoutEnded = false;
  if (streaming) {
    const out = new Readable({
      read: () => childOut.resume(),
      destroy: (error, callback) => {
        // The reader left: nobody wants the rest of the output.
        if (!stdoutEnded && child.exitCode === null && child.signalCode === null) {
          killGroup('cancelled');
        }
        callback(error);
      },
    });
    childOut.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxOutputBytes) return killGroup('output-too-large');
      if (!out.push(chunk)) childOut.pause();
    });
    childOut.on('end', () => {
      stdoutEnded = true;
      out.push(null);
    });
    stdout = out;
  } else {
    childOut.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxOutputBytes) return killGroup('output-too-large');
      chunks.push(chunk);
    });
  }

  const result = new Promise<RunResult>((resolve) => {
    let spawnError: NodeJS.ErrnoException | undefined;
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    // 'close' follows the end of stdout and stderr, so every byte is counted by then.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (spawnError && isNotInstalled(spawnError))
        return resolve({ kind: 'not-installed', command: program });
      if (ending === 'cancelled') return resolve({ kind: 'cancelled' });
      if (ending === 'timed-out') return resolve({ kind: 'timed-out', stderr });
      if (ending === 'output-too-large') return resolve({ kind: 'output-too-large', stderr });
      const succeeded = code === 0 || (code !== null && options.successCodes?.includes(code));
      if (succeeded && !spawnError) return resolve({ kind: 'ok', stdout: Buffer.concat(chunks) });
      resolve({ kind: 'failed', code, signal, stderr: spawnError ? spawnError.message : stderr });
    });
  });
  if (stdout) {
    const out = stdout;
    void result.then((settled) => {
      if (settled.kind !== 'ok' && !out.destroyed) {
        out.destroy(new Error(`${path.basename(program)}: ${describeFailure(settled)}`));
      }
    });
  }
  return { result, stdout };
}

/** One line saying why a run did not succeed, for logs and error messages. */
export function describeFailure(result: RunResult): string {
  switch (result.kind) {
    case 'ok':
      return 'succeeded';
    case 'failed':
      return `exited with ${result.code ?? result.signal}: ${lastLine(result.stderr)}`;
    case 'not-installed':
      return `${result.command} is not installed`;
    case 'timed-out':
      return 'took too long and was stopped';
    case 'output-too-large':
      return 'wrote more output than allowed and was stopped';
    case 'cancelled':
      return 'cancelled';
  }
}

function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines[lines.length - 1] ?? '';
}
