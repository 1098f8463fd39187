import { Duplex, type Readable, type Writable } from 'node:stream';
import { findCommand } from '../process/run-process.ts';
import { killGroup, spawnInGroup, type ChildProcess } from '../process/process-group.ts';

const STDERR_KEEP = 2048;

/**
 * A compressor program (bzip2, xz, …) as a Duplex: bytes written go to its stdin, its stdout is
 * read at the consumer's pace (stdout is paused while the consumer is full, so the child blocks
 * instead of buffering). Destroying the stream — an aborted download — kills the child. A non-zero
 * exit is an error carrying the program's last words.
 */
export class ChildCompressor extends Duplex {
  private readonly child: ChildProcess;
  private readonly stdin: Writable;
  private readonly stdout: Readable;
  private stderr = '';

  constructor(command: string, args: readonly string[]) {
    super();
    this.child = spawnInGroup([command, ...args], {
      stdin: 'pipe',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    });
    const stdin = this.child.stdin!;
    const stdout = this.child.stdout!;
    const stderr = this.child.stderr!;
    this.stdin = stdin;
    this.stdout = stdout;
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
    this.stdout.resume();
  }

  /**
   * Calls back once the chunk is in the pipe, so a writer may use its buffer again
   * (`sinkReleasesOnCallback`). A failed write is not reported here: the program's exit status
   * says why (see the constructor).
   */
  override _write(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error) => void,
  ): void {
    this.stdin.write(chunk, () => callback());
  }

  override _final(callback: (error?: Error) => void): void {
    this.stdin.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.child.exitCode === null && this.child.signalCode === null) killGroup(this.child);
    this.stdout.destroy();
    this.stdin.destroy();
    callback(error);
  }

  /** The child's process id (for tests that check it is gone after an abort). */
  get pid(): number | undefined {
    return this.child.pid;
  }
}

/**
 * Whether `command` is installed (an executable of that name on the server's PATH). Looked up on
 * each archive request: an access() per PATH folder, so a tool installed later is noticed.
 */
export async function hasCommand(command: string): Promise<boolean> {
  return (await findCommand(command)) !== undefined;
}
