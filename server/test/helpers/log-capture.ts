import { Writable } from 'node:stream';
import { pino, type Level, type Logger } from 'pino';

/** A logger whose JSON lines are kept in `lines`, to check what the server logs (or never logs). */
export function captureLog(level: Level = 'info'): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: pino({ level }, sink), lines };
}
