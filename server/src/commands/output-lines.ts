import { StringDecoder } from 'node:string_decoder';

/** A line longer than this is sent in pieces (the reference's scanner stopped at 64 KiB). */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * Cuts one output stream into lines as its bytes arrive, so each line can be sent the moment it
 * is complete instead of when the command ends. UTF-8 sequences split across chunks stay whole.
 */
export class OutputLines {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(chunk: Buffer): void {
    this.pending += this.decoder.write(chunk);
    let newline = this.pending.indexOf('\n');
    while (newline >= 0) {
      this.emit(this.pending.slice(0, newline).replace(/\r$/, ''));
      this.pending = this.pending.slice(newline + 1);
      newline = this.pending.indexOf('\n');
    }
    while (this.pending.length > MAX_LINE_CHARS) {
      this.onLine(this.pending.slice(0, MAX_LINE_CHARS));
      this.pending = this.pending.slice(MAX_LINE_CHARS);
    }
  }

  /** The last line, when the output did not end with a newline. */
  end(): void {
    this.pending += this.decoder.end();
    if (this.pending !== '') this.emit(this.pending);
    this.pending = '';
  }

  private emit(line: string): void {
    for (let i = 0; i < line.length || i === 0; i += MAX_LINE_CHARS) {
      this.onLine(line.slice(i, i + MAX_LINE_CHARS));
    }
  }
}
