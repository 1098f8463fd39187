import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Duplex } from 'node:stream';

const STDERR_KEEP = 2048;

/**
 * A compressor program (bzip2, xz, …) as a Duplex: bytes written go to its stdin, its stdout is
 * read at the consumer's pace (stdout is paused while the consumer is full, so the child blocks
 * instead of buffering). Destroying the stream — an aborted download — kills the child. A non-zero
 * exit is an error carrying the program's last words.
 */
export class ChildCompressor extends Duplex {
  private readonly child: ChildProcessWithoutNullStreams;
  private stderr = '';

  constructor(command: string, args: readonly string[]) {
    super();
    this.child = spawn(command, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    });
    const { stdin, stdout, stderr } = this.child;
    stdout.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) stdout.pause();
    });
    stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    // A program that dies makes writes fail with EPIPE; its exit status (reported on 'close')
    // says why, so the pipe error is only kept for a program that claims success.
    let stdinError: Error | undefined;
    stdin.on('error', (error) => (stdinError ??= error));
    this.child.on('error', (error) => this.destroy(error));
    this.child.on('close', (code, signal) => {
      if (this.destroyed) return;
      if (code === 0 && stdinError) this.destroy(stdinError);
      else if (code === 0) this.push(null);
      else
        this.destroy(
          new Error(
            `${command} exited with ${code ?? signal}: ${this.stderr.trim() || 'no output'}`,
          ),
        );
    });
  }

  override _read(): void {
    this.child.stdout.resume();
  }

  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error) => void,
  ): void {
    if (this.child.stdin.write(chunk)) callback();
    else this.child.stdin.once('drain', () => callback());
  }

  override _final(callback: (error?: Error) => void): void {
    this.child.stdin.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    this.child.stdout.destroy();
    this.child.stdin.destroy();
    callback(error);
  }

  /** The child's process id (for tests that check it is gone after an abort). */
  get pid(): number | undefined {
    return this.child.pid;
  }
}

const probes = new Map<string, Promise<boolean>>();

/**
 * Whether `command` can be started (it is on PATH and runs `--version`). Checked once per process:
 * installing a tool needs a restart to be noticed.
 */
export function hasCommand(command: string): Promise<boolean> {
  let probe = probes.get(command);
  if (!probe) {
    probe = new Promise<boolean>((resolve) => {
      const child = spawn(command, ['--version'], { stdio: ['ignore', 'ignore', 'ignore'] });
      child.once('error', () => resolve(false));
      child.once('close', (code) => resolve(code === 0));
    });
    probes.set(command, probe);
  }
  return probe;
}
